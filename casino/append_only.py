"""Append-only rows: the ledger and the audit log grow by new rows, never by edits.

A model that inherits ``AppendOnlyModel`` refuses ``save()`` on an existing row,
``delete()``, and the queryset's bulk ``update()`` and ``delete()``. Corrections are
new rows that refer to the old ones.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import models


class AppendOnlyError(Exception):
    """Raised on any attempt to change or remove a row of an append-only table."""


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.verbose_name_plural} are append-only: rows cannot be updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.verbose_name_plural} are append-only: rows cannot be deleted")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.verbose_name_plural} are append-only: rows cannot be updated")


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(
                f"{self._meta.verbose_name} {self.pk} is append-only: it cannot be changed; "
                "add a correcting row instead"
            )
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self._meta.verbose_name} {self.pk} is append-only: it cannot be deleted")
