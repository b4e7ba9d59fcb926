"""The wagers and the requests belong to the rounds app now (``rounds.0001_initial``): gone from this app's state
(their tables stay, the rounds app's), and the triggers that guarded them under this app's names dropped."""

import pgtrigger.migrations
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('settlement', '0015_postings_moved'),
        ('rounds', '0001_initial'),
        ('players', '0004_rounds_app'),
    ]

    operations = [
        # The guards under this app's names (the rounds app installed its own, 0001_initial).
        pgtrigger.migrations.RemoveTrigger(
            model_name='wager',
            name='append_only',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='wager',
            name='append_only_truncate',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='housewager',
            name='append_only',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='housewager',
            name='append_only_truncate',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='adjustment',
            name='frozen_columns',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='adjustment',
            name='no_delete',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='adjustment',
            name='no_truncate',
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='housewager',
                    name='last_wager',
                ),
                migrations.RemoveField(
                    model_name='housewager',
                    name='placed_by',
                ),
                migrations.RemoveField(
                    model_name='housewager',
                    name='round',
                ),
                migrations.RemoveField(
                    model_name='wager',
                    name='placed_by',
                ),
                migrations.RemoveField(
                    model_name='wager',
                    name='round',
                ),
                migrations.RemoveField(
                    model_name='wager',
                    name='seat',
                ),
                migrations.DeleteModel(
                    name='Adjustment',
                ),
                migrations.DeleteModel(
                    name='HouseWager',
                ),
                migrations.DeleteModel(
                    name='Wager',
                ),
    
            ],
            database_operations=[],
        ),
    ]
