"""Attacks on the records, as an auditor would try them: each is refused by the database, or
reported by a verify command naming the row.

Who attacks:
* the application's database role (``TABLESIDE_TEST_APP_ROLE``: the PostgreSQL CI pass works as it, see
  ``tests/conftest.py``): refused by its privileges and by the triggers;
* a superuser with the database but not the audit key (``tests.guards.tamper``: past the role and the
  triggers): reported by ``verify_audit`` (the keyed chain) and ``verify_ledger`` (the audit events that
  recorded every posting and wager, and ``--replay``);
* someone with the database and the key: reported by the checkpoints kept outside the database.
"""

from __future__ import annotations

import json
import os

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from casino.append_only import append_only_tables
from casino.audit import audit_checkpoint_make, audit_event_record, checkpoint_record, checkpoint_text, event_hash
from casino.events import AuditEventType
from casino.models import AuditCheckpoint, AuditEvent, AuditLeaf
from casino.roles import Role
from casino.services import shift_close
from ledger.models import LedgerEntry, Posting
from players.credit import credit_line_set, marker_issue, marker_redeem, marker_request
from players.models import HoldRound, RatedRound
from players.services import player_create, session_start
from poker_room.deals.models import Deal
from poker_room.tournaments.services import entry_register, tournament_create, tournament_start
from rounds.models import HouseWager, Round, Wager
from rules.lab_services import lab_chunk_play, lab_run_play, lab_run_start
from rules.options import PAIGOW_POKER
from rules.services import rule_set_default
from settlement.services import settle_round
from tables.drop import buy_in_record, drop_count_record
from tests.guards import guards_off, tamper
from tests.settlement.conftest import BANK, LOSES, WINS

APP_ROLE = os.environ.get("TABLESIDE_TEST_APP_ROLE", "").strip()
AE, P, LE, W, LEAF = (m._meta.db_table for m in (AuditEvent, Posting, LedgerEntry, Wager, AuditLeaf))


def q(name: str) -> str:
    return connection.ops.quote_name(name)


def database_refuses(sql: str, params: list[object] | None = None) -> str:
    """Run ``sql`` as the application; it must be refused. The database's message."""
    with pytest.raises(DatabaseError) as refusal, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
    return str(refusal.value)


def verify_audit_fails(*args: str) -> str:
    with pytest.raises(CommandError) as failure:
        call_command("verify_audit", *args)
    return str(failure.value)


def verify_ledger_fails(*args: str) -> str:
    with pytest.raises(CommandError) as failure:
        call_command("verify_ledger", *args)
    return str(failure.value)


