"""The house's chips: 1, 5, 25, 100, 500, 1,000 and 5,000 units, in the colours most houses use.
Data, not code: a house with other chips changes these rows (the admin), and a chip taken out of play is kept with
``in_use`` off."""

from __future__ import annotations

from django.db import migrations

HOUSE_CHIPS = [
    (100, "white"),
    (500, "red"),
    (2_500, "green"),
    (10_000, "black"),
    (50_000, "purple"),
    (100_000, "yellow"),
    (500_000, "orange"),
]


def seed(apps, schema_editor):  # type: ignore[no-untyped-def]
    chip = apps.get_model("tables", "ChipDenomination")
    for value_cents, colour in HOUSE_CHIPS:
        chip.objects.get_or_create(value_cents=value_cents, defaults={"colour": colour})


class Migration(migrations.Migration):
    dependencies = [("tables", "0011_chip_tray")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
