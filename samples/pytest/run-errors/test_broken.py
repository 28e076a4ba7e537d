# Fails at collection: the module it imports does not exist, so pytest runs none of its tests.
from no_such_module import total


def test_totals():
    assert total([1, 2]) == 3