@pytest.fixture
def settled(dealer, shift, pgp_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Seat 1 wins 25.00, seat 2 loses 10.00, settled by the dealer."""
    round_ = play_to_hands(
        pgp_table, wagers={1: 2500, 2: 1000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
    )
    settle_round(round=round_, actor=dealer, idempotency_key="attack-1")
    return Round.objects.get(pk=round_.pk)


@pytest.fixture
def two_settled(settled, pgp_table, play_to_hands, dealer) -> tuple[Round, Round]:  # type: ignore[no-untyped-def]
    second = play_to_hands(pgp_table, wagers={3: 4000}, hands={"banker": BANK, "seats": {"3": LOSES}})
    settle_round(round=second, actor=dealer, idempotency_key="attack-2")
    return settled, Round.objects.get(pk=second.pk)


@pytest.fixture
def checkpoint_now(django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    """Sign the chain's head as a shift close does, its line appended to the checkpoint file on commit."""

    def make() -> AuditCheckpoint:
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            checkpoint = audit_checkpoint_make(reason="shift closed")
        assert checkpoint is not None
        return checkpoint

    return make


def rechain(events: list[AuditEvent], *, reason: str) -> None:
    """Give the first of ``events`` another reason, then hash it and every event after it again (each linked to the
    one before, for the events of the chain the log began as) under whatever keys the settings hold now (the real
    one, or a guess), and store them so, their leaves in the log's tree too."""
    prev = events[0].prev_hash
    events[0].reason = reason
    for event in events:
        if event.prev_hash:
            event.prev_hash = prev
        event.hash = event_hash(prev_hash=event.prev_hash, event=event)
        tamper(
            f"UPDATE {q(AE)} SET reason = %s, prev_hash = %s, hash = %s WHERE id = %s",
            [event.reason, event.prev_hash, event.hash, event.pk],
        )
        tamper(f"UPDATE {q(LEAF)} SET event_hash = %s WHERE event_seq = %s", [event.hash, event.seq])
        prev = event.hash


def settlement_of(round_: Round) -> Posting:
    return Posting.objects.get(round_id=round_.pk, kind=Posting.Kind.SETTLEMENT)


# --- the application's role and the triggers: refused by the database ------------------------------


@pytest.mark.django_db
def test_the_postgresql_pass_works_as_the_least_privilege_role() -> None:
    if connection.vendor != "postgresql" or not APP_ROLE:
        pytest.skip("the PostgreSQL CI pass (TABLESIDE_TEST_APP_ROLE) works as the application's role")
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == APP_ROLE
    call_command("db_app_role", "--check")  # no owner, no superuser, no UPDATE/DELETE/TRUNCATE


@pytest.mark.django_db
@pytest.mark.parametrize("table", sorted(append_only_tables()))
def test_every_append_only_table_refuses_update_and_delete_in_the_database(  # type: ignore[no-untyped-def]
    table, settled, dealer, pit_boss, make_user
) -> None:
    # A row in every table: a row trigger fires only on a row. A rated player at seat 1: the buy-in counts for him,
    # and the settled round's row of his rating is written as the settle would have.
    lee = player_create(actor=dealer, name="Mr Lee", tier="Gold")
    session = session_start(actor=dealer, player=lee, table=settled.table, seat=1)
    RatedRound.objects.create(
        session=session,
        round=settled,
        posting=settlement_of(settled),
        table=settled.table,
        seat_number=1,
        position="player",
        rounds=1,
        action_cents=2500,
        win_loss_cents=2375,
        theo_millicents=64_700,
        variance_cents2=1,
        edge_ppm=25_880,
    )
    buy_in_record(actor=dealer, table=settled.table, seat=1, medium="cash", amount_cents=5000)
    # A marker of his, issued, counted with the box (two counts: final) and redeemed: a marker's payment.
    credit_line_set(actor=make_user("cora_credit", Role.CREDIT_MANAGER), player=lee, limit_cents=10_000)
    marker = marker_request(actor=dealer, table=settled.table, seat=1, amount_cents=10_000, signed_name="Lee")
    marker = marker_issue(actor=pit_boss, marker=marker)
    shift_close(actor=pit_boss, shift=settled.shift)
    for counter in ("carl_count", "cleo_count"):
        drop_count_record(
            actor=make_user(counter, Role.COUNT_TEAM),
            table=settled.table,
            shift=settled.shift,
            cash={2000: 2},
            markers_cents=10_000,
            promo_cents=0,
        )
    marker_redeem(actor=make_user("kim_cage", Role.CAGE_CASHIER), marker=marker, method="cash")
    # The poker room: a tournament's payments and its seat draw.
    tournament = tournament_create(actor=pit_boss, template_key="msop_turbo", buy_in_cents=2000, fee_cents=500)
    for name in ("Anna", "Ben"):
        entry_register(actor=pit_boss, tournament=tournament, name=name)
    tournament_start(actor=pit_boss, tournament=tournament)
    # A deal at its final table (the row only: the trigger is what is tried here).
    Deal.objects.create(
        tournament=tournament,
        method=Deal.Method.CHIP_CHOP,
        stacks={"1": 3000, "2": 3000},
        prizes_left=[3000, 1000],
        amounts={"1": 2000, "2": 2000},
        actor=pit_boss,
    )
    # The house's wager against a player bank (the row only, as the deal's).
    HouseWager.objects.create(round=settled, amount_cents=2500, last_wager=Wager.objects.filter(round=settled).first())
    # A game-math lab run taken, and its first chunk played.
    run = lab_run_start(
        actor=pit_boss, rule_set=rule_set_default(game=PAIGOW_POKER), hands=10_000, seed=1, request_key="attacks"
    )
    lab_run_play(run_id=run.pk)
    lab_chunk_play(run_id=run.pk, index=0)
    audit_checkpoint_make(reason="shift closed")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {q(table)}")
        before = cursor.fetchone()[0]
    for sql in (f"UPDATE {q(table)} SET id = id", f"DELETE FROM {q(table)}"):
        message = database_refuses(sql)
        assert "permission denied" in message or "append-only" in message or "Cannot" in message, message
    if connection.vendor == "postgresql":
        message = database_refuses(f"TRUNCATE {q(table)} CASCADE")
        assert "permission denied" in message or "Cannot truncate" in message, message
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {q(table)}")
        assert cursor.fetchone()[0] == before


@pytest.mark.django_db
def test_the_ledger_attacks_of_the_issue_are_refused_as_the_application(settled) -> None:
    posting = settlement_of(settled)
    assert database_refuses(f"UPDATE {q(W)} SET amount_cents = amount_cents * 100 WHERE round_id = %s", [settled.pk])
    assert database_refuses(
        f"UPDATE {q(LE)} SET amount_cents = amount_cents + 99900 WHERE posting_id = %s", [posting.pk]
    )
    assert database_refuses(f"DELETE FROM {q(AE)} WHERE seq = (SELECT MAX(seq) FROM {q(AE)})")
    assert Wager.objects.filter(round=settled).order_by("seat__number").first().amount_cents == 2500


@pytest.mark.django_db
def test_a_rounds_frozen_rules_and_a_settled_rounds_state_are_refused_as_the_application(settled) -> None:
    r = q(Round._meta.db_table)
    database_refuses(f"UPDATE {r} SET bank_cents = 1 WHERE id = %s", [settled.pk])
    database_refuses(f"UPDATE {r} SET number = number + 100 WHERE id = %s", [settled.pk])
    database_refuses(f"UPDATE {r} SET state = 'revealed' WHERE id = %s", [settled.pk])
    database_refuses(f"UPDATE {r} SET action_order = %s WHERE id = %s", ["[2, 1, 3, 4, 5, 6, 7]", settled.pk])
    database_refuses(f"UPDATE {r} SET dice = %s WHERE id = %s", ["[6, 6, 6]", settled.pk])
    database_refuses(f"DELETE FROM {r} WHERE id = %s", [settled.pk])
    assert Round.objects.get(pk=settled.pk).state == "settled"


@pytest.mark.django_db
def test_the_application_role_cannot_switch_the_guards_off() -> None:
    if connection.vendor != "postgresql" or not APP_ROLE:
        pytest.skip("the application's role exists in the PostgreSQL CI pass")
    audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", 1))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT array_agg(tgname::text) FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal", [AE]
        )
        names = cursor.fetchone()[0]
    assert names, "the audit table has its triggers"
    for sql in (
        f"ALTER TABLE {q(AE)} DISABLE TRIGGER ALL",
        f"DROP TRIGGER {q(names[0])} ON {q(AE)}",
        "SET session_replication_role = replica",
        f"CREATE TABLE {q('evil')} (id int)",
        "CREATE FUNCTION public.evil() RETURNS int AS 'SELECT 1' LANGUAGE sql",
        f"ALTER TABLE {q(AE)} OWNER TO CURRENT_USER",
    ):
        database_refuses(sql)
    # pgtrigger's own bypass (a session setting naming the triggers) does not lift the role's missing privilege.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('pgtrigger.ignore', %s, true)", ["{" + ",".join(names) + "}"])
        database_refuses(f"UPDATE {q(AE)} SET reason = 'x'")


