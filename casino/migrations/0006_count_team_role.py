"""The Count team role: counts the drop boxes, two members each box, independently."""

from __future__ import annotations

from django.db import migrations


def create(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.get_or_create(name="Count team")


def remove(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.filter(name="Count team").delete()


class Migration(migrations.Migration):
    dependencies = [("casino", "0005_cage_cashier_role")]

    operations = [migrations.RunPython(create, remove)]
