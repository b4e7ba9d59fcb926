"""The Cage cashier role: issues fills and credits at the cage, and never signs at a table."""

from __future__ import annotations

from django.db import migrations


def create(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.get_or_create(name="Cage cashier")


def remove(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.filter(name="Cage cashier").delete()


class Migration(migrations.Migration):
    dependencies = [("casino", "0004_task_outbox")]

    operations = [migrations.RunPython(create, remove)]