@pytest.mark.django_db(transaction=True)
def test_logged_in_as_the_application_role_nothing_can_be_changed(settled) -> None:
    """A real login as the role (not the suite's SET ROLE), on committed rows."""
    if connection.vendor != "postgresql" or not APP_ROLE:
        pytest.skip("the application's role exists in the PostgreSQL CI pass")
    import psycopg

    params = connection.get_connection_params()
    params.pop("options", None)
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    params["user"] = APP_ROLE
    with psycopg.connect(**{k: v for k, v in params.items() if k in ("host", "port", "dbname", "user")}) as login:
        assert login.execute("SELECT session_user").fetchone()[0] == APP_ROLE
        for sql in (
            f"UPDATE {q(W)} SET amount_cents = 1",
            f"DELETE FROM {q(AE)}",
            f"TRUNCATE {q(LE)}",
            "SET ROLE postgres",
            "SET session_replication_role = replica",
        ):
            with pytest.raises((psycopg.errors.InsufficientPrivilege, psycopg.errors.InvalidParameterValue)):
                login.execute(sql)
            login.rollback()
    assert Wager.objects.filter(amount_cents=1).count() == 0


# --- a superuser with the database, not the key: reported by the verify commands ------------------


@pytest.mark.django_db
def test_deleting_the_last_event_or_the_last_500_is_reported_against_the_checkpoint(settled, checkpoint_now) -> None:
    for n in range(520):
        audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", n))
    checkpoint = checkpoint_now()
    last, size = checkpoint.seq, checkpoint.tree_size
    tamper(f"DELETE FROM {q(AE)} WHERE seq = %s", [last])
    message = verify_audit_fails()
    assert f"Event #{last} was removed: leaf #{size} of the audit log still holds it." in message
    # The last 500 events removed, and their leaves with them: the tree is shorter than the head signed.
    tamper(f"DELETE FROM {q(AE)} WHERE seq IN (SELECT event_seq FROM {q(LEAF)} WHERE position >= %s)", [size - 500])
    tamper(f"DELETE FROM {q(LEAF)} WHERE position >= %s", [size - 500])
    message = verify_audit_fails()
    assert f"The audit log ends at leaf #{size - 500}, but checkpoint" in message
    assert f"leaves #{size - 499} to #{size} were removed" in message


