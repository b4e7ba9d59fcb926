"""API tokens that end: each sign-in at ``POST /api/auth/token/`` makes a new token, which lasts
``TABLESIDE_TOKEN_HOURS`` (a shift and a margin) from that sign-in and ends earlier at a password change or at
``POST /api/auth/token/revoke/``.

DRF keeps one token per user (``rest_framework.authtoken``): a new sign-in replaces the token a device signed in
with before, and the token's ``created`` is when it was issued, so no column is added for the expiry.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token

from casino.rows import columns_sql, concrete_names, instance_from_row, quote

EXPIRED_MESSAGE = "Your sign-in token has expired: sign in again"
BEARER_MESSAGE = 'This API takes its token as "Authorization: Token <key>", not Bearer.'


def token_lifetime() -> dt.timedelta:
    return dt.timedelta(hours=settings.TABLESIDE_TOKEN_HOURS)


def token_expires_at(*, token: Token) -> dt.datetime:
    issued: dt.datetime = token.created
    return issued + token_lifetime()


def token_issue(*, user: User) -> Token:
    """A new token for ``user``, replacing the one they had: a sign-in never hands back an old token."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def token_revoke(*, user: User) -> int:
    """End ``user``'s token; how many were ended (0 or 1)."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


_TOKEN_NAMES, _USER_NAMES = concrete_names(Token), concrete_names(User)


@cache
def token_sql() -> str:
    """The token of a key (one parameter) with its user: the SELECT the ORM's ``Token.objects.select_related("user")``
    sends, built once; ``token_from_row`` reads its row."""
    user_id = quote(Token._meta.get_field("user").column)
    return (
        f"SELECT {columns_sql(Token, _TOKEN_NAMES, 't')}, {columns_sql(User, _USER_NAMES, 'u')} "
        f"FROM {quote(Token._meta.db_table)} t JOIN {quote(User._meta.db_table)} u ON u.{quote('id')} = t.{user_id} "
        f"WHERE t.{quote('key')} = %s"
    )


def token_from_row(row: Sequence[Any] | None) -> Token | None:
    """The token (with ``token.user``) of a row ``token_sql`` read, or None for no row."""
    if row is None:
        return None
    token = instance_from_row(Token, _TOKEN_NAMES, row[: len(_TOKEN_NAMES)])
    token.user = instance_from_row(User, _USER_NAMES, row[len(_TOKEN_NAMES) :])
    return token


def token_with_user(key: str) -> Token | None:
    """The token ``key`` with its user (``token.user``), or None, in one statement built once.

    Read on every API request: the ORM took about 1.3 ms of CPU a request to build the statement, a tenth of what
    HTTP adds to a round over the services (docs/performance.md, "A round over HTTP"); ``tests/api/test_tokens.py``
    holds it to the ORM's answer."""
    with connection.cursor() as cursor:
        cursor.execute(token_sql(), [key])
        return token_from_row(cursor.fetchone())


def token_holds(token: Token | None, *, now: dt.datetime) -> bool:
    """Whether ``token`` (read with its user) signs its user in at ``now``: there, its user active, not expired. Where
    it does not, ``ExpiringTokenAuthentication`` refuses the request and says why."""
    return token is not None and token.user.is_active and now < token_expires_at(token=token)


def token_key_of(header: bytes) -> str | None:
    """The key of an ``Authorization: Token <key>`` header, as DRF's ``TokenAuthentication`` reads it; None for no
    token or a malformed header (which the authenticator refuses in its own words)."""
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() != ExpiringTokenAuthentication.keyword.lower().encode():
        return None
    try:
        return parts[1].decode()
    except UnicodeError:
        return None


def token_answer_known(request: Any, header: bytes, answer: tuple[Any, Token] | None) -> None:
    """Tell the request's DRF authentication who ``header`` signs in (``answer``), found already: it is not read
    again (``ExpiringTokenAuthentication.authenticate``)."""
    underlying = getattr(request, "_request", request)
    underlying._tableside_token_answer = (header, answer)


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, refused (401) once the token is older than ``TABLESIDE_TOKEN_HOURS``.

    A request is authenticated once: a write under /api/ is authenticated by the idempotency middleware
    (``casino.idempotency``, whose key is the user's own) before its view, and the view's DRF request takes the
    same answer for the same header, without reading the token again."""

    def authenticate(self, request: Any) -> tuple[Any, Token] | None:
        underlying = getattr(request, "_request", request)
        header = get_authorization_header(request)
        known = getattr(underlying, "_tableside_token_answer", None)
        if known is not None and known[0] == header:
            answer: tuple[Any, Token] | None = known[1]
            return answer
        if header[:7].lower() == b"bearer ":  # a common guess: say the prefix, not "no credentials"
            raise exceptions.AuthenticationFailed(BEARER_MESSAGE)
        answer = super().authenticate(request)
        token_answer_known(request, header, answer)
        return answer

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        found = token_with_user(key)
        if found is None or not found.user.is_active:
            user, token = super().authenticate_credentials(key)  # DRF's own refusal, in its words
        else:
            user, token = found.user, found
        if timezone.now() >= token_expires_at(token=token):
            raise exceptions.AuthenticationFailed(EXPIRED_MESSAGE)
        return user, token


class ExpiringTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # an unannotated hook
    """The OpenAPI ``tokenAuth`` scheme for ``ExpiringTokenAuthentication``, saying how a token is had and ends."""

    target_class = ExpiringTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        definition = build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")
        definition["description"] = (
            'Send "Authorization: Token <key>" with a key from POST /api/v1/auth/token/. A key ends '
            f"{settings.TABLESIDE_TOKEN_HOURS:g} hours after the sign-in that made it, at the next sign-in, at a "
            "password change, or at POST /api/v1/auth/token/revoke/. The prefix is Token, not Bearer. After "
            f"{settings.AXES_FAILURE_LIMIT} failed sign-ins a username is locked out for "
            f"{settings.AXES_COOLOFF_TIME.total_seconds() / 60:g} minutes: 429, with extra.retry_after_minutes."
        )
        return definition


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="casino.tokens.revoked_on_password_change")
def _token_revoked_on_password_change(sender: type, instance: User, created: bool, **kwargs: Any) -> None:
    """A password change ends the user's token, as it ends their other sessions. ``_password`` is what Django sets
    for a changed password (``set_password``) and leaves unset for a hash upgraded at sign-in."""
    if not created and getattr(instance, "_password", None) is not None:
        Token.objects.filter(user_id=instance.pk).delete()
