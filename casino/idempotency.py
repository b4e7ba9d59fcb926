"""Every write under /api/ is idempotent with an ``Idempotency-Key`` header, Stripe's way, in one place.

A client that sends a write and never hears back (a dropped connection, a timeout) sends it again with the same key;
it gets the first answer again, never a second record:

* the first request with a key runs, and its answer, when it succeeded (2xx), is kept with the key
  (``IdempotencyKey``, per user, at least ``KEPT_HOURS``);
* the same key with the same request (method, path and body) replays the kept answer, status and body, marked
  ``Idempotent-Replayed: true``; nothing runs again;
* the same key with another request is refused (422): a key names one request;
* the key is taken, the write runs and its answer is kept in one transaction (one wait for the disk): the same key
  sent while its first request is still being answered waits on the key's row, then gets the first answer; a
  request whose process dies takes its key with it (the transaction rolls back). A key row found still running
  (none is committed so; kept for a row written otherwise) is refused (409, ``Retry-After: 1``) for
  ``RUNNING_SECONDS``, then taken over;
* a request refused or failed (4xx, 5xx) wrote nothing: its key is let go, and the request may be sent again.

A write that moves money or chips (its view says ``idempotency_key_required = True``: buy-ins, fills, credits and
their slips, tray and drop counts, a tournament's entries, rebuys, add-ons, busts and deals, a settlement and a
correction) is refused without a key (400), before anything runs. The tablet's and the pages' forms carry their own
one-time key (``casino.once``).

The middleware sits after Django's authentication; a request the API will authenticate by its token is
authenticated here first, so that a key is the user's own: its token is read in the round trip that takes the key
(PostgreSQL: the key's INSERT selects the token's user where the token holds), and the API's authentication is told
the answer rather than reading the token again. A request nobody is signed in for (or with a token that does not
hold) passes through unkeyed, and the API refuses it (401) in its own words.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from functools import cache
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.http import HttpRequest, HttpResponse
from django.http.request import RawPostDataException
from django.urls import Resolver404, resolve
from django.utils import timezone
from rest_framework.authentication import get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings

from casino.middleware import api_path, refusal
from casino.models import IdempotencyKey
from casino.rows import (
    column,
    quote,
    row_insert_unless_taken,
    row_update_stored,
    stored_field,
    writes_in_with,
)
from casino.tokens import (
    token_answer_known,
    token_from_row,
    token_holds,
    token_key_of,
    token_lifetime,
    token_sql,
    token_with_user,
)

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MOST_KEY_LENGTH = 255
KEPT_HOURS = 24
RUNNING_SECONDS = 60
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def key_required(request: HttpRequest) -> bool:
    """Whether the view ``request`` goes to moves money or chips, and so takes no write without a key."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return False
    view = getattr(match.func, "cls", None)
    return bool(getattr(view, "idempotency_key_required", False))


def _api_user(request: HttpRequest) -> User | None:
    """The user the API will take the request for (its token, or its session), or None."""
    user = getattr(request, "user", None)
    if isinstance(user, User) and user.is_authenticated:
        return user
    classes: list[Any] = list(api_settings.DEFAULT_AUTHENTICATION_CLASSES)
    authenticators = [authenticator() for authenticator in classes]
    try:
        found = Request(request, authenticators=authenticators).user
    except APIException:  # a token ended or unknown: the view refuses it in its own words
        return None
    return found if isinstance(found, User) and found.is_authenticated else None


def fingerprint(request: HttpRequest) -> str:
    """The request a key was sent with: its method, path, query, content type and body, hashed."""
    digest = hashlib.sha256()
    for part in (request.method or "", request.get_full_path(), request.content_type or ""):
        digest.update(part.encode("utf-8", "replace") + b"\0")
    try:
        digest.update(request.body)
    except RawPostDataException:  # a multipart form, already read as fields (casino.middleware): its fields then
        for name, values in sorted(request.POST.lists()):
            digest.update(repr((name, values)).encode("utf-8", "replace"))
        for name, uploads in sorted(request.FILES.lists()):
            sizes = [(upload.name, upload.size) for upload in uploads]
            digest.update(repr((name, sizes)).encode("utf-8", "replace"))
    return digest.hexdigest()


