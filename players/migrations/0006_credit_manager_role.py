"""The Credit manager role: sets and changes players' credit lines."""

from __future__ import annotations

from django.db import migrations


def create(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.get_or_create(name="Credit manager")


def remove(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.filter(name="Credit manager").delete()


class Migration(migrations.Migration):
    dependencies = [("players", "0005_credit_lines_and_markers"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create, remove)]
