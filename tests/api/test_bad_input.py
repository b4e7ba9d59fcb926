"""Malformed input under /api/ gets a clear JSON refusal in the user's words, never a 500 (issue 15, "Faults and
bad input")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api(pit_boss) -> APIClient:  # type: ignore[no-untyped-def]
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(pit_boss)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/auth/token/", "/api/assist/paigow-poker/house-way/"])
def test_a_json_body_nested_a_thousand_deep_is_refused_not_a_500(api, path) -> None:
    body = "[" * 1000 + "]" * 1000
    response = api.post(path, data=body, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert "nested too deeply" in response.json()["message"]


@pytest.mark.django_db
def test_a_nul_byte_in_a_status_filter_is_refused_not_a_500(api) -> None:
    response = api.get("/api/adjustments/", {"status": "pending\x00"})
    assert response.status_code == 400, response.content[:200]
    assert response.json()["extra"] == {"field": "status"}
    assert api.get("/api/adjustments/", {"status": "pending"}).status_code == 200


@pytest.mark.django_db
def test_a_nul_byte_in_an_admin_filter_is_refused_not_a_500(admin_client) -> None:
    response = admin_client.get("/admin/casino/auditevent/", {"event_type": "round.settled\x00"})
    assert response.status_code == 400
    assert "NUL byte" in response.content.decode()


@pytest.mark.django_db
def test_an_unknown_api_address_answers_json(api) -> None:
    response = api.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"message": "Nothing is at this API address.", "extra": {"path": "/api/no-such-thing/"}}


def test_a_forms_digits_are_a_number_and_nothing_else_is() -> None:
    from casino.fields import StrictCharField, StrictIntegerField

    field = StrictIntegerField()
    assert field.run_validation("12") == 12 and field.run_validation(" -3 ") == -3 and field.run_validation(7) == 7
    for bad in ("３", "1.0", True, 1.5, "", "12a"):
        with pytest.raises(Exception, match="valid integer"):
            field.run_validation(bad)
    assert StrictCharField().run_validation("Misdeal") == "Misdeal"
    with pytest.raises(Exception, match="Not a valid string"):
        StrictCharField().run_validation(5)
