"""The error pages a user meets: styled like every page, in the user's language, with a way back; a refusal logged
as one line, never with a traceback."""

from __future__ import annotations

import logging

import pytest
from django.test import Client, override_settings

from casino.roles import Role

STAFF_PAGES = ("/pit/", "/reports/", "/cage/", "/pit/lab/", "/count/")


@pytest.mark.parametrize("path", STAFF_PAGES)
def test_a_dealer_refused_a_supervisors_page_gets_the_styled_page_with_the_way_back_and_no_traceback(
    client: Client, make_user, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    client.force_login(make_user("dana", Role.DEALER))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(path)
    assert response.status_code == 403
    page = response.content.decode()
    assert '<header class="top">' in page and "This page is not for your role" in page
    assert 'href="/"' in page and "Back to my start page" in page
    refusals = [record for record in caplog.records if record.name == "django.request"]
    assert refusals and all(record.exc_info is None and record.exc_text is None for record in refusals)


def test_the_refusal_reads_in_german_for_a_german_browser(client: Client, make_user) -> None:
    client.force_login(make_user("dana", Role.DEALER))
    page = client.get("/pit/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Diese Seite ist nicht für Ihre Rolle" in page and "Zurück zu meiner Startseite" in page


def test_an_address_that_is_not_there_gets_the_styled_404_with_the_way_back(client: Client, make_user) -> None:
    client.force_login(make_user("pia", Role.PIT_BOSS))
    response = client.get("/pit/tables/999999/nothing/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "There is nothing at this address" in page and "Back to my start page" in page


def test_an_anonymous_visitor_at_a_missing_address_is_offered_the_sign_in(client: Client, db) -> None:
    page = client.get("/no-such-page/").content.decode()
    assert "There is nothing at this address" in page and 'href="/accounts/login/"' in page


@override_settings(DEBUG=False)
def test_a_fault_gets_the_styled_500_page_and_keeps_its_traceback_in_the_log(
    make_user, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a fault")

    client = Client(raise_request_exception=False)
    client.force_login(make_user("aude", Role.AUDITOR))
    monkeypatch.setattr("pit.views.render", fail)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "The server failed to answer this page" in page and 'href="/"' in page
    assert any(record.exc_info for record in caplog.records if record.name == "django.request")


def test_an_expired_form_gets_the_styled_page_not_djangos(make_user) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("pia", Role.PIT_BOSS))
    response = client.post("/pit/day/open/", {"business_date": "2026-11-29"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "The form had expired" in page and "nothing was recorded" in page
