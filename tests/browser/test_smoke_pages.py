"""The browser set-up works: Chromium signs in and sees the floor, with htmx served locally."""

from __future__ import annotations

import pytest


@pytest.mark.django_db(transaction=True)
def test_a_signed_in_user_sees_the_floor_with_every_asset_served_locally(new_page, dealer) -> None:
    page = new_page(dealer)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto("/")
    assert page.locator("header.top .brand").inner_text() == "Tableside"
    assert page.evaluate("typeof window.htmx") == "object"
    assert requests and all(
        url.startswith(page.url.split("/", 3)[0] + "//" + page.url.split("/")[2]) for url in requests
    )
