"""What the API tests share: a client signed in as a user (or nobody), and the check of a refusal's shape."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient


def api_client(user: User | None) -> APIClient:
    """A client that answers errors as responses (never raises), authenticated as ``user`` unless None."""
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def refusal(response: Any, status: int, contains: str | None = "") -> dict[str, Any]:
    """Check a refusal: the status, the ``{"message", "extra"}`` shape, a message, and ``contains`` in it."""
    assert response.status_code == status, response.content[:400]
    body = response.json()
    assert set(body) == {"message", "extra"} and body["message"], body
    if contains:
        assert contains in body["message"], body
    return dict(body)
