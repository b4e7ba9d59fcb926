"""The rated rows point at the rounds app's round (the same table, ``tables_round``): in Django's state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0003_postings_in_the_ledger'),
        ('rounds', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='holdround',
                    name='round',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='rounds.round'),
                ),
                migrations.AlterField(
                    model_name='ratedround',
                    name='round',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='rounds.round'),
                ),
    
            ],
            database_operations=[],
        ),
    ]