@pytest.mark.django_db
def test_the_same_deletion_with_the_checkpoints_deleted_too_is_caught_by_the_checkpoint_file(
    settled, checkpoint_now
) -> None:
    checkpoint = checkpoint_now()
    tamper(f"DELETE FROM {q(AuditCheckpoint._meta.db_table)}")
    tamper(f"DELETE FROM {q(AE)} WHERE seq = %s", [checkpoint.seq])
    tamper(f"DELETE FROM {q(LEAF)} WHERE event_seq = %s", [checkpoint.seq])
    message = verify_audit_fails()
    assert "is missing from the database's checkpoints" in message
    assert f"leaves #{checkpoint.tree_size} to #{checkpoint.tree_size} were removed" in message
    assert "audit-checkpoints.jsonl, line 1" in message


@pytest.mark.django_db
def test_editing_an_event_and_recomputing_every_hash_after_it_without_the_key_is_named(settled) -> None:
    """The attack that passed before: edit, then re-chain with plain SHA-256 (or any key but the real one)."""
    events = list(AuditEvent.objects.order_by("seq"))
    target = events[3]
    from django.test import override_settings

    with override_settings(TABLESIDE_AUDIT_KEYS={target.key_id: "a guessed key, not the real one, 40 chars"}):
        rechain(events[3:], reason="nothing happened here")
    message = verify_audit_fails()
    assert f"event #{target.seq} (id {target.pk}" in message and "does not match its content" in message


@pytest.mark.django_db
def test_rewriting_the_chain_as_unkeyed_events_is_named(settled) -> None:
    events = list(AuditEvent.objects.order_by("seq"))
    target = events[-1]
    target.key_id = ""
    target.hash = event_hash(prev_hash=target.prev_hash, event=target)
    tamper(f"UPDATE {q(AE)} SET key_id = '', hash = %s WHERE id = %s", [target.hash, target.pk])
    assert "written without the audit key" in verify_audit_fails()


@pytest.mark.django_db
def test_rewriting_the_whole_chain_unkeyed_with_no_checkpoint_anywhere_is_named(settled, settings) -> None:
    """Every event stripped of its key and hashed again with plain SHA-256: no event may be unkeyed after
    TABLESIDE_AUDIT_UNKEYED_UNTIL (0 here: this floor was keyed from its first event), a number outside
    the database."""
    events = list(AuditEvent.objects.order_by("seq"))
    for event in events:
        event.key_id = ""
    rechain(events, reason=events[0].reason)
    tamper(f"UPDATE {q(AE)} SET key_id = ''")
    tamper(f"DELETE FROM {q(AuditCheckpoint._meta.db_table)}")
    settings.TABLESIDE_AUDIT_CHECKPOINT_FILE = ""
    message = verify_audit_fails()
    assert f"event #{events[0].seq} (id {events[0].pk}" in message and "written without the audit key" in message


@pytest.mark.django_db
def test_resigning_the_chain_with_a_retired_key_is_named(settled, settings) -> None:
    """A retired key (kept to verify the events it signed) never signs an event after a newer key did."""
    current = settings.TABLESIDE_AUDIT_KEYS
    retired = {"old": "r" * 40}
    settings.TABLESIDE_AUDIT_KEYS = {**current, **retired}
    events = list(AuditEvent.objects.order_by("seq"))
    settings.TABLESIDE_AUDIT_KEYS = retired  # the forger holds only the retired key
    for event in events[-3:]:
        event.key_id = "old"
    rechain(events[-3:], reason="re-signed")
    tamper(f"UPDATE {q(AE)} SET key_id = 'old' WHERE seq >= %s", [events[-3].seq])
    settings.TABLESIDE_AUDIT_KEYS = {**current, **retired}
    message = verify_audit_fails()
    assert f"event #{events[-3].seq} " in message and "older than a key an earlier event used" in message


