import pytest

import loony


@pytest.fixture
def s():
    return loony.Session()
