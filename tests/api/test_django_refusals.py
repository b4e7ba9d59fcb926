"""What Django itself refuses, before or around a view (a body too big, a failed CSRF check, a fault), is JSON
``{"message", "extra"}`` under /api/ like every other refusal there; elsewhere Django's own pages."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import Client, RequestFactory
from django.urls import get_resolver
from rest_framework.test import APIClient

from casino.errors import csrf_failure
from config import urls

BIG = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1


@pytest.fixture
def api(pit_boss) -> APIClient:  # type: ignore[no-untyped-def]
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(pit_boss)
    return client


@pytest.mark.django_db
def test_a_json_body_over_the_limit_is_a_json_413_not_an_html_page(api) -> None:
    body = '{"cards": "' + "x" * BIG + '"}'
    response = api.post("/api/assist/paigow-poker/house-way/", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "message": f"The request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes: send less.",
        "extra": {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
    }


@pytest.mark.django_db
def test_a_form_body_over_the_limit_is_a_json_413_too(api) -> None:
    response = api.post(
        "/api/auth/token/", data="username=" + "x" * BIG, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    assert response.json()["extra"] == {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}


@pytest.mark.django_db
def test_a_body_over_the_limit_outside_the_api_keeps_djangos_page(admin_client) -> None:
    response = admin_client.post(
        "/accounts/login/", data="username=" + "x" * BIG, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


def test_django_answers_its_own_refusals_through_the_projects_handlers() -> None:
    resolver = get_resolver()
    assert resolver.resolve_error_handler(400) is urls.handler400
    assert resolver.resolve_error_handler(403) is urls.handler403
    assert resolver.resolve_error_handler(500) is urls.handler500
    assert settings.CSRF_FAILURE_VIEW == "casino.errors.csrf_failure"


@pytest.mark.parametrize(
    ("handler", "status", "words"),
    [
        (lambda r: urls.handler400(r, SuspiciousOperation("bad")), 400, "could not be read"),
        (lambda r: urls.handler403(r, PermissionDenied()), 403, "may not"),
        (urls.handler500, 500, "failed to answer"),
        (lambda r: csrf_failure(r, reason="CSRF token missing."), 403, "CSRF check failed"),
    ],
)
def test_under_the_api_each_refusal_is_json_and_elsewhere_a_page(handler, status, words) -> None:  # type: ignore[no-untyped-def]
    api_answer = handler(RequestFactory().post("/api/tables/"))
    assert api_answer.status_code == status
    assert api_answer["Content-Type"] == "application/json"
    body = json.loads(api_answer.content)
    assert set(body) == {"message", "extra"} and words in body["message"]

    page = handler(RequestFactory().post("/pit/"))
    assert page.status_code == status
    assert page["Content-Type"].startswith("text/html")


def test_the_csrf_refusal_under_the_api_says_why(rf: RequestFactory) -> None:
    body = json.loads(csrf_failure(rf.post("/api/tables/"), reason="CSRF cookie not set.").content)
    assert body["extra"] == {"reason": "CSRF cookie not set."}


@pytest.mark.django_db
def test_a_login_form_without_its_csrf_token_still_gets_djangos_page() -> None:
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert b"CSRF" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
def test_an_address_without_its_trailing_slash_is_a_308_that_keeps_the_method_and_body(
    api: APIClient, settings, debug: bool
) -> None:  # type: ignore[no-untyped-def]
    settings.DEBUG = debug  # with DEBUG on, Django's own 301 fails a POST with a server error
    body = {"cards": "As Ks Qs Js Ts 9s 8s"}
    moved = api.post("/api/v1/assist/paigow-poker/house-way?x=1", body, format="json")
    assert moved.status_code == 308 and moved["Location"] == "/api/v1/assist/paigow-poker/house-way/?x=1"
    assert moved.json() == {
        "message": "This address ends with a slash: /api/v1/assist/paigow-poker/house-way/",
        "extra": {"location": "/api/v1/assist/paigow-poker/house-way/?x=1"},
    }
    followed = api.post(moved["Location"], body, format="json")
    assert followed.status_code == 200 and "high" in json.dumps(followed.json())
    assert api.get("/api/v1/tables").status_code == 308
    nowhere = api.get("/api/v1/no-such-thing")
    assert nowhere.status_code == 404 and set(nowhere.json()) == {"message", "extra"}


@pytest.mark.django_db
def test_a_method_the_address_does_not_take_is_a_json_405(api: APIClient) -> None:
    for method in ("put", "delete", "patch"):
        response = getattr(api, method)("/api/v1/tables/")
        assert response.status_code == 405
        assert response.json() == {"message": f'Method "{method.upper()}" not allowed.', "extra": {}}
