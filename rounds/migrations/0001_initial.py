"""The rounds app takes over the round (``tables.Round``, ``tables.BankTurn``) and its wagers and requests
(``settlement.Wager``, ``HouseWager``, ``Adjustment``): in Django's state. Each keeps its table, its rows and its
constraints as they are in the database (``db_table``), so nothing is copied and nothing moves; only the triggers that
guard them are installed again under the rounds app's names (django-pgtrigger names a trigger by its model)."""

import django.db.models.deletion
import pgtrigger.compiler
import pgtrigger.migrations
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('casino', '0007_tournament_director_role'),
        ('ledger', '0001_initial'),
        ('tables', '0016_buy_in_voided_once'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('settlement', '0015_postings_moved'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Round',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField(verbose_name='number')),
                        ('state', models.CharField(choices=[('open', 'open'), ('betting_closed', 'betting closed'), ('dealt', 'dealt'), ('revealed', 'revealed'), ('settled', 'settled'), ('voided', 'voided')], default='open', max_length=20, verbose_name='state')),
                        ('rule_set_snapshot', models.JSONField(verbose_name='rule set snapshot')),
                        ('opened_at', models.DateTimeField(verbose_name='opened at')),
                        ('state_changed_at', models.DateTimeField(verbose_name='state changed at')),
                        ('void_reason', models.TextField(blank=True, verbose_name='void reason')),
                        ('bank_cents', models.PositiveBigIntegerField(blank=True, null=True, verbose_name='bank (cents)')),
                        ('deal_mode', models.CharField(blank=True, choices=[('dice', 'dice'), ('auto', 'system deal')], max_length=10, verbose_name='deal')),
                        ('dice', models.JSONField(blank=True, null=True, verbose_name='dice')),
                        ('action_order', models.JSONField(blank=True, null=True, verbose_name='action order')),
                        ('dealt', models.JSONField(blank=True, null=True, verbose_name='dealt')),
                        ('hands', models.JSONField(blank=True, null=True, verbose_name='hands')),
                        ('placements', models.JSONField(blank=True, null=True, verbose_name='placements')),
                        ('bank_seat', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='banked_rounds', to='tables.seat', verbose_name="banker's seat")),
                        ('opened_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='opened by')),
                        ('shift', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='casino.shift', verbose_name='shift')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='tables.table', verbose_name='table')),
                    ],
                    options={
                        'verbose_name': 'round',
                        'verbose_name_plural': 'rounds',
                        'db_table': 'tables_round',
                        'ordering': ['table_id', '-number'],
                    },
                ),
                migrations.CreateModel(
                    name='BankTurn',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('consecutive', models.PositiveSmallIntegerField(verbose_name='rounds in a row')),
                        ('seat', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='bank_turns', to='tables.seat', verbose_name='seat')),
                        ('round', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='bank_turn', to='rounds.round', verbose_name='round')),
                    ],
                    options={
                        'verbose_name': 'bank turn',
                        'verbose_name_plural': 'bank turns',
                        'db_table': 'tables_bankturn',
                    },
                ),
                migrations.CreateModel(
                    name='Adjustment',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('void', 'void'), ('correction', 'correction')], max_length=12, verbose_name='kind')),
                        ('status', models.CharField(choices=[('pending', 'waiting for approval'), ('approved', 'approved'), ('rejected', 'rejected')], default='pending', max_length=10, verbose_name='status')),
                        ('reason', models.TextField(verbose_name='reason')),
                        ('hands', models.JSONField(blank=True, null=True, verbose_name='corrected hands')),
                        ('requested_at', models.DateTimeField(auto_now_add=True, verbose_name='requested at')),
                        ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decided at')),
                        ('decision_note', models.TextField(blank=True, verbose_name='decision note')),
                        ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decided by')),
                        ('posting', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.posting', verbose_name='posting')),
                        ('requested_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='adjustments', to='rounds.round', verbose_name='round')),
                    ],
                    options={
                        'verbose_name': 'void or correction request',
                        'verbose_name_plural': 'void and correction requests',
                        'db_table': 'settlement_adjustment',
                        'ordering': ['-requested_at'],
                    },
                ),
                migrations.CreateModel(
                    name='Wager',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('amount_cents', models.PositiveBigIntegerField(verbose_name='amount (cents)')),
                        ('placed_at', models.DateTimeField(auto_now_add=True, verbose_name='placed at')),
                        ('placed_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='placed by')),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='wagers', to='rounds.round', verbose_name='round')),
                        ('seat', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='wagers', to='tables.seat', verbose_name='seat')),
                    ],
                    options={
                        'verbose_name': 'wager',
                        'verbose_name_plural': 'wagers',
                        'db_table': 'settlement_wager',
                        'ordering': ['round_id', 'seat_id'],
                    },
                ),
                migrations.CreateModel(
                    name='HouseWager',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('amount_cents', models.PositiveBigIntegerField(verbose_name='amount (cents)')),
                        ('placed_at', models.DateTimeField(auto_now_add=True, verbose_name='placed at')),
                        ('placed_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='placed by')),
                        ('round', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='house_wager', to='rounds.round', verbose_name='round')),
                        ('last_wager', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='rounds.wager', verbose_name="the banker's last bet")),
                    ],
                    options={
                        'verbose_name': 'house wager',
                        'verbose_name_plural': 'house wagers',
                        'db_table': 'settlement_housewager',
                        'ordering': ['round_id'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='round',
                    constraint=models.UniqueConstraint(fields=('table', 'number'), name='round_number_unique_at_table'),
                ),
                migrations.AddConstraint(
                    model_name='round',
                    constraint=models.UniqueConstraint(condition=models.Q(('state__in', ['betting_closed', 'dealt', 'open', 'revealed'])), fields=('table',), name='one_unfinished_round_per_table'),
                ),
                migrations.AddConstraint(
                    model_name='bankturn',
                    constraint=models.CheckConstraint(condition=models.Q(('consecutive__gte', 1)), name='bank_turn_consecutive_positive'),
                ),
                migrations.AddConstraint(
                    model_name='adjustment',
                    constraint=models.UniqueConstraint(condition=models.Q(('status', 'pending')), fields=('round',), name='one_pending_adjustment_per_round'),
                ),
                migrations.AddConstraint(
                    model_name='wager',
                    constraint=models.UniqueConstraint(fields=('round', 'seat'), name='one_wager_per_seat_per_round'),
                ),
                migrations.AddConstraint(
                    model_name='wager',
                    constraint=models.CheckConstraint(condition=models.Q(('amount_cents__gt', 0)), name='wager_positive'),
                ),
                migrations.AddConstraint(
                    model_name='housewager',
                    constraint=models.CheckConstraint(condition=models.Q(('amount_cents__gt', 0)), name='house_wager_positive'),
                ),
    
            ],
            database_operations=[],
        ),
        # The guards under the rounds app's names, on the same tables (the old ones are dropped by the apps that
        # held these models: tables 0017, settlement 0016).
        pgtrigger.migrations.AddTrigger(
            model_name='round',
            trigger=pgtrigger.compiler.Trigger(name='frozen_columns', sql=pgtrigger.compiler.UpsertTriggerSql(condition='WHEN (OLD."table_id" IS DISTINCT FROM NEW."table_id" OR OLD."number" IS DISTINCT FROM NEW."number" OR OLD."rule_set_snapshot" IS DISTINCT FROM NEW."rule_set_snapshot" OR OLD."bank_seat_id" IS DISTINCT FROM NEW."bank_seat_id" OR OLD."bank_cents" IS DISTINCT FROM NEW."bank_cents" OR OLD."opened_by_id" IS DISTINCT FROM NEW."opened_by_id" OR OLD."opened_at" IS DISTINCT FROM NEW."opened_at" OR (OLD."state" IN (\'dealt\', \'revealed\', \'settled\', \'voided\') AND (OLD."deal_mode" IS DISTINCT FROM NEW."deal_mode" OR OLD."dice" IS DISTINCT FROM NEW."dice" OR OLD."action_order" IS DISTINCT FROM NEW."action_order" OR OLD."dealt" IS DISTINCT FROM NEW."dealt")) OR (OLD."state" IN (\'settled\', \'voided\') AND OLD."state" IS DISTINCT FROM NEW."state"))', func="RAISE EXCEPTION 'pgtrigger: Cannot update rows from % table', TG_TABLE_NAME;", hash='7b53844f918aff28ad62e1f25d4168895ce993d4', operation='UPDATE', pgid='pgtrigger_frozen_columns_db9b1', table='tables_round', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='round',
            trigger=pgtrigger.compiler.Trigger(name='no_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot delete rows from % table', TG_TABLE_NAME;", hash='a2c0abfe92b221e4414afb2b3c599f09efe5ba24', operation='DELETE', pgid='pgtrigger_no_delete_6c7ad', table='tables_round', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='round',
            trigger=pgtrigger.compiler.Trigger(name='no_truncate', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot truncate % table', TG_TABLE_NAME;", hash='82f29d1890f77f643a0146be0020a2b2cb86e9f6', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_no_truncate_d3430', table='tables_round', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='adjustment',
            trigger=pgtrigger.compiler.Trigger(name='frozen_columns', sql=pgtrigger.compiler.UpsertTriggerSql(condition='WHEN (OLD."round_id" IS DISTINCT FROM NEW."round_id" OR OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."reason" IS DISTINCT FROM NEW."reason" OR OLD."hands" IS DISTINCT FROM NEW."hands" OR OLD."requested_by_id" IS DISTINCT FROM NEW."requested_by_id" OR OLD."requested_at" IS DISTINCT FROM NEW."requested_at" OR (OLD."status" IN (\'approved\', \'rejected\') AND (OLD."decided_by_id" IS DISTINCT FROM NEW."decided_by_id" OR OLD."decided_at" IS DISTINCT FROM NEW."decided_at" OR OLD."decision_note" IS DISTINCT FROM NEW."decision_note" OR OLD."posting_id" IS DISTINCT FROM NEW."posting_id")) OR (OLD."status" IN (\'approved\', \'rejected\') AND OLD."status" IS DISTINCT FROM NEW."status"))', func="RAISE EXCEPTION 'pgtrigger: Cannot update rows from % table', TG_TABLE_NAME;", hash='411ea8eb6c2e05af775c6fd50c4a9c5c1fd6ff5e', operation='UPDATE', pgid='pgtrigger_frozen_columns_ce92b', table='settlement_adjustment', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='adjustment',
            trigger=pgtrigger.compiler.Trigger(name='no_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot delete rows from % table', TG_TABLE_NAME;", hash='f4515cf905c921da5d88fb1d63771de3673df2c1', operation='DELETE', pgid='pgtrigger_no_delete_9630f', table='settlement_adjustment', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='adjustment',
            trigger=pgtrigger.compiler.Trigger(name='no_truncate', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot truncate % table', TG_TABLE_NAME;", hash='5a49d4ab620c95808773cd21b87b6c91990519e6', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_no_truncate_6ed12', table='settlement_adjustment', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='wager',
            trigger=pgtrigger.compiler.Trigger(name='append_only', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot update or delete rows from % table', TG_TABLE_NAME;", hash='838e600d61389809f89f186baaecf98ff1883956', operation='UPDATE OR DELETE', pgid='pgtrigger_append_only_685aa', table='settlement_wager', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='wager',
            trigger=pgtrigger.compiler.Trigger(name='append_only_truncate', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot truncate % table', TG_TABLE_NAME;", hash='234f8f9159828d1ad8848f4b792ce0fc46a0d9c2', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_append_only_truncate_692fc', table='settlement_wager', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='housewager',
            trigger=pgtrigger.compiler.Trigger(name='append_only', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot update or delete rows from % table', TG_TABLE_NAME;", hash='694ee99c00e98844c1aaaa4e66da59f5c4b8be31', operation='UPDATE OR DELETE', pgid='pgtrigger_append_only_df807', table='settlement_housewager', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='housewager',
            trigger=pgtrigger.compiler.Trigger(name='append_only_truncate', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'pgtrigger: Cannot truncate % table', TG_TABLE_NAME;", hash='fcdde467603f72ca0dde7cfb61a1eb509090d954', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_append_only_truncate_d0fbb', table='settlement_housewager', when='BEFORE')),
        ),
    ]