@pytest.mark.django_db
def test_reordering_two_events_is_named(settled, checkpoint_now) -> None:
    checkpoint_now()  # the sequencer has folded them into the tree, as it does within seconds
    a, b = AuditEvent.objects.order_by("seq")[2:4]
    tamper(f"UPDATE {q(AE)} SET seq = 999999999 WHERE id = %s", [a.pk])
    tamper(f"UPDATE {q(AE)} SET seq = %s WHERE id = %s", [a.seq, b.pk])
    tamper(f"UPDATE {q(AE)} SET seq = %s WHERE id = %s", [b.seq, a.pk])
    message = verify_audit_fails()
    assert f"Event #{a.seq} is not the event leaf" in message and f"Event #{b.seq} is not the event leaf" in message


@pytest.mark.django_db
def test_a_balanced_edit_of_a_settlements_entries_is_named_by_verify_ledger(settled) -> None:
    posting = settlement_of(settled)
    player = LedgerEntry.objects.filter(posting=posting, account="player").order_by("pk").first()
    house = LedgerEntry.objects.filter(posting=posting, account="house").order_by("pk").first()
    tamper(f"UPDATE {q(LE)} SET amount_cents = amount_cents + 99900 WHERE id = %s", [player.pk])
    tamper(f"UPDATE {q(LE)} SET amount_cents = amount_cents - 99900 WHERE id = %s", [house.pk])
    call_command("verify_audit")  # the chain itself is untouched
    message = verify_ledger_fails()
    assert f"posting {posting.pk} on round {settled.number} at table PGP-1" in message
    assert "does not hold the entries audit event" in message
    assert f"round id {settled.pk}" in verify_ledger_fails("--replay")


@pytest.mark.django_db
def test_hands_and_entries_edited_together_are_named_by_the_hands_their_event_recorded(settled) -> None:
    """The replay recomputes a settlement from its stored hands: change both consistently, and the audit event
    that recorded the hands settled still disagrees."""
    posting = settlement_of(settled)
    hands = posting.hands
    hands["seats"]["2"]["note"] = "rewritten"
    tamper(f"UPDATE {q(P)} SET hands = %s WHERE id = %s", [json.dumps(hands), posting.pk])
    message = verify_ledger_fails()
    assert f"Settlement posting {posting.pk} on round {settled.number} at table PGP-1" in message
    assert "does not hold the hands audit event" in message


@pytest.mark.django_db
def test_a_wager_multiplied_by_100_on_a_settled_round_is_named(settled) -> None:
    tamper(f"UPDATE {q(W)} SET amount_cents = amount_cents * 100 WHERE round_id = %s", [settled.pk])
    message = verify_ledger_fails()
    assert "holds 250000 cents, but audit event" in message and "recorded 2500 cents taken" in message
    assert f"round id {settled.pk}" in verify_ledger_fails("--replay")


@pytest.mark.django_db
def test_swapping_two_postings_entries_is_named(two_settled) -> None:
    first, second = (settlement_of(r) for r in two_settled)
    tamper(f"UPDATE {q(LE)} SET posting_id = -1 WHERE posting_id = %s", [first.pk])
    tamper(f"UPDATE {q(LE)} SET posting_id = %s WHERE posting_id = %s", [first.pk, second.pk])
    tamper(f"UPDATE {q(LE)} SET posting_id = %s WHERE posting_id = -1", [second.pk])
    message = verify_ledger_fails()
    assert f"posting {first.pk} " in message and f"posting {second.pk} " in message


@pytest.mark.django_db
def test_moving_one_entry_to_another_posting_is_named(two_settled) -> None:
    first, second = (settlement_of(r) for r in two_settled)
    entry = LedgerEntry.objects.filter(posting=first).order_by("pk").first()
    tamper(f"UPDATE {q(LE)} SET posting_id = %s WHERE id = %s", [second.pk, entry.pk])
    message = verify_ledger_fails()
    assert f"Posting {first.pk} (settlement)" in message and "does not balance" in message
    assert f"posting {second.pk} " in message


