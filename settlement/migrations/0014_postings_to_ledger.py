"""The postings and their entries move to the ledger app (``ledger``), at the bottom of the house: their rows are
copied into the ledger's tables, ids and all, and the references to them follow; ``0015_postings_moved`` drops the
old tables. Nothing is lost or renumbered: an audit event that names posting 17 still names the same posting."""

import django.db.models.deletion
from django.core.management.color import no_style
from django.db import migrations, models


def copy_to_ledger(apps, schema_editor):
    """Every posting and entry copied to the ledger's tables as it is, then the ledger's id sequences moved past
    them (PostgreSQL; SQLite's AUTOINCREMENT follows the largest id by itself)."""
    connection = schema_editor.connection
    quote = connection.ops.quote_name
    for old_name, new_name in (("Posting", "Posting"), ("LedgerEntry", "LedgerEntry")):
        old = apps.get_model("settlement", old_name)
        new = apps.get_model("ledger", new_name)
        columns = ", ".join(quote(field.column) for field in new._meta.concrete_fields)
        schema_editor.execute(
            f"INSERT INTO {quote(new._meta.db_table)} ({columns}) "
            f"SELECT {columns} FROM {quote(old._meta.db_table)} ORDER BY {quote('id')}"
        )
    ledger = [apps.get_model("ledger", "Posting"), apps.get_model("ledger", "LedgerEntry")]
    for statement in connection.ops.sequence_reset_sql(no_style(), ledger):
        schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0001_initial'),
        ('settlement', '0013_house_wager'),
    ]

    operations = [
        migrations.RunPython(copy_to_ledger, elidable=False),
        migrations.AlterField(
            model_name='adjustment',
            name='posting',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.posting', verbose_name='posting'),
        ),
    ]
