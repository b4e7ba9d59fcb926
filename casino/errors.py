"""The one application error, and the API exception handler that renders it.

Services raise ``ApplicationError`` (or a subclass) with a message in the
dealer's words; the API renders every error as ``{"message": ..., "extra": {...}}``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.csrf import csrf_failure as django_csrf_failure
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from casino.middleware import api_path, refusal


class ApplicationError(Exception):
    """A request the system refuses, with a message a dealer can read."""

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


class WrongState(ApplicationError):
    """The thing exists but is not in a state that allows the action."""

    status_code = status.HTTP_409_CONFLICT


class NotAllowed(ApplicationError):
    """The user's role does not allow the action."""

    status_code = status.HTTP_403_FORBIDDEN


def _first_message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        inner = _first_message(value)
        return inner if key == "non_field_errors" else f"{key}: {inner}"
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render every error as ``{"message": ..., "extra": {...}}`` with the right status."""
    if isinstance(exc, ApplicationError):
        return Response({"message": exc.message, "extra": exc.extra}, status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.UnsupportedMediaType):
        request = context.get("request")
        media_type = getattr(request, "content_type", "") or ""
        response.data = {
            "message": "The body cannot be read: send JSON, with Content-Type: application/json.",
            "extra": {"content_type": media_type},
        }
    elif isinstance(exc, exceptions.ValidationError):
        response.data = {"message": _first_message(exc.detail), "extra": {"fields": exc.detail}}
    else:
        detail = getattr(exc, "detail", str(exc))
        response.data = {"message": _first_message(detail), "extra": {}}
    return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: under /api/ a request that fails Django's CSRF check is refused as JSON (403), like
    every refusal there; elsewhere Django's own page."""
    if api_path(request):
        return refusal(
            request,
            "The request's CSRF check failed: a signed-in browser sends the csrftoken cookie's value in the "
            "X-CSRFToken header; any other client signs in with a token.",
            status=403,
            extra={"reason": reason},
        )
    return django_csrf_failure(request, reason)


# Seconds a client waits before it asks again when the database cannot be reached.
RETRY_AFTER_SECONDS = 5


def database_unreachable(exc: BaseException | None) -> bool:
    """Whether the request failed because the database could not be reached or answer (the connection refused or
    lost, the server shutting down, a lock or statement timed out): a moment later the same request may succeed."""
    return isinstance(exc, OperationalError | InterfaceError)


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: the API's refusal under /api/, elsewhere a page in words that reads nothing from the
    database (it cannot) and, for a page asked for (GET), asks again by itself."""
    if api_path(request):
        response = refusal(
            request,
            "The server cannot reach its database just now; nothing of this request was recorded. "
            f"Send it again in {RETRY_AFTER_SECONDS} seconds (with the same Idempotency-Key, it records once).",
            status=503,
            extra={"retry_after": RETRY_AFTER_SECONDS},
        )
    else:
        context = {"retry_after": RETRY_AFTER_SECONDS, "again": request.method == "GET"}
        response = HttpResponse(render_to_string("503.html", context), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