@pytest.mark.django_db
def test_a_forged_balanced_posting_is_named(settled, dealer) -> None:
    from ledger.lines import Line
    from ledger.sql import ledger_insert

    forged = Posting(round_id=settled.pk, kind=Posting.Kind.SETTLEMENT, actor=dealer, idempotency_key="forged")
    seat = settled.table.seats.get(number=1)
    with guards_off():
        lines = [Line("player", 1, 99900, "payout"), Line("house", None, -99900, "payout")]
        ledger_insert(forged, lines=lines, seat_ids={1: seat.pk})
    message = verify_ledger_fails()
    assert f"posting {forged.pk} " in message and "has no audit event" in message


@pytest.mark.django_db
def test_a_removed_settlement_is_named_by_its_audit_event(settled) -> None:
    posting = settlement_of(settled)
    tamper(f"DELETE FROM {q(LE)} WHERE posting_id = %s", [posting.pk])
    tamper(f"DELETE FROM {q(HoldRound._meta.db_table)} WHERE posting_id = %s", [posting.pk])  # the table's hold row
    tamper(f"DELETE FROM {q(P)} WHERE id = %s", [posting.pk])
    message = verify_ledger_fails()
    assert f"settlement posting {posting.pk}, which the ledger no longer holds" in message


# --- someone with the database and the key: the checkpoints outside the database ------------------


@pytest.mark.django_db
def test_a_chain_rewritten_with_the_key_is_caught_by_the_reports_checkpoint(
    settled, checkpoint_now, settings, tmp_path
) -> None:
    checkpoint = checkpoint_now()
    printed = checkpoint_record(checkpoint)
    events = list(AuditEvent.objects.order_by("seq"))
    rechain(events[4:], reason="rewritten")  # with the real key: every hash holds
    tamper(f"DELETE FROM {q(AuditCheckpoint._meta.db_table)}")
    settings.TABLESIDE_AUDIT_CHECKPOINT_FILE = str(tmp_path / "elsewhere.jsonl")  # the file gone too
    call_command("verify_audit")  # nothing left in the building disagrees...
    message = verify_audit_fails("--checkpoint", checkpoint_text(printed))  # ...but the report's checkpoint does
    assert f"Checkpoint of {checkpoint.tree_size} leaves (--checkpoint" in message
    assert f"signs a root the log's first {checkpoint.tree_size} leaves do not give" in message


@pytest.mark.django_db
def test_a_forged_checkpoint_is_named(settled, checkpoint_now, settings) -> None:
    checkpoint = checkpoint_now()
    record = checkpoint_record(checkpoint)
    with open(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({**record, "seq": record["seq"] + 5}) + "\n")
    assert "has a signature that does not match: it was forged or altered" in verify_audit_fails()


# --- the next attacks (a second auditor's run): each refused or named -----------------------------


