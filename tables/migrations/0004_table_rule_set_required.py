"""A table must play by a rule set: the column is required once every table has one (0003).

Three steps (add nullable, fill, require) rather than one, so PostgreSQL never alters
a table with updates still pending in the same transaction.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_assign_default_rule_sets"),
    ]

    operations = [
        migrations.AlterField(
            model_name="table",
            name="rule_set",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="tables",
                to="rules.ruleset",
                verbose_name="rule set",
            ),
        ),
    ]
