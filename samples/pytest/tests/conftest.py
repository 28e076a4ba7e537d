import os
import pytest


@pytest.fixture
def broken_resource():
    # a setup error: pytest reports the test as an ERROR, not a failure
    raise RuntimeError("could not open the resource")


@pytest.fixture
def marker_dir():
    # regenerate.sh clears this directory before each run
    path = os.environ.get("SAMPLE_MARKER_DIR", "/tmp/testcycle-pytest-sample")
    os.makedirs(path, exist_ok=True)
    return path
