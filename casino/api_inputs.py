"""The REST APIs' one input check: a request's body read by the endpoint's input serializer, or the 400 that says
which field is wrong and why (DRF's validation error, rendered by the one exception handler)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request


def valid_input(
    serializer_class: type[serializers.Serializer[Any]], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The body of ``request`` as ``serializer_class`` validates it (``partial``: the fields sent only), or a 400."""
    serializer = serializer_class(data=request.data, partial=partial)
    refuse_unknown_fields(serializer, request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def refuse_unknown_fields(serializer: serializers.Serializer[Any], data: Any) -> None:
    """A field the endpoint does not know is refused (400 naming it), not silently dropped: a misspelt
    ``amount_cent`` would otherwise be a request that did something else than its sender meant."""
    if not isinstance(data, Mapping):
        return
    unknown = sorted(str(name) for name in data if name not in serializer.fields)
    if unknown:
        raise serializers.ValidationError(
            {name: [_("This request takes no field %(field)s.") % {"field": repr(name)}] for name in unknown}
        )
