"""Create the staff roles as groups: Dealer, Floor supervisor, Pit boss, Auditor."""

from __future__ import annotations

from django.db import migrations

ROLE_NAMES = ["Dealer", "Floor supervisor", "Pit boss", "Auditor"]


def create_roles(apps, schema_editor):  # type: ignore[no-untyped-def]
    Group = apps.get_model("auth", "Group")
    for name in ROLE_NAMES:
        Group.objects.get_or_create(name=name)


def remove_roles(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.filter(name__in=ROLE_NAMES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
