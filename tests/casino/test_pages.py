"""The login page, the floor page, the admin and the API docs, as each persona sees them."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token


@pytest.fixture
def demo_floor(db, house_chips, settings, tmp_path) -> None:
    settings.VAR_DIR = tmp_path
    call_command("seed_demo", password="demo-pass-2026", stdout=io.StringIO())


def test_an_anonymous_visitor_is_sent_to_the_login_page(client: Client, db) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b"Sign in" in page.content


def test_a_wrong_password_is_refused_with_a_plain_message(client: Client, demo_floor) -> None:
    response = client.post("/accounts/login/", {"username": "dealer", "password": "nope"})
    assert response.status_code == 200
    assert b"do not match" in response.content


@pytest.mark.parametrize("username", ["floor", "pitboss"])
def test_a_supervisor_signs_in_and_lands_on_the_pits_dashboard(client: Client, demo_floor, username: str) -> None:
    response = client.post("/accounts/login/", {"username": username, "password": "demo-pass-2026"})
    assert response.status_code == 302 and response["Location"] == "/"
    landing = client.get("/")
    assert landing.status_code == 302 and landing["Location"] == "/pit/"
    assert client.get("/pit/").status_code == 200


def test_the_dealers_header_has_no_link_to_the_api_docs_and_the_pit_bosses_has(client: Client, demo_floor) -> None:
    client.login(username="dealer", password="demo-pass-2026")
    assert 'href="/api/v1/docs/"' not in client.get("/dealer/", follow=True).content.decode()
    client.logout()
    client.login(username="pitboss", password="demo-pass-2026")
    assert 'href="/api/v1/docs/"' in client.get("/pit/").content.decode()


def test_every_page_names_its_icon_and_the_old_address_leads_to_it(client: Client, demo_floor) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'rel="icon" href="/static/casino/favicon.svg"' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/casino/favicon.svg"


def test_the_auditor_signs_in_and_sees_the_floor_with_the_open_shift_and_tables(
    client: Client, demo_floor, django_assert_max_num_queries
) -> None:
    response = client.post("/accounts/login/", {"username": "auditor", "password": "demo-pass-2026"})
    assert response.status_code == 302 and response["Location"] == "/"
    with django_assert_max_num_queries(10):
        page = client.get("/")
    text = page.content.decode()
    assert "Day shift" in text
    for name in ("PG-1", "PGP-1", "CP-1", "OFC-1"):
        assert name in text
    assert "Pai Gow (tiles)" in text and "Open-Face Chinese Poker" in text
    assert "25.00" in text  # the PG-1 minimum, shown in units not cents
    assert "(Auditor)" in text


def test_the_dealer_signs_in_and_goes_straight_to_the_tablet_with_their_tables(client: Client, demo_floor) -> None:
    client.post("/accounts/login/", {"username": "dealer", "password": "demo-pass-2026"})
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == "/dealer/"
    text = client.get("/dealer/", follow=True).content.decode()
    for name in ("PG-1", "PGP-1", "CP-1", "OFC-1"):
        assert name in text


def test_signing_out_ends_the_session(client: Client, demo_floor) -> None:
    client.post("/accounts/login/", {"username": "auditor", "password": "demo-pass-2026"})
    client.post("/accounts/logout/")
    assert client.get("/").status_code == 302


def test_the_pit_boss_reaches_the_admin_and_the_dealer_does_not(client: Client, demo_floor) -> None:
    client.login(username="pitboss", password="demo-pass-2026")
    assert client.get("/admin/").status_code == 200
    client.logout()
    client.login(username="dealer", password="demo-pass-2026")
    assert client.get("/admin/").status_code == 302


def test_the_api_lists_tables_for_a_token_holder_and_refuses_strangers(client: Client, demo_floor) -> None:
    response = client.post(
        "/api/v1/auth/token/", {"username": "auditor", "password": "demo-pass-2026"}, content_type="application/json"
    )
    token = response.json()["token"]
    assert Token.objects.filter(key=token).exists()
    tables = client.get("/api/v1/tables/", HTTP_AUTHORIZATION=f"Token {token}").json()["results"]
    assert {t["game"] for t in tables} == {"paigow_tiles", "paigow_poker", "chinese_poker", "ofc"}
    one = client.get(f"/api/v1/tables/{tables[0]['id']}/", HTTP_AUTHORIZATION=f"Token {token}").json()
    assert one["name"] == tables[0]["name"]
    stranger = client.get("/api/v1/tables/")
    assert stranger.status_code in (401, 403)
    assert set(stranger.json()) == {"message", "extra"}
    missing = client.get("/api/v1/tables/999999/", HTTP_AUTHORIZATION=f"Token {token}")
    assert missing.status_code == 404 and "message" in missing.json()


def test_the_openapi_schema_and_swagger_ui_are_served_without_a_cdn(client: Client, demo_floor) -> None:
    client.login(username="auditor", password="demo-pass-2026")
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/v1/tables/" in schema.json()["paths"]
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html


def test_a_stranger_reads_the_schema_and_the_docs_but_no_data(client: Client, db) -> None:
    schema = client.get("/api/v1/schema/", {"format": "json"})
    assert schema.status_code == 200 and "/api/v1/tables/" in schema.json()["paths"]
    assert client.get("/api/v1/docs/").status_code == 200
    assert client.get("/api/v1/tables/").status_code == 401  # the operations themselves still need a token


def test_the_admin_changes_tables_only_through_the_audited_services(client: Client, demo_floor) -> None:
    from casino.models import AuditEvent
    from tables.models import Table

    client.login(username="pitboss", password="demo-pass-2026")
    table = Table.objects.get(name="OFC-1")
    assert client.get("/admin/tables/table/add/").status_code == 403
    assert client.post(f"/admin/tables/table/{table.pk}/change/", {"name": "renamed"}).status_code == 403
    before = AuditEvent.objects.count()
    response = client.post(
        "/admin/tables/table/", {"action": "close_tables", "_selected_action": [table.pk]}, follow=True
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.name == "OFC-1"
    assert AuditEvent.objects.filter(event_type="table.closed", subject_id=str(table.pk)).count() == 1
    assert AuditEvent.objects.count() == before + 1


def test_the_admin_shows_pits_days_and_shifts_but_changes_none_of_them(client: Client, demo_floor) -> None:
    client.login(username="pitboss", password="demo-pass-2026")
    for model in ("pit", "gamingday", "shift"):
        assert client.get(f"/admin/casino/{model}/").status_code == 200
        assert client.get(f"/admin/casino/{model}/add/").status_code == 403


def test_the_header_switches_the_language_to_german_and_back(client: Client, demo_floor) -> None:
    client.login(username="auditor", password="demo-pass-2026")
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    german = client.get("/").content.decode()
    assert '<html lang="de"' in german
    assert "Abmelden" in german  # "Sign out"
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Sign out" in client.get("/").content.decode()