def app_insert(sql: str, params: list[object]) -> None:
    """An INSERT the application's role may send (it writes these tables)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.django_db
def test_a_forged_posting_or_wager_with_a_negative_id_is_not_taken_for_one_from_before_the_audit(
    settled, dealer
) -> None:
    seat = settled.table.seats.get(number=3)
    app_insert(
        f"INSERT INTO {q(P)} (id, round_id, kind, actor_id, created_at, reason) VALUES (-1, %s, 'settlement', %s, "
        "CURRENT_TIMESTAMP, '')",
        [settled.pk, dealer.pk],
    )
    app_insert(
        f"INSERT INTO {q(W)} (id, round_id, seat_id, amount_cents, placed_by_id, placed_at) "
        "VALUES (-1, %s, %s, 500, %s, CURRENT_TIMESTAMP)",
        [settled.pk, seat.pk, dealer.pk],
    )
    message = verify_ledger_fails()
    assert "Settlement posting -1 " in message and "has no audit event" in message
    assert "(wager id -1) has no audit event" in message


@pytest.mark.django_db
def test_rows_from_before_money_was_audited_are_told_apart_by_the_chains_own_record(settled) -> None:
    """The migration that began auditing money records, in the chain, the last ids written before."""
    import importlib

    from django.apps import apps

    from settlement.verify import ledger_audit_began

    assert ledger_audit_began() == (0, 0)  # this floor was audited from its first posting
    migration = importlib.import_module("settlement.migrations.0007_ledger_audit_began")

    class Models:  # the migration's models as they stand today (moved to the ledger and the rounds apps since)
        def get_model(self, app: str, name: str) -> object:
            return {"Posting": Posting, "Wager": Wager}.get(name) or apps.get_model(app, name)

    migration.record(Models(), None)
    last_posting = Posting.objects.order_by("-pk").first().pk
    assert ledger_audit_began() == (last_posting, Wager.objects.order_by("-pk").first().pk)
    call_command("verify_audit")  # the record is a keyed link of the chain like any other


@pytest.mark.django_db
def test_hands_swapped_between_the_reveal_and_the_settle_are_named(shift, pgp_table, play_to_hands, dealer) -> None:
    from tests.settlement.conftest import PUSHES

    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": LOSES}})
    hands = Round.objects.get(pk=round_.pk).hands
    hands["seats"]["1"] = {**hands["seats"]["1"], **PUSHES}
    with connection.cursor() as cursor:  # the application's role may UPDATE a round's hands
        cursor.execute(f"UPDATE {q(Round._meta.db_table)} SET hands = %s WHERE id = %s", [json.dumps(hands), round_.pk])
    settle_round(round=round_, actor=dealer, idempotency_key="swapped")
    message = verify_ledger_fails()
    assert f"Round id {round_.pk} was changed outside Tableside's services between audit events" in message
    assert ": hands." in message


@pytest.mark.django_db
def test_a_round_voided_or_moved_to_another_shift_by_sql_is_named(pgp_table, play_to_hands, settled, pit_boss) -> None:
    from django.utils import timezone

    from casino.models import Shift

    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": LOSES}})
    now = timezone.now()
    other = Shift.objects.create(
        gaming_day=settled.shift.gaming_day, number=9, name="Ghost", opened_at=now, opened_by=pit_boss,
        closed_at=now, closed_by=pit_boss,
    )  # fmt: skip
    r = q(Round._meta.db_table)
    with connection.cursor() as cursor:  # both are columns the application's role may UPDATE
        cursor.execute(f"UPDATE {r} SET state = 'voided' WHERE id = %s", [round_.pk])
        cursor.execute(f"UPDATE {r} SET shift_id = %s WHERE id = %s", [other.pk, settled.pk])
    message = verify_ledger_fails()
    assert f"(round id {round_.pk}) is not as its last audit event" in message and "state differ" in message
    assert f"(round id {settled.pk}) is not as its last audit event" in message and "shift differ" in message


@pytest.mark.django_db
def test_a_request_and_a_seat_cannot_be_edited_by_the_application(settled, dealer, floor_supervisor) -> None:
    from settlement.services import adjustment_request
    from tests.settlement.conftest import PUSHES

    request = adjustment_request(
        actor=dealer,
        round=settled,
        kind="correction",
        reason="Seat 2's hand was misread",
        hands={"banker": BANK, "seats": {"1": WINS, "2": PUSHES}},
    )
    a, s = q("settlement_adjustment"), q("tables_seat")
    database_refuses(f"UPDATE {a} SET requested_by_id = %s WHERE id = %s", [floor_supervisor.pk, request.pk])
    database_refuses(f"UPDATE {a} SET hands = %s WHERE id = %s", ['{"seats": {}}', request.pk])
    database_refuses(f"DELETE FROM {a} WHERE id = %s", [request.pk])
    database_refuses(f"UPDATE {s} SET number = number + 10 WHERE table_id = %s", [settled.table_id])


@pytest.mark.django_db
def test_pgtriggers_escape_hatch_does_not_lift_a_rounds_guard(settled) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL setting")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT array_agg(tgname::text) FROM pg_trigger WHERE tgrelid = 'tables_round'::regclass "
            "AND NOT tgisinternal"
        )
        names = cursor.fetchone()[0]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('pgtrigger.ignore', %s, true)", ["{" + ",".join(names) + "}"])
        # state is a column the role may UPDATE: only the trigger stands between it and a settled round reopened
        message = database_refuses(
            f"UPDATE {q(Round._meta.db_table)} SET state = 'revealed' WHERE id = %s", [settled.pk]
        )
    assert "Cannot update" in message
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('pgtrigger.ignore', %s, true)", ["{" + ",".join(names) + "}"])
        message = database_refuses(f"UPDATE {q(Round._meta.db_table)} SET bank_cents = 1 WHERE id = %s", [settled.pk])
    assert "permission denied" in message or "Cannot update" in message  # a frozen column: no privilege either


@pytest.mark.django_db
def test_sqlites_insert_or_replace_is_refused_like_a_delete(settled) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's REPLACE")
    wager = Wager.objects.filter(round=settled).order_by("pk").first()
    database_refuses(
        f"INSERT OR REPLACE INTO {q(W)} (id, round_id, seat_id, amount_cents, placed_by_id, placed_at) "
        "VALUES (%s, %s, %s, 250000, NULL, CURRENT_TIMESTAMP)",
        [wager.pk, settled.pk, wager.seat_id],
    )


@pytest.mark.django_db
def test_wagers_moved_or_removed_and_postings_given_another_actor_are_named(settled, pit_boss) -> None:
    first, second = Wager.objects.filter(round=settled).order_by("pk")
    tamper(f"UPDATE {q(W)} SET seat_id = %s WHERE id = %s", [settled.table.seats.get(number=3).pk, first.pk])
    posting = settlement_of(settled)
    tamper(f"UPDATE {q(P)} SET actor_id = %s WHERE id = %s", [pit_boss.pk, posting.pk])
    message = verify_ledger_fails()
    assert f"(wager id {first.pk}) is not where audit event" in message
    assert f"Settlement posting {posting.pk} " in message and "names another actor" in message
    tamper(f"DELETE FROM {q(W)} WHERE id = %s", [second.pk])
    assert f"recorded wager id {second.pk} taken, which the ledger no longer holds" in verify_ledger_fails()


@pytest.mark.django_db
def test_one_junk_event_does_not_hide_a_later_edit(settled) -> None:
    last = AuditEvent.objects.order_by("-seq").first()
    app_insert(
        f"INSERT INTO {q(AE)} (seq, occurred_at, actor_name, event_type, subject_type, subject_id, reason, "
        "prev_hash, hash, key_id) VALUES (%s, CURRENT_TIMESTAMP, 'x', 'x', 'x', '1', '', %s, %s, '')",
        [last.seq + 1, last.hash, "f" * 64],
    )
    edited = AuditEvent.objects.order_by("seq")[2]
    tamper(f"UPDATE {q(AE)} SET reason = 'later edit' WHERE id = %s", [edited.pk])
    message = verify_audit_fails()
    assert f"event #{edited.seq} (id {edited.pk}" in message and f"event #{last.seq + 1} " in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    "after",
    [{"money": [1]}, {"money": "x"}, {"postings": [{"id": "abc"}]}, {"postings": [{"id": 1, "lines": [5]}]}],
)
def test_a_money_event_not_written_as_tableside_writes_it_is_named_not_a_crash(settled, after) -> None:
    event = AuditEvent.objects.filter(event_type="round.settled").get()
    tamper(f"UPDATE {q(AE)} SET after = %s WHERE id = %s", [json.dumps(after), event.pk])
    message = verify_ledger_fails()
    assert f"Audit event #{event.seq} (round.settled) does not record its money as Tableside writes it" in message


@pytest.mark.django_db
def test_malformed_checkpoint_lines_and_stored_rules_are_named_not_a_crash(settled, settings) -> None:
    with open(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"seq": 3, "head_hash": "a" * 64}) + "\n")
        handle.write(json.dumps({"seq": 3, "head_hash": "a" * 64, "made_at": "x", "key_id": ["k"], "signature": "s"}))
    message = verify_audit_fails()
    assert "line 1 of" in message and "line 2 of" in message and "is not a checkpoint" in message
    tamper(f"UPDATE {q(Round._meta.db_table)} SET rule_set_snapshot = '[]' WHERE id = %s", [settled.pk])
    assert "cannot be checked" in verify_ledger_fails("--replay")


@pytest.mark.django_db
def test_rules_changed_in_the_database_before_a_round_opens_are_named(shift, pgp_table, play_to_hands, dealer) -> None:
    """The application's role may UPDATE a rule set (its services change one, with an audit event): a commission
    changed by SQL is frozen on the next round, which then settles with it; no audit event recorded those rules."""
    tamper(f"UPDATE {q('rules_ruleset')} SET commission_rate_bp = 0 WHERE id = %s", [pgp_table.rule_set_id])
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    settle_round(round=round_, actor=dealer, idempotency_key="no-commission")
    message = verify_ledger_fails()
    assert f"(round id {round_.pk}) was played under rules no audit event recorded" in message
