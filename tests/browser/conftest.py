"""Browser tests: Playwright for Python driving Debian's Chromium against pytest-django's live server.

Playwright cannot download its own browser here, so it launches ``/usr/bin/chromium``
(``make test`` installs it when it is missing). Pages open at tablet size (1024×768
landscape) unless a test sets another; ``shoot`` saves a screenshot under
docs/screenshots/ for the README.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TABLET = {"width": 1024, "height": 768}
PASSWORD = "s3cret-pass-word"  # the make_user fixture's password

# Playwright's sync API runs an event loop in the test's thread; the ORM calls the tests make
# between browser steps are plain synchronous calls, so Django may allow them there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium for the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """Open a signed-in page (a fresh browser context per user) at tablet size, touch enabled."""
    contexts = []

    def open_page(user: User | None = None, *, viewport: dict[str, int] | None = None, locale: str = "en-US") -> Any:
        context = browser.new_context(
            viewport=viewport or TABLET, has_touch=True, locale=locale, base_url=live_server.url
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        if user is not None:
            page.goto("/accounts/login/")
            page.fill("input[name=username]", user.get_username())
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_load_state()
        return page

    yield open_page
    # Each page goes to a blank one first, within a bounded wait: a page that polls or reloads itself (the tablet,
    # the dashboard, the poker room's console) is stopped there. Closing a context while its page was reloading
    # waited for ever twice, at the end of a CI pass (after test_ofc_tournament, whose console reloads itself):
    # Playwright's close has no timeout. A context whose page will not leave is left to the browser's own close at
    # the end of the session, which kills what does not close.
    from playwright.sync_api import Error as PlaywrightError

    for context in contexts:
        try:
            for page in context.pages:
                page.goto("about:blank", timeout=5_000)
        except PlaywrightError:
            continue
        context.close()


@pytest.fixture
def shoot() -> Callable[[Any, str], Path]:
    """Save a screenshot of ``page`` as docs/screenshots/<name>.png."""

    def take(page: Any, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        header = page.locator("header")
        if header.count():  # a sticky notice scrolled down the page would sit over it in a full-page shot
            header.first.scroll_into_view_if_needed()
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
