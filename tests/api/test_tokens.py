"""API tokens end: a shift and a margin after the sign-in that made them, at the next sign-in, at a
password change, or when their holder revokes them; an ended token is a 401 in the API's words."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from casino.tokens import BEARER_MESSAGE, EXPIRED_MESSAGE, token_with_user

PASSWORD = "s3cret-pass-word"  # the make_user fixture's
pytestmark = pytest.mark.django_db


def sign_in(username: str, password: str = PASSWORD) -> dict[str, str]:
    response = APIClient().post("/api/v1/auth/token/", {"username": username, "password": password}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def tables_with(token: str):  # type: ignore[no-untyped-def]
    return APIClient().get("/api/v1/tables/", HTTP_AUTHORIZATION=f"Token {token}")


def age(token: str, hours: float) -> None:
    Token.objects.filter(key=token).update(created=timezone.now() - dt.timedelta(hours=hours))


def test_a_dealer_signing_in_gets_a_token_that_works_and_says_when_it_ends(dealer, settings) -> None:
    settings.TABLESIDE_TOKEN_HOURS = 12
    before = timezone.now()
    body = sign_in(dealer.username)
    assert tables_with(body["token"]).status_code == 200
    assert body["expires_at"].endswith("Z")  # RFC 3339 in UTC, as every time the API writes
    expires_at = dt.datetime.fromisoformat(body["expires_at"])
    assert before + dt.timedelta(hours=12) <= expires_at <= timezone.now() + dt.timedelta(hours=12)


def test_signing_in_again_gives_a_new_token_and_the_old_one_stops_working(dealer) -> None:
    first = sign_in(dealer.username)["token"]
    second = sign_in(dealer.username)["token"]
    assert second != first
    assert tables_with(second).status_code == 200
    refused = tables_with(first)
    assert refused.status_code == 401
    assert set(refused.json()) == {"message", "extra"}


def test_a_token_older_than_its_lifetime_is_refused_with_401_saying_sign_in_again(dealer, settings) -> None:
    settings.TABLESIDE_TOKEN_HOURS = 12
    token = sign_in(dealer.username)["token"]
    age(token, 12.01)
    response = tables_with(token)
    assert response.status_code == 401
    assert response.json() == {"message": EXPIRED_MESSAGE, "extra": {}}
    assert response["WWW-Authenticate"] == "Token"


def test_a_token_just_inside_its_lifetime_still_works(dealer, settings) -> None:
    settings.TABLESIDE_TOKEN_HOURS = 12
    token = sign_in(dealer.username)["token"]
    age(token, 11.9)
    assert tables_with(token).status_code == 200


def test_the_lifetime_is_the_setting_not_a_constant(dealer, settings) -> None:
    settings.TABLESIDE_TOKEN_HOURS = 0.5
    token = sign_in(dealer.username)["token"]
    age(token, 0.6)
    assert tables_with(token).status_code == 401


def test_a_dealer_revoking_their_token_ends_it_at_once(dealer) -> None:
    token = sign_in(dealer.username)["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post("/api/v1/auth/token/revoke/").status_code == 204
    assert tables_with(token).status_code == 401
    assert not Token.objects.filter(user=dealer).exists()


def test_revoking_ends_only_the_callers_own_token(dealer, pit_boss) -> None:
    mine = sign_in(dealer.username)["token"]
    theirs = sign_in(pit_boss.username)["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {mine}")
    client.post("/api/v1/auth/token/revoke/")
    assert tables_with(theirs).status_code == 200


def test_revoking_without_signing_in_is_refused_as_json_and_ends_nothing(dealer) -> None:
    token = sign_in(dealer.username)["token"]
    response = APIClient().post("/api/v1/auth/token/revoke/")
    assert response.status_code in (401, 403)
    assert set(response.json()) == {"message", "extra"}
    assert tables_with(token).status_code == 200


def test_a_password_change_ends_the_token(dealer) -> None:
    token = sign_in(dealer.username)["token"]
    dealer.set_password("a-new-pass-phrase-2026")
    dealer.save()
    assert tables_with(token).status_code == 401
    assert tables_with(sign_in(dealer.username, "a-new-pass-phrase-2026")["token"]).status_code == 200


def test_saving_a_user_without_changing_the_password_keeps_the_token(dealer) -> None:
    token = sign_in(dealer.username)["token"]
    dealer.first_name = "Dana"
    dealer.save()
    assert tables_with(token).status_code == 200


def test_a_wrong_password_gets_no_token_and_a_json_refusal(dealer) -> None:
    response = APIClient().post("/api/v1/auth/token/", {"username": dealer.username, "password": "nope"}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"message", "extra"}
    assert not Token.objects.filter(user=dealer).exists()


def test_the_api_schema_keeps_its_token_scheme_and_says_when_a_token_ends() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert scheme["type"] == "apiKey" and scheme["name"] == "Authorization"
    assert "/api/v1/auth/token/revoke/" in scheme["description"]
    assert {"tokenAuth": []} in schema["paths"]["/api/v1/tables/"]["get"]["security"]
    assert "post" in schema["paths"]["/api/v1/auth/token/revoke/"]
    assert "expires_at" in str(schema["components"]["schemas"]["TokenIssued"])


def test_a_bearer_header_is_told_the_prefix_is_token(dealer) -> None:
    token = sign_in(dealer.username)["token"]
    response = APIClient().get("/api/v1/tables/", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 401
    assert response.json() == {"message": BEARER_MESSAGE, "extra": {}}


def test_signing_in_takes_json_only_and_the_schema_asks_for_no_token_to_get_one(dealer) -> None:
    form = APIClient().post(
        "/api/v1/auth/token/", {"username": dealer.username, "password": PASSWORD}, format="multipart"
    )
    assert form.status_code == 415
    operation = APIClient().get("/api/v1/schema/", {"format": "json"}).json()["paths"]["/api/v1/auth/token/"]["post"]
    body = operation["requestBody"]["content"]
    assert list(body) == ["application/json"]
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()["components"]["schemas"]["SignInRequest"]
    assert set(schema["required"]) == {"username", "password"} and "token" not in schema["properties"]


def _fields(instance: object) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}  # type: ignore[attr-defined]


def test_the_token_read_on_every_request_is_the_orms_with_its_user(dealer) -> None:
    key = sign_in(dealer.username)["token"]
    read = token_with_user(key)
    expected = Token.objects.select_related("user").get(key=key)
    assert read is not None and _fields(read) == _fields(expected) and _fields(read.user) == _fields(expected.user)
    assert read.created.tzinfo is not None and read.user.pk == dealer.pk
    assert token_with_user("no-such-key") is None


def test_an_unknown_token_and_a_deactivated_users_token_are_refused_in_drfs_words(dealer) -> None:
    key = sign_in(dealer.username)["token"]
    unknown = tables_with("0" * 40)
    assert unknown.status_code == 401 and unknown.json() == {"message": "Invalid token.", "extra": {}}
    dealer.is_active = False
    dealer.save(update_fields=["is_active"])
    inactive = tables_with(key)
    assert inactive.status_code == 401 and inactive.json() == {"message": "User inactive or deleted.", "extra": {}}
