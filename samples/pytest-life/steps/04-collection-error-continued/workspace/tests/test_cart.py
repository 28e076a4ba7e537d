import pytest


def test_adds_an_item():
    assert [1] + [2] == [1, 2]


def test_removes_an_item():
    assert [1, 2][1:] == [2]


@pytest.mark.slow
def test_checks_out_slowly():
    assert sum(range(1000)) == 499500
