"""The old tables of the postings and their entries dropped: ``0014_postings_to_ledger`` copied them to the ledger."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0003_postings_in_the_ledger'),
        ('poker_room', '0003_postings_in_the_ledger'),
        ('settlement', '0014_postings_to_ledger'),
    ]

    operations = [
        migrations.DeleteModel(
            name='LedgerEntry',
        ),
        migrations.DeleteModel(
            name='Posting',
        ),
    ]
