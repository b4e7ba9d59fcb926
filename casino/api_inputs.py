"""The REST APIs' one input check and their answers' drawing.

``valid_input``: a request's body read by the endpoint's input serializer, or the 400 that says which field is
wrong and why (DRF's validation error, rendered by the one exception handler). ``answer_data``: an object drawn by
the endpoint's output serializer.

Both use one serializer of each class a thread, made once (``_made``): DRF makes a serializer's fields anew for each
instance, deep-copying every declared field, nested serializers included, which was a tenth of a wager's request
(docs/performance.md, "A round over HTTP"). A serializer's validation (``run_validation``) and drawing
(``to_representation``) keep nothing on the serializer, so one instance serves every request of its thread; these
serializers take no context (the ones that read ``self.context`` are made per request, as DRF does).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request

S = TypeVar("S", bound=serializers.BaseSerializer[Any])

_local = threading.local()


def _made(serializer_class: type[S], *, partial: bool = False) -> S:
    """The thread's one ``serializer_class`` (``partial`` or not), made on first use."""
    made: dict[tuple[type[Any], bool], Any] = _local.__dict__.setdefault("serializers", {})
    key = (serializer_class, partial)
    if key not in made:
        made[key] = serializer_class(partial=partial)
    serializer: S = made[key]
    return serializer


def valid_input(
    serializer_class: type[serializers.Serializer[Any]], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The body of ``request`` as ``serializer_class`` validates it (``partial``: the fields sent only), or a 400."""
    serializer = _made(serializer_class, partial=partial)
    refuse_unknown_fields(serializer, request.data)
    try:
        return dict(serializer.run_validation(request.data))
    except serializers.ValidationError as refused:  # shaped as ``is_valid(raise_exception=True)`` shapes it
        raise serializers.ValidationError(serializers.as_serializer_error(refused)) from None


def answer_data(serializer_class: type[serializers.Serializer[Any]], instance: Any) -> dict[str, Any]:
    """``instance`` drawn by ``serializer_class``: what ``serializer_class(instance).data`` is."""
    data: dict[str, Any] = _made(serializer_class).to_representation(instance)
    return data


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
