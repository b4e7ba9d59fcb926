"""Sign-in lockout: after TABLESIDE_LOGIN_FAILURES wrong passwords for one username from one device,
the sign-in page and the API's token endpoint refuse that pair, even with the right password, until the cool-off
passes or a supervisor unlocks it."""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

PASSWORD = "s3cret-pass-word"  # the make_user fixture's
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _five_failures_fifteen_minutes(settings) -> None:  # type: ignore[no-untyped-def]
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = dt.timedelta(minutes=15)


def page_sign_in(username: str, password: str, *, address: str = "10.0.0.7", client: Client | None = None):  # type: ignore[no-untyped-def]
    client = client or Client()
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def token_sign_in(username: str, password: str, *, address: str = "10.0.0.7"):  # type: ignore[no-untyped-def]
    return APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


def fail(times: int, username: str, *, address: str = "10.0.0.7") -> None:
    """``times`` wrong passwords on the sign-in page: the form again, but the last of a lockout's is refused."""
    for _ in range(times):
        assert page_sign_in(username, "wrong-guess", address=address).status_code in (200, 429)


def test_a_dealer_who_mistypes_four_times_still_signs_in_on_the_fifth(dealer) -> None:
    fail(4, dealer.username)
    assert page_sign_in(dealer.username, PASSWORD).status_code == 302


def test_after_five_wrong_passwords_even_the_right_one_is_refused_on_the_sign_in_page(dealer) -> None:
    fail(5, dealer.username)
    client = Client()
    response = page_sign_in(dealer.username, PASSWORD, client=client)
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed sign-ins for dana_dealer" in text
    assert "try again in 15 minutes or ask a supervisor" in text
    assert response["Retry-After"] == str(15 * 60)
    assert "_auth_user_id" not in client.session


def test_the_fifth_wrong_password_already_answers_with_the_lockout(dealer) -> None:
    fail(4, dealer.username)
    assert page_sign_in(dealer.username, "wrong-guess").status_code == 429


def test_the_token_endpoint_refuses_a_locked_out_dealer_with_json_429(dealer) -> None:
    fail(5, dealer.username)
    response = token_sign_in(dealer.username, PASSWORD)
    assert response.status_code == 429
    body = response.json()
    assert body["message"].startswith("Too many failed sign-ins for dana_dealer")
    assert body["extra"] == {"username": "dana_dealer", "retry_after_minutes": 15}
    assert not Token.objects.filter(user=dealer).exists()


def test_wrong_passwords_at_the_token_endpoint_count_towards_the_lockout_too(dealer) -> None:
    for _ in range(4):
        assert token_sign_in(dealer.username, "wrong-guess").status_code == 400
    assert token_sign_in(dealer.username, "wrong-guess").status_code == 429
    assert page_sign_in(dealer.username, PASSWORD).status_code == 429


def test_two_hundred_guesses_then_the_right_password_do_not_sign_in(dealer) -> None:
    """As once reported: 200 wrong passwords, then the right one, succeeded."""
    for _ in range(200):
        page_sign_in(dealer.username, "wrong-guess")
    assert page_sign_in(dealer.username, PASSWORD).status_code == 429
    assert token_sign_in(dealer.username, PASSWORD).status_code == 429


def test_a_lockout_holds_one_username_on_one_device_not_the_teammate_beside_them(dealer, floor_supervisor) -> None:
    fail(5, dealer.username)
    assert page_sign_in(floor_supervisor.username, PASSWORD).status_code == 302
    assert page_sign_in(dealer.username, PASSWORD, address="10.0.0.8").status_code == 302


def test_after_the_cool_off_the_dealer_signs_in_again(dealer) -> None:
    fail(5, dealer.username)
    AccessAttempt.objects.update(attempt_time=timezone.now() - dt.timedelta(minutes=16))
    assert page_sign_in(dealer.username, PASSWORD).status_code == 302


def test_a_supervisor_unlocks_a_dealer_at_once_with_axes_reset_username(dealer) -> None:
    fail(5, dealer.username)
    call_command("axes_reset_username", dealer.username)
    assert page_sign_in(dealer.username, PASSWORD).status_code == 302


def test_a_successful_sign_in_clears_the_failures_counted_before_it(dealer) -> None:
    fail(4, dealer.username)
    assert page_sign_in(dealer.username, PASSWORD).status_code == 302
    fail(4, dealer.username)
    assert page_sign_in(dealer.username, PASSWORD).status_code == 302


def test_a_sign_in_at_the_token_endpoint_clears_the_failures_too(dealer) -> None:
    fail(4, dealer.username)
    assert token_sign_in(dealer.username, PASSWORD).status_code == 200
    fail(4, dealer.username)
    assert token_sign_in(dealer.username, PASSWORD).status_code == 200


def test_the_limit_is_the_setting(dealer, settings) -> None:  # type: ignore[no-untyped-def]
    settings.AXES_FAILURE_LIMIT = 2
    fail(1, dealer.username)
    assert page_sign_in(dealer.username, "wrong-guess").status_code == 429


def test_the_test_clients_login_without_a_request_still_signs_in(dealer) -> None:
    """In-process sign-ins (``Client.login``, a shell) pass no request; the lockout backend lets them through to
    the password check instead of raising, and a wrong password still fails."""
    client = Client()
    assert client.login(username=dealer.username, password=PASSWORD)
    assert not Client().login(username=dealer.username, password="wrong-guess")


def test_the_admin_sign_in_is_locked_out_too(dealer) -> None:
    fail(5, dealer.username)
    response = Client().post(
        "/admin/login/", {"username": dealer.username, "password": PASSWORD}, REMOTE_ADDR="10.0.0.7"
    )
    assert response.status_code == 429


def test_behind_a_proxy_each_device_is_counted_by_the_address_the_proxy_saw(dealer, settings) -> None:  # type: ignore[no-untyped-def]
    """Behind one TLS-terminating proxy every request comes from the proxy's address: the lockout counts the
    device the proxy names (the right-most X-Forwarded-For entry), never what the client wrote left of it."""
    settings.TABLESIDE_TRUSTED_PROXIES = 1
    proxy = "10.0.0.9"

    def through_proxy(password: str, *, device: str, claimed: str = "") -> int:
        forwarded = f"{claimed}, {device}" if claimed else device
        response = Client().post(
            "/accounts/login/",
            {"username": dealer.username, "password": password},
            REMOTE_ADDR=proxy,
            HTTP_X_FORWARDED_FOR=forwarded,
        )
        return response.status_code

    for claimed in ("1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "5.5.5.5"):  # a new made-up address each time
        assert through_proxy("wrong-guess", device="203.0.113.66", claimed=claimed) in (200, 429)
    assert through_proxy(PASSWORD, device="203.0.113.66") == 429  # the guessing device is locked out
    assert through_proxy(PASSWORD, device="203.0.113.7") == 302  # the dealer's own tablet is not
