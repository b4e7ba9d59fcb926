"""Waiting in a browser test for something only the test's own route handlers see (a request held, a poll made):
the page's clock runs meanwhile, so Playwright keeps calling the handlers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def wait_until(page: Any, condition: Callable[[], bool], what: str, *, seconds: float = 5) -> None:
    """Wait up to ``seconds`` for ``condition``, checking every 50 ms; fail saying ``what`` did not happen."""
    for _ in range(int(seconds * 20)):
        if condition():
            return
        page.wait_for_timeout(50)
    assert condition(), what
