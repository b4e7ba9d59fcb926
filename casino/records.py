"""The audited records: every model whose rows matter, registered once with what its snapshot holds.

A registered model's every write goes through ``casino.audit.audit_event_record`` with the rows it wrote
(``rows=``) or removed (``removed=``): the event carries each row's snapshot (every column that means something)
in its ``rows``, under the keyed hash chain like the rest of the event. ``casino.verify.records_verify`` then holds
every stored row to its last snapshot field by field, names a row whose events say it was removed, and a snapshot
whose row is gone. An edit, an insertion or a deletion made past the application is named, whatever the column.

Registration is on the model (``@audited()``): every stored field is in the snapshot unless the model leaves it
out (``kept=``: a figure that is the sum of other rows, held by a kept-figure check instead of a snapshot, since it
changes with every round; ``exclude=``: a field nobody reads as a record, such as a cache of its own rows).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

from django.db import connection, models
from django.utils.text import capfirst

M = TypeVar("M", bound=type[models.Model])

# A row's snapshot: its fields' attribute names (``table_id`` for a foreign key) and their values as JSON holds them.
Snapshot = dict[str, Any]


@dataclass(frozen=True)
class Registered:
    """One audited model: its name in the audit log and the fields its snapshot holds."""

    model: type[models.Model]
    fields: tuple[str, ...]
    kept: tuple[str, ...]

    @property
    def name(self) -> str:
        return subject_type(self.model)

    @property
    def label(self) -> str:
        """The model's name as a user reads it ("Deal", "Rating session")."""
        return capfirst(str(self.model._meta.verbose_name))

    @cached_property
    def _by_attname(self) -> dict[str, models.Field[Any, Any]]:
        return {field.attname: field for field in self.model._meta.concrete_fields}

    def field(self, attname: str) -> models.Field[Any, Any]:
        return self._by_attname[attname]


_REGISTRY: dict[type[models.Model], Registered] = {}


def subject_type(model: type[models.Model] | models.Model) -> str:
    """The name the audit log gives a model's rows (an event's ``subject_type``): its ``audit_subject`` where it sets
    one (a model that moved to another app keeps the name its events have always had: the chain never changes),
    else its label (``poker_room.tournament``)."""
    name: str = getattr(model, "audit_subject", "") or model._meta.label_lower
    return name


def audited(*, kept: Iterable[str] = (), exclude: Iterable[str] = ()) -> Callable[[M], M]:
    """Register a model as an audited record. Its snapshot holds every stored field but its primary key, those in
    ``kept`` (figures summed from other rows, held by a kept-figure check) and those in ``exclude``."""
    kept, exclude = tuple(kept), tuple(exclude)

    def register(model: M) -> M:
        names = {field.attname for field in model._meta.concrete_fields} | {
            field.name for field in model._meta.concrete_fields
        }
        unknown = [name for name in (*kept, *exclude) if name not in names]
        if unknown:
            raise TypeError(f"{model.__name__} has no field {', '.join(unknown)}")
        left_out = set(kept) | set(exclude)
        fields = tuple(
            field.attname
            for field in model._meta.concrete_fields
            if not field.primary_key and field.name not in left_out and field.attname not in left_out
        )
        _REGISTRY[model] = Registered(model, fields, kept)
        return model

    return register


def registered() -> list[Registered]:
    """Every audited model, in the order they were registered."""
    return list(_REGISTRY.values())


def registration(model: type[models.Model]) -> Registered | None:
    return _REGISTRY.get(model)


def row_key(model: type[models.Model] | models.Model, pk: object) -> str:
    """A row's key in an event's ``rows``: ``poker_room.deal:3``."""
    return f"{subject_type(model)}:{pk}"


def stored_value(field: models.Field[Any, Any], value: Any) -> Any:
    """A field's value as the snapshot holds it: as the field reads it from the database (``to_python``), then as
    JSON holds it: a moment in UTC, a decimal without trailing zeros, a UUID as text."""
    if value is not None and not isinstance(value, models.Model):
        value = field.to_python(value)
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat() if value.tzinfo else value.isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return str(value.normalize()) if value.is_finite() else str(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, list | dict):
        return json.loads(json.dumps(value, sort_keys=True))
    return value


def snapshot(instance: models.Model) -> Snapshot:
    """An audited row's snapshot, from the instance as it was saved. A field written as an expression
    (``F("n") + 1``) is read back from the database first."""
    entry = _REGISTRY[type(instance)]
    pending = [name for name in entry.fields if hasattr(getattr(instance, name, None), "resolve_expression")]
    if pending:
        instance.refresh_from_db(fields=[entry.field(name).name for name in pending])
    return {name: stored_value(entry.field(name), getattr(instance, name)) for name in entry.fields}


_PENDING = "_tableside_rows_pending"


def rows_pending(*rows: models.Model) -> None:
    """Rows written inside a transaction by code that records no event of its own (a rating fed by a settle or a
    buy-in): the next audit event of the same transaction carries them. A transaction rolled back takes them with it.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("rows are recorded inside the transaction that writes them")
    outermost = connection.atomic_blocks[0]
    pending: tuple[object, list[models.Model]] | None = connection.__dict__.get(_PENDING)
    if pending is None or pending[0] is not outermost:
        pending = connection.__dict__[_PENDING] = (outermost, [])
    pending[1].extend(rows)


def _take_pending() -> list[models.Model]:
    pending: tuple[object, list[models.Model]] | None = connection.__dict__.pop(_PENDING, None)
    if pending is None or not connection.in_atomic_block or pending[0] is not connection.atomic_blocks[0]:
        return []  # none, or left by a transaction that rolled back
    return pending[1]


def rows_recorded(rows: Iterable[models.Model], removed: Iterable[models.Model]) -> dict[str, Snapshot | None] | None:
    """What an event's ``rows`` holds: each audited row's snapshot (``rows``, and those pending in this transaction),
    each removed row's key with nothing (None when the event wrote no audited row). A row of a model that is not
    registered is a bug: TypeError."""
    recorded: dict[str, Snapshot | None] = {}
    for row in [*_take_pending(), *rows]:
        if type(row) not in _REGISTRY:
            raise TypeError(f"{type(row).__name__} is not an audited record (casino.records.audited)")
        if row.pk is None:
            raise TypeError(f"{type(row).__name__} is recorded before it is saved")
        recorded[row_key(row, row.pk)] = snapshot(row)
    for row in removed:
        recorded[row_key(row, row.pk)] = None
    return recorded or None


def differing_fields(entry: Registered, stored: Mapping[str, Any], recorded: Mapping[str, Any]) -> list[str]:
    """The fields whose stored value is not the recorded one."""
    return [
        name
        for name in entry.fields
        if stored_value(entry.field(name), stored.get(name)) != recorded.get(name, _MISSING)
    ]


_MISSING = object()
