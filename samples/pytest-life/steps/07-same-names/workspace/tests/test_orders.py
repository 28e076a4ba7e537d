def test_totals():
    assert sum([10, 20]) == 30
