"""The REST APIs' one input check and their answers' drawing.

``valid_input``: a request's body read by the endpoint's input serializer, or the 400 that says which field is
wrong and why (DRF's validation error, rendered by the one exception handler). ``answer_data``: an object drawn by
the endpoint's output serializer.

Both use one serializer of each class a thread, made once (``_made``): DRF makes a serializer's fields anew for each
instance, deep-copying every declared field, nested serializers included, which was a tenth of a wager's request
(docs/performance.md, "A round over HTTP"). A serializer's validation (``run_validation``) and drawing
(``to_representation``) keep nothing on the serializer, so one instance serves every request of its thread; these
serializers take no context (the ones that read ``self.context`` are made per request, as DRF does).

An answer is drawn by its serializer's plan (``_Plan``), worked out once from the serializer's own fields: the same
dictionary as ``to_representation``, without DRF's per-field generic steps (a field's source walked through the
general ``get_attribute``, the request's time zone looked up again for each date and time). Where a field is not a
plain one the plan knows (a method field, a custom field, a source through a mapping or a callable, a missing
attribute), the plan asks the field itself, as DRF does.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Model
from django.db.models.manager import BaseManager
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import ISO_8601, serializers
from rest_framework.fields import Field, SkipField
from rest_framework.relations import PKOnlyObject
from rest_framework.request import Request
from rest_framework.settings import api_settings

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
    """``instance`` drawn by ``serializer_class``: what ``serializer_class(instance).data`` is (its plan's drawing,
    ``_Plan``)."""
    made = _made(serializer_class)
    plans: dict[tuple[type[Any], Any], _Plan | None] = _local.__dict__.setdefault("plans", {})
    key = (serializer_class, api_settings.DATETIME_FORMAT)  # a plan draws times in the format of its making
    if key not in plans:
        plans[key] = _Plan.of(made)
    plan = plans[key]
    if plan is None:  # a serializer that draws itself its own way
        data: dict[str, Any] = made.to_representation(instance)
        return data
    return plan.draw(instance, timezone.get_current_timezone() if settings.USE_TZ else None)


# How the plan draws a field's value that is not None: as an ISO 8601 date and time, by a nested plan, by a list of
# nested plans, or by the field itself.
_TIME, _ONE, _MANY, _FIELD = range(4)


def _iso_time(field: Any) -> bool:
    """Whether ``field`` is DRF's own date and time field drawing ISO 8601 in the current time zone (the default)."""
    drawn_as = getattr(field, "format", api_settings.DATETIME_FORMAT)
    iso = isinstance(drawn_as, str) and drawn_as.lower() == ISO_8601
    return type(field) is serializers.DateTimeField and iso and not hasattr(field, "timezone")


def _plain_source(field: Any) -> bool:
    """Whether ``field`` reads its value as DRF's ``Field.get_attribute`` does (no field of its own way)."""
    return type(field).get_attribute is Field.get_attribute


class _Plan:
    """A serializer's readable fields, each with how to read its value and how to draw it, worked out once."""

    def __init__(self, steps: list[tuple[str, tuple[str, ...], Any, bool, int, Any]]) -> None:
        self.steps = steps

    @classmethod
    def of(cls, serializer: Any) -> _Plan | None:
        """The plan of ``serializer``, or None where it draws itself its own way (``to_representation`` of its
        own)."""
        if type(serializer).to_representation is not serializers.Serializer.to_representation:
            return None
        steps = []
        for field in serializer._readable_fields:
            how: int = _FIELD
            nested: Any = None
            if _iso_time(field):
                how = _TIME
            elif isinstance(field, serializers.ListSerializer) and type(field).to_representation is (
                serializers.ListSerializer.to_representation
            ):
                nested = cls.of(field.child)
                how = _MANY if nested is not None else _FIELD
            elif isinstance(field, serializers.Serializer):
                nested = cls.of(field)
                how = _ONE if nested is not None else _FIELD
            steps.append((field.field_name, tuple(field.source_attrs), field, _plain_source(field), how, nested))
        return cls(steps)

    def draw(self, instance: Any, zone: dt.tzinfo | None) -> dict[str, Any]:
        """``instance`` drawn: what the serializer's ``to_representation`` answers; ``zone`` the current time
        zone."""
        drawn: dict[str, Any] = {}
        for name, attrs, field, plain, how, nested in self.steps:
            try:
                value = _read(field, attrs, instance) if plain else field.get_attribute(instance)
            except SkipField:
                continue
            if value is None or (isinstance(value, PKOnlyObject) and value.pk is None):
                drawn[name] = None
            elif how == _TIME:
                drawn[name] = _time_drawn(field, value, zone)
            elif how == _MANY:
                items = value.all() if isinstance(value, BaseManager) else value
                drawn[name] = [nested.draw(item, zone) for item in items]
            elif how == _ONE:
                drawn[name] = nested.draw(value, zone)
            else:
                drawn[name] = field.to_representation(value)
        return drawn


def _read(field: Any, attrs: tuple[str, ...], instance: Any) -> Any:
    """The value of ``field`` on ``instance``, its source ``attrs`` read attribute by attribute; anything but plain
    attributes (a mapping, a callable, a missing attribute or row) is read by the field itself, as DRF reads it,
    from the start (what was read up to there is read again)."""
    value = instance
    try:
        for attr in attrs:
            if _mapping(value):
                break
            value = getattr(value, attr)
            if callable(value):
                break
        else:
            return value
    except (AttributeError, KeyError, ObjectDoesNotExist):
        pass
    return field.get_attribute(instance)


def _mapping(value: Any) -> bool:
    """Whether ``value`` is a mapping (DRF reads a source from it by key); a model instance, the usual source, is
    known without the abstract class's test, slow for an object that is none."""
    return not isinstance(value, Model) and isinstance(value, Mapping)


def _time_drawn(field: Any, value: Any, zone: dt.tzinfo | None) -> Any:
    """A date and time as DRF's ``DateTimeField`` draws it in ISO 8601, the current time zone ``zone`` looked up once
    an answer; anything but an aware ``datetime`` in a zone is drawn by the field itself."""
    to_text: Callable[[Any], Any] = field.to_representation
    if type(value) is not dt.datetime or zone is None or not timezone.is_aware(value):
        return to_text(value)
    try:
        text = value.astimezone(zone).isoformat()
    except OverflowError:
        return to_text(value)  # refused in DRF's words
    return text[:-6] + "Z" if text.endswith("+00:00") else text


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
