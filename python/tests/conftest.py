import pytest

import loony


@pytest.fixture
def s():
    return loony.Session()


@pytest.fixture
def watchdog():
    """A call that is never stopped would hang the run: it ends it instead, with tracebacks."""
    import faulthandler

    faulthandler.dump_traceback_later(60, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