@cache
def _token_and_key_sql() -> str:
    """One statement (PostgreSQL): the token of a key with its user (``token_sql``'s row), and the key taken for that
    user where the token holds (``token_holds``: its user active, the token issued after a time given) and the user
    has not the key already; the new key's pk after the token's columns, null where none was taken. No row: no such
    token. The token's read and the key's INSERT see one snapshot."""
    names = ("key", "fingerprint", "status", "response_type", "response_body", "created_at")
    user_id = column(stored_field(IdempotencyKey, "user"))
    columns = ", ".join([user_id, *(column(stored_field(IdempotencyKey, name)) for name in names)])
    return (
        f"WITH tok AS ({token_sql()}), "
        f"taken AS (INSERT INTO {quote(IdempotencyKey._meta.db_table)} ({columns}) "
        f"SELECT tok.{quote(Token._meta.get_field('user').column)}, {', '.join(['%s'] * len(names))} FROM tok "
        f"WHERE tok.{quote('is_active')} AND tok.{quote('created')} > %s "
        f"ON CONFLICT ({user_id}, {column(stored_field(IdempotencyKey, 'key'))}) DO NOTHING "
        f"RETURNING {quote('id')}) "
        f"SELECT tok.*, taken.{quote('id')} FROM tok LEFT JOIN taken ON TRUE"
    )


def _token_and_key(token_key: str, key: str, print_: str) -> tuple[Token | None, int | None]:
    """The token ``token_key`` with its user, if it holds (else None), and ``key`` taken for that user: its row's pk,
    or None where the user had the key already (``_claim`` says what it is then).

    On PostgreSQL the token's read and the key's INSERT are one statement (``_token_and_key_sql``); elsewhere the
    key is taken once the token is read and found to hold."""
    now = timezone.now()
    if not writes_in_with():
        token = token_with_user(token_key)
        if token is None or not token_holds(token, now=now):
            return None, None
        taken = row_insert_unless_taken(IdempotencyKey(user=token.user, key=key, fingerprint=print_), ("user", "key"))
        return token, None if taken is None else taken.pk
    running = IdempotencyKey.Status.RUNNING.value
    values: list[Any] = [token_key, key, print_, running, "", b"", now, now - token_lifetime()]
    with connection.cursor() as cursor:
        cursor.execute(_token_and_key_sql(), values)
        row = cursor.fetchone()
    found = token_from_row(row[:-1] if row is not None else None)
    # The INSERT's WHERE is ``token_holds`` at the same ``now``, on the same snapshot: a token that holds took the
    # key unless its user had it already.
    if found is None or not token_holds(found, now=now):
        return None, None
    return found, row[-1]


def _sender(request: HttpRequest, key: str, print_: str) -> tuple[User | None, int | None]:
    """Who sent ``request`` as the API will take them (None: nobody, or a token that does not hold) and, for a
    token, ``key`` taken for them with its read (``_token_and_key``); the API's authentication is told the token's
    answer, so it does not read the token again."""
    header = get_authorization_header(cast(Any, request))  # DRF reads the header the same from either request
    token_key = token_key_of(header)
    if token_key is None:
        return _api_user(request), None
    token, taken = _token_and_key(token_key, key, print_)
    if token is None:
        return None, None
    token_answer_known(request, header, (token.user, token))
    return token.user, taken


