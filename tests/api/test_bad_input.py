"""Malformed input under /api/ gets a clear JSON refusal in the user's words, never a 500 ("Faults and
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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/assist/paigow-poker/house-way/", {"cards": "As Ad 7s 4d 2c Kh Kc", "rule_set": "３"}, "rule_set"),
        ("/api/assist/paigow-poker/house-way/", {"cards": "As Ad 7s 4d 2c Kh Kc", "rule_set": True}, "rule_set"),
        ("/api/assist/paigow-poker/house-way/", {"cards": 7}, "cards"),
        ("/api/assist/paigow-tiles/house-way/", {"tiles": True}, "tiles"),
        ("/api/assist/chinese-poker/suggest/", {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "top": "２"}, "top"),
        ("/api/assist/chinese-poker/suggest/", {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "top": 2.5}, "top"),
        (
            "/api/assist/ofc/score/",
            {"seats": {"1": {"front": 1, "middle": "x", "back": "y"}}, "stakes_cents": "1"},
            "seats",
        ),
        ("/api/assist/chinese-poker/score/", {"seats": {}, "stakes_cents": False}, "stakes_cents"),
    ],
)
def test_the_assist_inputs_take_a_number_or_a_text_only_as_a_person_means_it(api, path, body, field) -> None:
    response = api.post(path, body, format="json")
    assert response.status_code == 400, response.content[:300]
    assert field in response.json()["extra"]["fields"]


@pytest.mark.django_db
@pytest.mark.parametrize("form", ["multipart", None])
def test_a_form_body_is_refused_naming_json_the_one_the_api_reads(api, form) -> None:  # type: ignore[no-untyped-def]
    body = {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "top": "2"}
    if form:
        response = api.post("/api/assist/chinese-poker/suggest/", body, format=form)
    else:
        response = api.post(
            "/api/assist/chinese-poker/suggest/",
            "cards=2s&top=2",
            content_type="application/x-www-form-urlencoded",
        )
    assert response.status_code == 415, response.content[:300]
    assert response.json()["message"] == "The body cannot be read: send JSON, with Content-Type: application/json."


@pytest.mark.django_db
def test_a_body_in_a_content_type_the_api_does_not_read_is_refused_in_words(api) -> None:
    response = api.post("/api/assist/paigow-poker/house-way/", data="cards", content_type="text/plain")
    assert response.status_code == 415
    assert response.json() == {
        "message": "The body cannot be read: send JSON, with Content-Type: application/json.",
        "extra": {"content_type": "text/plain"},
    }


@pytest.mark.django_db
def test_a_shifts_filter_that_is_not_yes_or_no_is_refused_naming_it(pit_boss) -> None:  # type: ignore[no-untyped-def]
    client = APIClient()
    client.force_authenticate(pit_boss)
    assert client.get("/api/shifts/?closed=yes").status_code == 200
    response = client.get("/api/shifts/?closed=7")
    assert response.status_code == 400
    assert response.json() == {"message": "closed is true or false, not '7'.", "extra": {"field": "closed"}}


@pytest.mark.django_db
def test_an_empty_text_for_a_number_is_refused_not_taken_as_left_out(pit_boss, make_table) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    client = APIClient()
    client.force_authenticate(pit_boss)
    response = client.post(f"/api/tables/{table.pk}/setup/", {"rule_set": ""}, format="json")
    assert response.status_code == 400
    assert response.json()["extra"] == {"fields": {"rule_set": ["A valid integer is required."]}}


@pytest.mark.django_db
def test_a_lone_surrogate_in_a_buy_ins_medium_is_refused_in_words_and_records_nothing(api, make_table, shift) -> None:
    from tables.models import BuyIn

    table = make_table(name="PGP 1", game="paigow_poker", seat_count=6)
    body = '{"seat": 1, "amount_cents": 50000, "medium": "\\ud800"}'
    response = api.post(f"/api/tables/{table.pk}/buy-ins/", data=body, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert "no field can hold" in response.json()["message"]
    assert not BuyIn.objects.exists()


@pytest.mark.django_db
def test_a_nul_in_a_forms_field_is_refused_in_words(api, make_table, shift) -> None:
    table = make_table(name="PGP 1", game="paigow_poker", seat_count=6)
    response = api.post(
        f"/api/tables/{table.pk}/slips/", data="kind=fill%00&chips=x", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400, response.content[:200]
    assert response.json()["message"] == "The field 'kind' holds a NUL byte: no such value is ever valid."


@pytest.mark.parametrize("debug", [True, False])
def test_an_id_the_address_cannot_hold_answers_json_with_debug_on_or_off(api, settings, debug) -> None:  # type: ignore[no-untyped-def]
    settings.DEBUG = debug
    response = api.get("/api/rounds/-1/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {"message": "Nothing is at this API address.", "extra": {"path": "/api/rounds/-1/"}}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/assist/paigow-poker/house-way/", {"cards": "As Ad Kh Kc 7s 4d 2c", "way": "golden_nugget"}),
        ("/api/assist/chinese-poker/suggest/", {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "tops": 2}),
    ],
)
def test_a_field_the_request_does_not_know_is_refused_naming_it(api, path, body) -> None:  # type: ignore[no-untyped-def]
    response = api.post(path, body, format="json")
    unknown = (set(body) - {"cards"}).pop()
    assert response.status_code == 400
    assert unknown in response.json()["extra"]["fields"]
    assert response.json()["message"] == f"{unknown}: This request takes no field {unknown!r}."
