"""Request checks that come before any view ("Faults and bad input")."""

from __future__ import annotations

from collections.abc import Callable

from csp.constants import HEADER
from csp.middleware import CheckableLazyObject, CSPMiddleware
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.urls import Resolver404, resolve

JSON = "application/json"


def api_path(request: HttpRequest) -> bool:
    """Whether the request is for the API, whose every answer (a refusal included) is JSON."""
    return request.path.startswith("/api/")


def refusal(request: HttpRequest, message: str, *, status: int, extra: dict[str, object]) -> HttpResponse:
    """A refusal outside a view: the API's ``{"message", "extra"}`` under /api/, a plain line elsewhere."""
    if api_path(request):
        return JsonResponse({"message": message, "extra": extra}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class RefuseNulBytes:
    """A NUL byte in a query parameter or a form field is refused (400) before any view runs: no database stores
    one (PostgreSQL answers a filter holding one with an error no view expects), and no user types one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for where in (request.GET, request.POST) if request.method == "POST" else (request.GET,):
            for name, values in where.lists():
                if "\x00" in name or any("\x00" in value for value in values):
                    return refusal(
                        request,
                        f"The field {name.replace(chr(0), '')!r} holds a NUL byte: no such value is ever valid.",
                        status=400,
                        extra={"field": name.replace("\x00", "")},
                    )
        return self.get_response(request)


NOTHING_HERE = "Nothing is at this API address."


class ApiNotFoundAsJson:
    """Under /api/ a 404 is the API's JSON refusal even where Django would draw its page: with ``DEBUG`` on (the demo)
    an address no URL pattern matches (``/api/rounds/-1/``) gets Django's technical page, which a generated client
    cannot read; with ``DEBUG`` off, the styled page of ``config.urls.handler404``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 404 and api_path(request) and not response.get("Content-Type", "").startswith(JSON):
            return refusal(request, NOTHING_HERE, status=404, extra={"path": request.path})
        return response


class PageMessages(MessageMiddleware):
    """Django's messages (a page's "Recorded." line after a form) on the pages only: an API answer is JSON and
    carries none, so an API request neither makes a message store nor looks for one to keep. A message added
    under /api/ is refused (``MessageFailure``), as where no middleware is installed."""

    def process_request(self, request: HttpRequest) -> None:
        if not api_path(request):
            super().process_request(request)


class ApiTrailingSlash:
    """Under /api/ an address that only lacks its trailing slash (``/api/v1/tables``) is answered 308 to the address
    with it, in the API's JSON: a 308 keeps the method and the body, where ``CommonMiddleware``'s 301 (``APPEND_SLASH``)
    turns a client's POST into a GET, and with ``DEBUG`` on fails a POST with a server error. Placed before it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if api_path(request) and not request.path.endswith("/") and not _resolves(request.path_info):
            with_slash = request.path + "/"
            if _resolves(request.path_info + "/"):
                query = request.META.get("QUERY_STRING", "")
                location = with_slash + (f"?{query}" if query else "")
                moved = refusal(
                    request, f"This address ends with a slash: {with_slash}", status=308, extra={"location": location}
                )
                moved["Location"] = location
                return moved
        return self.get_response(request)


def _resolves(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


# What an API answer in JSON may load and who may frame it: nothing and nobody. OWASP's REST Security Cheat Sheet
# ("Security Headers") asks every API answer for ``frame-ancestors 'none'``; a JSON answer loads nothing, so
# ``default-src 'none'`` takes nothing from a browser that shows it.
API_ANSWER_POLICY = "default-src 'none'; frame-ancestors 'none'"


class ContentSecurityPolicy(CSPMiddleware):
    """django-csp's policy (``CONTENT_SECURITY_POLICY``) on every page; on the API's JSON answers the fixed, stricter
    ``API_ANSWER_POLICY``, not the pages' policy built again for each answer (django-csp builds it for every
    response, even one whose view set its own header, such as a report's ``sandbox``: that one is left as it is)."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if HEADER not in response and api_path(request) and response.get("Content-Type", "").startswith(JSON):
            response[HEADER] = API_ANSWER_POLICY
        if HEADER in response and not getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None):
            if getattr(request, "_csp_nonce", None) is None:  # as django-csp: no nonce asked for after the header
                request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
            return response
        return super().process_response(request, response)
