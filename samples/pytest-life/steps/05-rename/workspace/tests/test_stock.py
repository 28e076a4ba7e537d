def test_counts_the_shelf():
    assert len(["a", "b"]) == 2


def test_reserves_an_item():
    assert {"a": 1}.get("a") == 1


def test_releases_a_reservation():
    assert {"a": 1}.pop("a") == 1