def _claim(user: User, key: str, print_: str) -> tuple[str, IdempotencyKey | None]:
    """Take ``key`` for this request: ``("run", row)`` to run it, ``("replay", row)``, ``("other", None)`` (the key was
    sent with another request) or ``("running", None)`` (its first request is still being answered)."""
    now = timezone.now()
    for _attempt in range(2):
        taken = row_insert_unless_taken(IdempotencyKey(user=user, key=key, fingerprint=print_), ("user", "key"))
        if taken is not None:
            return "run", taken
        with transaction.atomic():
            row = IdempotencyKey.objects.select_for_update().filter(user=user, key=key).first()
            if row is None:  # let go meanwhile: take it on the next attempt
                continue
            if row.created_at < now - dt.timedelta(hours=KEPT_HOURS):
                row.delete()  # expired: the key is free again
                continue
            if row.fingerprint != print_:
                return "other", None
            if row.status == IdempotencyKey.Status.DONE:
                return "replay", row
            if row.created_at >= now - dt.timedelta(seconds=RUNNING_SECONDS):
                return "running", None
            row.created_at = now  # its process died: this request takes it over
            row.save(update_fields=["created_at"])
            return "run", row
    return "running", None


def _replay(row: IdempotencyKey) -> HttpResponse:
    response = HttpResponse(
        bytes(row.response_body), status=row.response_status or 200, content_type=row.response_type or None
    )
    response[REPLAYED_HEADER] = "true"
    return response


def _keep(key_pk: int, response: HttpResponse) -> None:
    """Keep a successful answer with its key (the row ``key_pk``); let the key go with any other (what the refusal
    wrote, such as a failed sign-in's count, is kept)."""
    try:  # no savepoint of its own: the statement fails only where the transaction is lost anyway
        if 200 <= response.status_code < 300 and not response.streaming:
            answer = {
                "status": IdempotencyKey.Status.DONE.value,
                "response_status": response.status_code,
                "response_type": response.get("Content-Type", "")[:100],
                "response_body": response.content,
            }
            row_update_stored(IdempotencyKey, key_pk, answer)
        else:
            IdempotencyKey.objects.filter(pk=key_pk).delete()
    except DatabaseError:  # the view's own failure left the transaction unusable: it all rolls back, key included
        transaction.set_rollback(True)


# The connection's attribute naming the transaction an API write with a key runs in (``IdempotentWrites``).
_REQUEST_TRANSACTION = "tableside_request_transaction"


def write_transaction() -> transaction.Atomic:
    """``transaction.atomic()`` for a service's write; directly inside an API write's own transaction (the one that
    takes its key, runs it and keeps its answer: ``IdempotentWrites``) without a savepoint of its own.

    A savepoint there would only be released again: a write refused or failed rolls back the whole request, its key
    included, which is what a refusal does to its key anyway (a refused request writes nothing, and its key is let
    go). So it is for a service that its API view calls once, with nothing caught around the call: after a refusal
    the request's transaction takes no more statements (the key's middleware lets the key go by rolling it all back).
    Anywhere else (a page, a task, a service inside another's transaction) it is ``transaction.atomic()``."""
    connection = transaction.get_connection()
    ours = getattr(connection, _REQUEST_TRANSACTION, None)
    directly = ours is not None and bool(connection.atomic_blocks) and connection.atomic_blocks[-1] is ours
    return transaction.atomic(savepoint=not directly)


