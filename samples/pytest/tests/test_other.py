class TestMath:
    # same class and test name as tests/test_basics.py::TestMath::test_adds
    def test_adds(self):
        assert 2 + 2 == 4
