import pytest


def test_adds_an_item():
    assert [1] + [2] == [1, 2]


@pytest.mark.slow
def test_checks_out_slowly():
    assert True