class KeepTheBody:
    """Before anything reads an API write's body as a form (``casino.middleware.RefuseNulBytes``, which a multipart
    body cannot be read again after), read it whole, so that its fingerprint is the exact bytes sent. The body is
    within ``DATA_UPLOAD_MAX_MEMORY_SIZE`` or refused (413) here already."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in WRITES and api_path(request) and HEADER in request.headers:
            request.body  # noqa: B018  (read and kept: Django parses the form from the kept bytes)
        return self.get_response(request)


class IdempotentWrites:
    """The middleware (``MIDDLEWARE``, after authentication): see the module's docstring."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in WRITES or not api_path(request):
            return self.get_response(request)
        key = request.headers.get(HEADER)
        if key is None:
            if key_required(request):
                return refusal(
                    request,
                    f"This write moves money or chips: send it with an {HEADER} header (a value of your own, new "
                    "for each write, the same when you send it again), so that a retry never records it twice.",
                    status=400,
                    extra={"header": HEADER},
                )
            return self.get_response(request)
        if not 0 < len(key) <= MOST_KEY_LENGTH or not key.isprintable() or not key.isascii() or key != key.strip():
            return refusal(
                request,
                f"An {HEADER} is 1 to {MOST_KEY_LENGTH} printable ASCII characters, without spaces around it.",
                status=400,
                extra={"header": HEADER},
            )
        print_ = fingerprint(request)
        # One transaction: the key taken, the write, and its answer kept commit together (one wait for the disk); a
        # second request with the same key waits on the key's row until the first is answered, then replays it.
        ours = transaction.atomic()
        with ours:
            user, taken = _sender(request, key, print_)
            if user is not None:
                connection = transaction.get_connection()
                outer = getattr(connection, _REQUEST_TRANSACTION, None)
                setattr(connection, _REQUEST_TRANSACTION, ours)
                try:
                    return self._keyed(request, user, key, print_, taken)
                finally:
                    setattr(connection, _REQUEST_TRANSACTION, outer)
            transaction.set_rollback(True)  # nobody signed in: no key taken
        return self.get_response(request)  # the API refuses it (401) in its own words

    def _keyed(self, request: HttpRequest, user: User, key: str, print_: str, taken: int | None) -> HttpResponse:
        """Inside the request's transaction: the key taken (``taken``, its row's pk) or found, and the request run,
        replayed or refused."""
        if taken is None:
            outcome, row = _claim(user, key, print_)
            if outcome == "replay" and row is not None:
                return _replay(row)
            if outcome == "other":
                return refusal(
                    request,
                    f"This {HEADER} was sent with another request: a key names one request. Send a new key for a "
                    "new write.",
                    status=422,
                    extra={"header": HEADER},
                )
            if outcome == "running" or row is None:
                response = refusal(
                    request,
                    f"A request with this {HEADER} is still being answered: ask again in a moment for its answer.",
                    status=409,
                    extra={"header": HEADER},
                )
                response["Retry-After"] = "1"
                return response
            taken = row.pk
        response = self.get_response(request)  # an exception rolls the key back with everything else
        _keep(taken, response)
        return response


# The pages' forms keep their one-time keys in the same store (``casino.once``), under a name no API key is sent
# with by accident, and a print no request has.
_FORM = "form"


def _form_key(scope: str, name: str) -> str:
    return f"{_FORM}:{hashlib.sha256(f'{scope}:{name}'.encode()).hexdigest()}"


def form_key_take(user: User, *, scope: str, name: str) -> bool:
    """Take a page's one-time form key for ``user``: True the first time, False when it was taken already."""
    try:
        with transaction.atomic():
            IdempotencyKey.objects.create(
                user=user, key=_form_key(scope, name), fingerprint=_FORM, status=IdempotencyKey.Status.DONE
            )
    except IntegrityError:
        return False
    return True


def form_key_let_go(user: User, *, scope: str, name: str) -> None:
    """Let a form's key go: its form was refused or failed, nothing was recorded, and it may be sent again."""
    IdempotencyKey.objects.filter(user=user, key=_form_key(scope, name)).delete()


def idempotency_keys_expire(*, now: dt.datetime | None = None) -> int:
    """Let go every key made more than ``KEPT_HOURS`` ago (Celery beat, hourly); answers how many."""
    cutoff = (now or timezone.now()) - dt.timedelta(hours=KEPT_HOURS)
    deleted, _by_model = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def schema_parameter(*, required: bool) -> dict[str, Any]:
    """The header as the API description documents it on each write."""
    what = (
        "Required: this write moves money or chips."
        if required
        else "Optional: sent, the write is recorded once however often it is sent."
    )
    return {
        "in": "header",
        "name": HEADER,
        "required": required,
        "schema": {"type": "string", "minLength": 1, "maxLength": MOST_KEY_LENGTH},
        "description": f"{what} A value of your own, new for each write and the same when it is sent again: the "
        f"first answer (2xx) is kept {KEPT_HOURS} hours and replayed ({REPLAYED_HEADER}: true); the same key with "
        "another request is refused (422).",
    }
