"""Django's messages are the pages' own: a page's request gets a message store and keeps what it was told; an API
request (JSON) makes none, and a message added to one is refused, as where no message middleware is installed."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.messages import get_messages
from django.contrib.messages.api import MessageFailure
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.test import RequestFactory

from casino.middleware import PageMessages


def _through(path: str) -> tuple[HttpRequest, HttpResponse]:
    seen: list[HttpRequest] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(request)
        if path.startswith("/api/"):
            with pytest.raises(MessageFailure):
                messages.success(request, "Recorded.")
            return JsonResponse({"ok": True})
        messages.success(request, "Recorded.")
        return HttpResponse("page")

    request = RequestFactory().post(path)
    chain = SessionMiddleware(PageMessages(view))
    response = chain(request)
    return seen[0], response


def test_a_page_keeps_its_message_for_the_next_page() -> None:
    request, response = _through("/pit/")
    assert response.status_code == 200
    assert "messages" in response.cookies  # kept for the next page (the cookie store first)
    assert [str(m) for m in get_messages(request)] == ["Recorded."]


def test_an_api_request_makes_no_message_store_and_refuses_a_message() -> None:
    request, response = _through("/api/v1/rounds/1/wagers/")
    assert not hasattr(request, "_messages")
    assert response.status_code == 200
