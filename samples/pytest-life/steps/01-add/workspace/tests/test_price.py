def test_rounds_half_up():
    assert int(12.5 + 0.5) == 13


def test_formats_a_currency():
    assert f"{12.5:.2f} EUR" == "12.50 EUR"
