from money import rounding


def test_rounds_half_up():
    assert rounding.half_up(12.5) == 13


def test_formats_a_currency():
    assert f"{12.5:.2f} EUR" == "12.50 EUR"
