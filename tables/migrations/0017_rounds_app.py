"""The round and its bank turns belong to the rounds app now (``rounds.0001_initial``): gone from this app's state
(their tables stay, the rounds app's), and the triggers that guarded them under this app's names dropped."""

import pgtrigger.migrations
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0016_buy_in_voided_once'),
        ('rounds', '0001_initial'),
        ('players', '0004_rounds_app'),
        ('settlement', '0016_rounds_app'),
    ]

    operations = [
        # The guards under this app's names (the rounds app installed its own, 0001_initial).
        pgtrigger.migrations.RemoveTrigger(
            model_name='round',
            name='frozen_columns',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='round',
            name='no_delete',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='round',
            name='no_truncate',
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='round',
                    name='bank_seat',
                ),
                migrations.RemoveField(
                    model_name='round',
                    name='opened_by',
                ),
                migrations.RemoveField(
                    model_name='round',
                    name='shift',
                ),
                migrations.RemoveField(
                    model_name='round',
                    name='table',
                ),
                migrations.DeleteModel(
                    name='BankTurn',
                ),
                migrations.DeleteModel(
                    name='Round',
                ),
    
            ],
            database_operations=[],
        ),
    ]
