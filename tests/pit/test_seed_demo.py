"""seed_demo builds a real floor once, with one user per role, and a second run changes nothing."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from casino.audit_verify import audit_log_verify
from casino.models import AuditEvent, Pit
from casino.roles import Role, user_roles
from rules.models import Game
from tables.models import Table, TrayCount

# Every table opens with a counted tray: the house's chips must be there (a transactional test's flush empties them).
pytestmark = pytest.mark.usefixtures("house_chips")


@pytest.mark.django_db
def test_seed_demo_makes_two_pits_every_game_and_a_user_per_role(settings, tmp_path) -> None:
    settings.VAR_DIR = tmp_path
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert Pit.objects.count() == 2
    assert set(Table.objects.values_list("game", flat=True)) == set(Game.values)
    assert not Table.objects.exclude(status=Table.Status.OPEN).exists()
    assert set(Table.objects.values_list("dealer__username", flat=True)) == {"dealer"}
    for username, role in [
        ("dealer", Role.DEALER),
        ("floor", Role.FLOOR_SUPERVISOR),
        ("pitboss", Role.PIT_BOSS),
        ("auditor", Role.AUDITOR),
        ("cage", Role.CAGE_CASHIER),
        ("count1", Role.COUNT_TEAM),
        ("count2", Role.COUNT_TEAM),
    ]:
        assert user_roles(User.objects.get(username=username)) == {role}
        assert username in out.getvalue()
    assert User.objects.get(username="admin").is_superuser
    # Every table opened with its tray counted by the dealer and confirmed by the floor: 3,300.00 each.
    openers = TrayCount.objects.filter(kind="opener", status="confirmed")
    assert sorted(
        openers.values_list("table__name", "total_cents", "counted_by__username", "confirmed_by__username")
    ) == [(name, 330_000, "dealer", "floor") for name in sorted(Table.objects.values_list("name", flat=True))]
    assert audit_log_verify().ok
    assert (tmp_path / "demo-logins.txt").read_text() in out.getvalue()


@pytest.mark.django_db
def test_seed_demo_twice_keeps_one_floor_and_prints_the_same_logins(settings, tmp_path) -> None:
    settings.VAR_DIR = tmp_path
    first = io.StringIO()
    call_command("seed_demo", stdout=first)
    events = AuditEvent.objects.count()
    second = io.StringIO()
    call_command("seed_demo", stdout=second)
    assert "already seeded" in second.getvalue()
    assert Pit.objects.count() == 2
    assert AuditEvent.objects.count() == events
    dealer_line = next(line for line in first.getvalue().splitlines() if line.strip().startswith("dealer"))
    assert dealer_line in second.getvalue()


@pytest.mark.django_db
def test_seed_demo_tables_play_by_their_games_default_rule_set_but_one_where_players_bank(settings, tmp_path) -> None:
    from rules.options import DEFAULT_RULE_SET_NAMES, PLAYER_ROTATION

    settings.VAR_DIR = tmp_path
    call_command("seed_demo", stdout=io.StringIO())
    for table in Table.objects.select_related("rule_set"):
        assert table.rule_set.game == table.game
        if table.name == "PGP-3":  # the README's player banking, to try without the admin
            assert table.rule_set.banking_mode == PLAYER_ROTATION
        else:
            assert table.rule_set.name == DEFAULT_RULE_SET_NAMES[table.game]
            assert table.rule_set.banking_mode != PLAYER_ROTATION


@pytest.mark.django_db
def test_the_demo_has_a_third_counter_for_when_two_counts_disagree(settings, tmp_path) -> None:
    settings.VAR_DIR = tmp_path
    call_command("seed_demo", stdout=io.StringIO())
    counters = User.objects.filter(groups__name=Role.COUNT_TEAM.value).values_list("username", flat=True)
    assert sorted(counters) == ["count1", "count2", "count3"]


@pytest.mark.django_db
def test_a_fresh_demo_database_moves_an_earlier_databases_checkpoints_aside(settings, tmp_path) -> None:
    """Deleting the demo database and seeding again is not a chain cut short: the old file is kept, aside."""
    settings.VAR_DIR = tmp_path
    old = tmp_path / "audit-checkpoints.jsonl"
    old.write_text('{"seq": 4000, "head_hash": "' + "a" * 64 + '"}\n')
    settings.TABLESIDE_AUDIT_CHECKPOINT_FILE = str(old)
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert not old.exists()
    (aside,) = tmp_path.glob("audit-checkpoints.jsonl.before-*")
    assert "4000" in aside.read_text() and str(aside) in out.getvalue()
    assert audit_log_verify().ok
