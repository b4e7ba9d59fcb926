"""The Tournament director role: runs the poker room's tournaments."""

from __future__ import annotations

from django.db import migrations


def create(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.get_or_create(name="Tournament director")


def remove(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.filter(name="Tournament director").delete()


class Migration(migrations.Migration):
    dependencies = [("casino", "0006_count_team_role")]

    operations = [migrations.RunPython(create, remove)]
