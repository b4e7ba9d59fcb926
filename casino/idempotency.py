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
authenticated here first with the API's own authenticators, so that a key is the user's own. A request nobody is
signed in for passes through unkeyed, and the API refuses it (401).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.http.request import RawPostDataException
from django.urls import Resolver404, resolve
from django.utils import timezone
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings

from casino.middleware import api_path, refusal
from casino.models import IdempotencyKey
from casino.rows import row_insert_unless_taken, row_update

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


def _keep(row: IdempotencyKey, response: HttpResponse) -> None:
    """Keep a successful answer with its key; let the key go with any other (what the refusal wrote, such as a failed
    sign-in's count, is kept)."""
    try:  # no savepoint of its own: the statement fails only where the transaction is lost anyway
        if 200 <= response.status_code < 300 and not response.streaming:
            row.status = IdempotencyKey.Status.DONE
            row.response_status = response.status_code
            row.response_type = response.get("Content-Type", "")[:100]
            row.response_body = response.content
            row_update(row, ("status", "response_status", "response_type", "response_body"))
        else:
            IdempotencyKey.objects.filter(pk=row.pk).delete()
    except DatabaseError:  # the view's own failure left the transaction unusable: it all rolls back, key included
        transaction.set_rollback(True)


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
        user = _api_user(request)
        if user is None:
            return self.get_response(request)
        # One transaction: the key taken, the write, and its answer kept commit together (one wait for the disk); a
        # second request with the same key waits on the key's row until the first is answered, then replays it.
        with transaction.atomic():
            outcome, row = _claim(user, key, fingerprint(request))
            if outcome == "replay" and row is not None:
                return _replay(row)
            if outcome == "other":
                return refusal(
                    request,
                    f"This {HEADER} was sent with another request: a key names one request. Send a new key for a new "
                    "write.",
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
            response = self.get_response(request)  # an exception rolls the key back with everything else
            _keep(row, response)
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
