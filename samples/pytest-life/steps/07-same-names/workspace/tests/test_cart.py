import pytest


def test_removes_one_item():
    assert [1, 2][1:] == [2]


@pytest.mark.slow
def test_checks_out_slowly():
    assert sum(range(1000)) == 499500
