"""The Content-Security-Policy (config.settings, on with DEBUG on too) in Chromium: the floor, the pit-boss
dashboard, the admin and the API docs run under it without one refused script or style. The tablet's
own browser tests run under it as well."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.mark.django_db(transaction=True)
def test_the_floor_the_pit_dashboard_the_admin_and_the_api_docs_break_no_rule_of_the_csp(
    new_page: Callable[..., Any],
    pit_boss: Any,
) -> None:
    from django.contrib.auth.models import User

    User.objects.filter(pk=pit_boss.pk).update(is_superuser=True)
    page = new_page(pit_boss)
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    for path in ("/", "/pit/", "/admin/", "/admin/auth/user/", "/api/docs/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        if path == "/pit/":  # the live region still refreshes itself (htmx's polling, no filter run as a string)
            with page.expect_request(lambda request: "/pit/live/?" in request.url, timeout=8_000):
                pass
    assert page.locator(".swagger-ui").count() == 1
    page.wait_for_selector(".swagger-ui .opblock", timeout=10_000)
    assert not violations, violations
