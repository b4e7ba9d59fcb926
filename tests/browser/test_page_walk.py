"""Every page each role can reach from its navigation, in English and German, at 1024×768 and 1280×800.

The demo floor (``manage.py seed_demo``, as ``make demo`` seeds it) is signed in to as each of its users; from the
page a user lands on, every link on the site is followed (breadth first, the same address pattern at most
``SAME_PATTERN`` times: a third table's set-up page teaches nothing the first two did not). Each page is checked at
both window sizes (``page_walk``): no horizontal overflow, no control under 44×44 px, no text left in English on a
German page, no console error or failed request, no link answering 4xx/5xx; and axe-core finds nothing serious or
critical on it. The links the walk does not open as pages (downloads, the admin, the API's docs) are fetched and
must answer 200.
"""

from __future__ import annotations

import contextlib
import re
from collections import deque
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from casino.models import Shift
from tests.browser.page_walk import FIELD_VALUES_JS, LAYOUT_JS, TAP, TEXTS_JS, english_texts, foreign_numbers

SIZES = ({"width": 1024, "height": 768}, {"width": 1280, "height": 800})
SAME_PATTERN = 2
AXE = Path(__file__).resolve().parents[2] / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
# Fetched, not walked: files, Django's admin, the API's docs, the language switch, signing out.
NOT_PAGES = re.compile(r"^/(?:admin/|api/|i18n/|accounts/logout/|static/)|/(?:csv|html|pdf)/$|\.(?:png|pdf|csv)$")
ROLES = ("dealer", "floor", "pitboss", "auditor", "cage", "count1", "director", "credit", "admin")
AXE_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.length}× e.g. ${v.nodes[0].target.join(' ')}`);
}"""


def _pattern(path: str) -> str:
    return re.sub(r"\d+", "N", path)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("username", ROLES)
def test_every_page_a_role_reaches_fits_the_tablet_and_speaks_its_language(
    browser: Any, live_server: Any, live_demo_floor: str, username: str, language: str
) -> None:
    assert AXE.is_file(), f"{AXE} is missing: `make test` installs axe-core for the browser tests"
    context = browser.new_context(
        viewport=SIZES[0],
        has_touch=True,
        locale="de-DE" if language == "de" else "en-US",
        base_url=live_server.url,
        bypass_csp=True,  # for axe-core's script only: the pages' own policy is test_csp's
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(f"console: {message.text}"))
    page.on("pageerror", lambda error: errors.append(f"script: {error}"))
    page.on(
        "response",
        lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"),
    )
    try:
        page.goto("/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", live_demo_floor)
        page.click("button[type=submit]")
        page.wait_for_load_state()
        origin = live_server.url
        names = frozenset(
            [*User.objects.values_list("username", flat=True), *Shift.objects.values_list("name", flat=True)]
        )
        start = urlsplit(page.url).path
        queue, seen, patterns, fetched = deque([start]), {start}, {_pattern(start): 1}, set()
        faults: dict[str, list[str]] = {}
        walked = 0
        while queue:
            path = queue.popleft()
            errors.clear()
            response = page.goto(path)
            with contextlib.suppress(
                PlaywrightTimeout
            ):  # a live page polls for ever: its first load waited for a little
                page.wait_for_load_state("networkidle", timeout=2_000)
            here = urlsplit(page.url).path + (f"?{urlsplit(page.url).query}" if urlsplit(page.url).query else "")
            found: list[str] = []
            if response is None or response.status >= 400:
                found.append(f"answered {response.status if response else 'nothing'}")
            for size in SIZES:
                page.set_viewport_size(size)
                layout = page.evaluate(LAYOUT_JS, TAP)
                if layout["overflow"] > 0:
                    found.append(f"{size['width']}: {layout['overflow']} px wider than the window")
                found += [f"{size['width']}: small control {control}" for control in layout["small"]]
            page.set_viewport_size(SIZES[0])
            texts = page.evaluate(TEXTS_JS)
            if language == "de":
                found += [f"English: {text!r}" for text in english_texts(texts, names)]
            numbers = foreign_numbers(texts + page.evaluate(FIELD_VALUES_JS), language)
            found += [f"number not in {language}: {text!r}" for text in numbers]
            page.add_script_tag(path=str(AXE))
            found += [f"axe: {violation}" for violation in page.evaluate(AXE_JS)]
            found += errors
            if found:
                faults[here] = found
            walked += 1
            for href in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"):
                url = urldefrag(href)[0]
                if not url.startswith(origin):
                    continue
                link = url[len(origin) :] or "/"
                link_path = urlsplit(link).path
                if NOT_PAGES.search(link_path):
                    if link not in fetched and not link_path.startswith(("/i18n/", "/accounts/logout/")):
                        fetched.add(link)
                        status = page.request.get(link, max_redirects=0).status
                        if status >= 400:
                            faults.setdefault(here, []).append(f"link {link} answers {status}")
                    continue
                if link in seen or patterns.get(_pattern(link), 0) >= SAME_PATTERN:
                    continue
                seen.add(link)
                patterns[_pattern(link)] = patterns.get(_pattern(link), 0) + 1
                queue.append(link)
        print(f"{username} ({language}): {walked} pages walked, {len(fetched)} links fetched")
        assert not faults, "\n".join(f"{path}:\n  " + "\n  ".join(found) for path, found in faults.items())
    finally:
        page.goto("about:blank", timeout=5_000)
        context.close()
