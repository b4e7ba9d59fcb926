"""The REST APIs' one input check: a request's body read by the endpoint's input serializer, or the 400 that says
which field is wrong and why (DRF's validation error, rendered by the one exception handler)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request


def valid_input(
    serializer_class: type[serializers.Serializer[Any]], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The body of ``request`` as ``serializer_class`` validates it (``partial``: the fields sent only), or a 400."""
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
