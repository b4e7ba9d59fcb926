"""The ground's API: signing in and out with a token (``casino.tokens``).

Kept apart from ``casino.tokens``, which DRF imports while it loads its settings (the authentication class): a
view imported there would import DRF's views before they can be.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.contrib.auth.signals import user_logged_in
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.parsers import JSONParser
from casino.tokens import token_expires_at, token_issue, token_revoke
from casino.users import actor_of


class TokenIssued(TypedDict):
    token: str
    expires_at: str


class ObtainExpiringToken(ObtainAuthToken):
    """``POST /api/auth/token/``: a username and password give a new token and when it ends.

    django-axes counts a failure here as on the sign-in page: the serializer authenticates against the underlying
    Django request, so a lockout marks that request and ``axes.middleware.AxesMiddleware`` answers it
    (``casino.lockout.lockout_response``: 429 with ``{"message", "extra"}``).
    """

    parser_classes = [JSONParser]  # the API's one body format (ObtainAuthToken also reads forms)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "request": self.request._request}

    @extend_schema(
        operation_id="auth_token_create",
        summary="Sign in: a new token for a username and password (a new sign-in replaces the old token)",
        request=inline_serializer(
            "SignIn", {"username": serializers.CharField(), "password": serializers.CharField(write_only=True)}
        ),
        responses={
            200: inline_serializer(
                "TokenIssued", {"token": serializers.CharField(), "expires_at": serializers.DateTimeField()}
            )
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token = token_issue(user=user)
        # A sign-in like the page's: last_login moves and django-axes clears the failures counted so far.
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        # RFC 3339 with "Z", as every other time the API writes (DRF's DateTimeField).
        expires_at = serializers.DateTimeField().to_representation(token_expires_at(token=token))
        body: TokenIssued = {"token": token.key, "expires_at": expires_at}
        return Response(body)


class RevokeToken(APIView):
    """``POST /api/auth/token/revoke/``: the caller's own token ends now (a device handed back, a shift over)."""

    @extend_schema(
        operation_id="auth_token_revoke", summary="Sign out: end your own token", request=None, responses={204: None}
    )
    def post(self, request: Request) -> Response:
        token_revoke(user=actor_of(request.user))
        return Response(status=status.HTTP_204_NO_CONTENT)
