import os
import pytest


# Traceability (README "Traceability"): references by record_property, a <property> of the test
# in the JUnit XML: one requirement; a comma list under the plural, as Xray's JUnit import reads it,
# and a work item.
def test_passes(record_property):
    record_property("requirement", "REQ-101")
    assert 1 + 1 == 2


def test_fails_assertion(record_property):
    record_property("requirements", "REQ-102, REQ-103")
    record_property("issue", "PROJ-7")
    assert 2 + 2 == 5, "arithmetic is broken"


def test_raises_exception():
    # not an assertion: pytest still reports it as "failed" (errors are setup/teardown problems)
    raise ValueError("unexpected value")


def test_fixture_error(broken_resource):
    assert broken_resource is not None


@pytest.mark.skip(reason="not implemented yet")
def test_skipped():
    assert False


@pytest.mark.xfail(reason="known bug #42", strict=False)
def test_expected_failure():
    assert 1 == 2


def test_writes_stdout():
    print("hello from stdout")
    assert True


@pytest.mark.parametrize("n", [1, 2, 3])
def test_is_small(n):
    assert n < 3


def test_flaky_retried(marker_dir):
    marker = os.path.join(marker_dir, "flaky_retried.marker")
    if not os.path.exists(marker):
        open(marker, "w").close()
        assert False, "first attempt fails"
    assert True


def test_unicode_éü日本():
    assert "日本".startswith("日")


@pytest.mark.parametrize("text", ["ok"], ids=["quotes \" and ' and <>& and 🎉 é ü 日本"])
def test_special_name(text):
    assert text == "ok"


class TestMath:
    def test_adds(self):
        assert 1 + 2 == 3


class TestOuter:
    class TestInner:
        def test_nested_passes(self):
            assert [1, 2] == [1, 2]

        def test_nested_fails(self):
            assert {"a": 1} == {"a": 2}
