"""A table plays by one rule set of its own game; changing it is a supervisor's audited act."""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent, Pit
from casino.services import pit_create
from rules.services import rule_set_create, rule_set_default, rule_set_update
from tables.models import Table
from tables.services import table_assign_rule_set, table_create


@pytest.fixture
def pit(pit_boss) -> Pit:
    return pit_create(actor=pit_boss, name="Pit 1")


@pytest.fixture
def pgp_table(pit_boss, pit) -> Table:
    return table_create(
        actor=pit_boss,
        pit=pit,
        name="PGP-1",
        game="paigow_poker",
        min_wager_cents=1000,
        max_wager_cents=50000,
        seat_count=6,
    )


@pytest.mark.django_db
def test_a_new_table_plays_by_its_games_default_rule_set(pgp_table) -> None:
    assert pgp_table.rule_set == rule_set_default(game="paigow_poker")
    created = AuditEvent.objects.get(event_type="table.created")
    assert created.after["rule_set"] == "Pai Gow Poker — house rules (Golden Nugget)"
    assert created.after["rule_set_version"] == pgp_table.rule_set.snapshot()["version"]


@pytest.mark.django_db
def test_a_table_can_be_created_with_a_rule_set_of_its_game(pit_boss, pit) -> None:
    trump = rule_set_create(actor=pit_boss, name="PGP Trump Plaza", game="paigow_poker", pgp_house_way="trump_plaza")
    table = table_create(
        actor=pit_boss,
        pit=pit,
        name="PGP-2",
        game="paigow_poker",
        min_wager_cents=1000,
        max_wager_cents=50000,
        seat_count=6,
        rule_set=trump,
    )
    assert Table.objects.get(pk=table.pk).rule_set == trump


@pytest.mark.django_db
def test_a_table_is_not_created_with_another_games_rule_set(pit_boss, pit) -> None:
    events = AuditEvent.objects.count()
    with pytest.raises(ApplicationError) as refused:
        table_create(
            actor=pit_boss,
            pit=pit,
            name="CP-1",
            game="chinese_poker",
            min_wager_cents=100,
            max_wager_cents=1000,
            seat_count=4,
            rule_set=rule_set_default(game="ofc"),
        )
    assert refused.value.message == (
        "Table CP-1 deals Chinese Poker; rule set 'Open-Face Chinese Poker — house rules (Mainz)' is for "
        "Open-Face Chinese Poker: choose a Chinese Poker rule set."
    )
    assert not Table.objects.exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_a_supervisor_assigns_a_rule_set_of_the_tables_game_with_an_audit_event(floor_supervisor, pgp_table) -> None:
    foxwoods = rule_set_create(
        actor=floor_supervisor, name="PGP Foxwoods", game="paigow_poker", pgp_house_way="foxwoods"
    )
    table_assign_rule_set(actor=floor_supervisor, table=pgp_table, rule_set=foxwoods)
    assert Table.objects.get(pk=pgp_table.pk).rule_set == foxwoods
    event = AuditEvent.objects.get(event_type="table.rule_set_assigned")
    assert (event.subject_type, event.subject_id) == ("tables.table", str(pgp_table.pk))
    assert event.before["rule_set"] == "Pai Gow Poker — house rules (Golden Nugget)"
    assert event.after["rule_set"] == "PGP Foxwoods"
    assert event.before["rule_set_version"] != event.after["rule_set_version"]
    assert event.actor == floor_supervisor


@pytest.mark.django_db
def test_a_table_cannot_take_another_games_rule_set(pit_boss, pgp_table) -> None:
    events = AuditEvent.objects.count()
    tiles = rule_set_default(game="paigow_tiles")
    with pytest.raises(
        ApplicationError, match="Table PGP-1 deals Pai Gow Poker; rule set .* is for Pai Gow \\(tiles\\)"
    ):
        table_assign_rule_set(actor=pit_boss, table=pgp_table, rule_set=tiles)
    assert Table.objects.get(pk=pgp_table.pk).rule_set == rule_set_default(game="paigow_poker")
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_assigning_the_rule_set_a_table_already_plays_by_is_a_wrong_state(pit_boss, pgp_table) -> None:
    with pytest.raises(WrongState, match="Table PGP-1 already plays by"):
        table_assign_rule_set(actor=pit_boss, table=pgp_table, rule_set=pgp_table.rule_set)


@pytest.mark.django_db
def test_a_dealer_cannot_change_a_tables_rule_set(dealer, pit_boss, pgp_table) -> None:
    other = rule_set_create(actor=pit_boss, name="PGP co-bank", game="paigow_poker", banking_mode="co_banking")
    events = AuditEvent.objects.count()
    with pytest.raises(NotAllowed, match="may change a table's rule set"):
        table_assign_rule_set(actor=dealer, table=pgp_table, rule_set=other)
    assert Table.objects.get(pk=pgp_table.pk).rule_set != other
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_a_rule_set_in_use_by_a_table_cannot_be_deleted(pgp_table) -> None:
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        pgp_table.rule_set.delete()


@pytest.mark.django_db
def test_editing_a_tables_rule_set_leaves_a_snapshot_taken_for_a_round_as_it_was(pit_boss, pgp_table) -> None:
    rules = rule_set_create(actor=pit_boss, name="PGP house", game="paigow_poker")
    table_assign_rule_set(actor=pit_boss, table=pgp_table, rule_set=rules)
    taken_at_round_open = Table.objects.get(pk=pgp_table.pk).rule_set.snapshot()
    rule_set_update(actor=pit_boss, rule_set=rules, commission_rate_bp=450, foul_policy="house_way")
    assert taken_at_round_open["commission_rate_bp"] == 500
    assert taken_at_round_open["options"]["foul_policy"] == "forfeit"
    assert Table.objects.get(pk=pgp_table.pk).rule_set.snapshot()["commission_rate_bp"] == 450
