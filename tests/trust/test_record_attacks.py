"""Attacks on every audited record, generated from the registry (``casino.records``): for every registered model, each
field of its snapshot changed, a row deleted and a row inserted, as a superuser past the triggers and the role
(``tests.guards``), each on the floor of ``tests/trust/floor.py`` and each undone before the next. ``verify_audit``'s
record check (``casino.verify.records_verify``) must name every one: the row, and for an edit the field.

Then the edits an auditor found unseen before the registry, one by one, each with the whole verifier.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, models, transaction

from casino.records import Registered, registered
from casino.verify import records_verify
from tests.guards import guards_off

pytestmark = pytest.mark.django_db


@contextmanager
def undone() -> Iterator[None]:
    """Whatever happens inside is rolled back (a savepoint), so the next attack meets the floor as it was."""
    try:
        with transaction.atomic():
            yield
            raise _Undo
    except _Undo:
        pass


class _Undo(Exception):
    pass


def _changed(field: models.Field[Any, Any], value: Any, attempt: int) -> Any:
    """Another value for ``field`` than ``value`` (the ``attempt``-th try: a database check may refuse the first)."""
    step = attempt + 1
    if isinstance(field, models.ForeignKey):
        return (value or 0) + 1_000_000 * step
    if isinstance(field, models.BooleanField):
        return not value
    if isinstance(field, models.DateTimeField):
        return (value or dt.datetime(2030, 1, 1, tzinfo=dt.UTC)) + dt.timedelta(seconds=97 * step)
    if isinstance(field, models.DateField):
        return (value or dt.date(2030, 1, 1)) + dt.timedelta(days=step)
    if isinstance(field, models.JSONField):
        return {"changed": step} if not isinstance(value, dict) or "changed" in value else {**value, "changed": step}
    if isinstance(field, models.DecimalField):
        return (value or decimal.Decimal(0)) + step
    if isinstance(field, models.FloatField):
        return (value or 0.0) + 0.5 * step
    if isinstance(field, models.IntegerField):
        if attempt == 2:  # clear of the values a unique index holds nearby
            return (value or 0) + 1000
        return (value or 0) + step if attempt % 2 == 0 else max((value or 0) - step, 0) or step + 1
    if isinstance(field, models.CharField | models.TextField):
        text = value or ""
        most = getattr(field, "max_length", None) or len(text) + 1
        return (text + "Z" * step)[-most:] if text else "Z" * min(step, most)
    raise TypeError(f"no change made for {field!r}")


@dataclass
class Tally:
    attacks: int = 0
    named: int = 0
    refused: int = 0
    missed: list[str] | None = None
    refusals: list[str] | None = None

    def note(self, what: str, found: list[str], needle: str) -> None:
        self.attacks += 1
        if any(needle in line for line in found):
            self.named += 1
        else:
            assert self.missed is not None
            self.missed.append(f"{what}: not named (found: {found[:3]})")


def _target(entry: Registered) -> Any:
    """The row to attack: the one with the most fields set."""
    rows = list(entry.model._base_manager.order_by("pk")[:50])
    return max(rows, key=lambda row: sum(getattr(row, name) not in (None, "", [], {}) for name in entry.fields))


def _edit(entry: Registered, row: Any, attname: str, tally: Tally) -> None:
    field = entry.field(attname)
    for attempt in range(3):
        new = _changed(field, getattr(row, attname), attempt)
        try:
            with undone(), guards_off():
                entry.model._base_manager.filter(pk=row.pk).update(**{attname: new})
                found = records_verify(only=[entry.model]).problems
                tally.note(
                    f"{entry.label} #{row.pk} {attname}", found, f"{entry.label} #{row.pk}: {field.verbose_name} "
                )
            return
        except DatabaseError:  # a check or a unique index refused this value: another one
            continue
    tally.attacks += 1
    tally.refused += 1  # the database itself refused every change tried
    assert tally.refusals is not None
    tally.refusals.append(f"{entry.label}.{attname}")


def _delete(entry: Registered, row: Any, tally: Tally) -> None:
    table, pk = connection.ops.quote_name(entry.model._meta.db_table), connection.ops.quote_name("id")
    with undone(), guards_off(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE {pk} = %s", [row.pk])
        found = records_verify(only=[entry.model]).problems
    tally.note(f"{entry.label} #{row.pk} deleted", found, f"{entry.label} #{row.pk} was removed; its audit event #")


def _insert(entry: Registered, row: Any, tally: Tally) -> None:
    """A copy of the row under a new id, its unique fields changed where the database asks for it."""
    for attempt in range(3):
        values = {name: getattr(row, name) for name in entry.fields}
        if attempt:
            for name in entry.fields:
                field = entry.field(name)
                if field.unique or any(name in {f for f in u} for u in _unique_sets(entry.model)):
                    values[name] = _changed(field, values[name], attempt)
        try:
            with undone(), guards_off():
                copy = entry.model._base_manager.bulk_create([entry.model(**values)])[0]
                pk = copy.pk or entry.model._base_manager.order_by("-pk").values_list("pk", flat=True)[0]
                found = records_verify(only=[entry.model]).problems
                tally.note(f"{entry.label} inserted", found, f"{entry.label} #{pk} has no audit event")
            return
        except DatabaseError:
            continue
    tally.attacks += 1
    tally.refused += 1
    assert tally.refusals is not None
    tally.refusals.append(f"{entry.label} inserted")


def _unique_sets(model: type[models.Model]) -> list[set[str]]:
    sets = [set(names) for names in model._meta.unique_together]
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint):
            fields = {model._meta.get_field(name).attname for name in constraint.fields}
            sets.append(fields)
    return sets


def test_every_field_deletion_and_insertion_of_every_audited_record_is_named(every_record: Any) -> None:
    assert records_verify().ok, "the floor starts as its events wrote it"
    tally = Tally(missed=[], refusals=[])
    models_attacked = 0
    for entry in registered():
        row = _target(entry)
        models_attacked += 1
        for attname in entry.fields:
            _edit(entry, row, attname, tally)
        _delete(entry, row, tally)
        _insert(entry, row, tally)
    fields = sum(len(entry.fields) for entry in registered())
    print(
        f"\n{models_attacked} audited records, {fields} fields: {tally.attacks} attacks ({fields} edits, "
        f"{models_attacked} deletions, {models_attacked} insertions); named {tally.named}, refused by the database "
        f"{tally.refused} ({', '.join(tally.refusals or [])})"
    )
    assert tally.missed == []
    assert tally.attacks == fields + 2 * models_attacked
    assert records_verify().ok, "every attack was undone"


# --- the edits an auditor found unseen, each with the whole verifier ----------------------------------------------


def _verify_audit_names(*expected: str) -> str:
    with pytest.raises(CommandError) as failure:
        call_command("verify_audit")
    message = str(failure.value)
    for text in expected:
        assert text in message, message
    return message


def _sql(statement: str, params: list[Any]) -> None:
    with guards_off(), connection.cursor() as cursor:
        cursor.execute(statement, params)


def _table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _one(model_path: str, **lookup: Any) -> Any:
    from django.apps import apps

    model = apps.get_model(model_path)
    row = model._base_manager.filter(**lookup).order_by("pk").first()
    assert row is not None, f"the floor has a {model_path} with {lookup}"
    return row


Attack = Callable[[], tuple[str, ...]]


def _deal_deleted() -> tuple[str, ...]:
    deal = _one("poker_room.Deal")
    _sql(f"DELETE FROM {_table(type(deal))} WHERE id = %s", [deal.pk])
    return (f"Deal #{deal.pk} was removed; its audit event #",)


def _bust_deleted_and_entry_back_in_play() -> tuple[str, ...]:
    bust = _one("poker_room.Elimination", status="in_force")
    _sql(f"DELETE FROM {_table(type(bust))} WHERE id = %s", [bust.pk])
    entry = bust.entry
    _sql(f"UPDATE {_table(type(entry))} SET status = 'active', place = NULL WHERE id = %s", [entry.pk])
    return (f"#{bust.pk} was removed; its audit event #", f"#{entry.pk}: status is active")


def _places_swapped() -> tuple[str, ...]:
    first = _one("poker_room.Entry", place=1)
    second = _one("poker_room.Entry", tournament_id=first.tournament_id, place=2)
    table = _table(type(first))
    for entry, place in ((first, None), (second, 1), (first, 2)):  # one at a time: a place is held by one entry
        _sql(f"UPDATE {table} SET place = %s WHERE id = %s", [place, entry.pk])
    return (f"#{first.pk}: place is 2", f"#{second.pk}: place is 1")


def _finished_payouts_changed() -> tuple[str, ...]:
    event = _one("poker_room.Tournament", status="finished")
    _sql(f"UPDATE {_table(type(event))} SET payouts = %s WHERE id = %s", ['[{"places": 1, "percent": 100}]', event.pk])
    return (f"#{event.pk}: payout table is",)


def _finished_buy_in_changed() -> tuple[str, ...]:
    event = _one("poker_room.Tournament", status="finished")
    _sql(f"UPDATE {_table(type(event))} SET buy_in_cents = buy_in_cents * 10 WHERE id = %s", [event.pk])
    return (f"#{event.pk}: buy-in to the prize pool (cents) is",)


def _clock_moved() -> tuple[str, ...]:
    event = _one("poker_room.Tournament", status="running")
    _sql(f"UPDATE {_table(type(event))} SET clock_level = clock_level + 3 WHERE id = %s", [event.pk])
    return (f"#{event.pk}: clock level (index) is",)


def _league_formula_changed() -> tuple[str, ...]:
    league = _one("poker_room.League")
    _sql(f"UPDATE {_table(type(league))} SET best_of = best_of + 5 WHERE id = %s", [league.pk])
    return (f"#{league.pk}: ",)


def _league_event_removed() -> tuple[str, ...]:
    event = _one("poker_room.LeagueEvent")
    _sql(f"DELETE FROM {_table(type(event))} WHERE id = %s", [event.pk])
    return (f"#{event.pk} was removed; its audit event #",)


def _rated_row_deleted_with_its_sums() -> tuple[str, ...]:
    row = _one("players.RatedRound", rounds=1)
    session = type(row.session)
    _sql(f"DELETE FROM {_table(type(row))} WHERE id = %s", [row.pk])
    _sql(
        f"UPDATE {_table(session)} SET rounds = rounds - 1, wagered_cents = wagered_cents - %s, "
        "win_loss_cents = win_loss_cents - %s, theo_millicents = theo_millicents - %s, "
        "variance_cents2 = variance_cents2 - %s WHERE id = %s",
        [row.action_cents, row.win_loss_cents, row.theo_millicents, row.variance_cents2, row.session_id],
    )
    return (f"#{row.pk} was removed; its audit event #",)


def _time_played_times_1000() -> tuple[str, ...]:
    session = _one("players.RatingSession", status="ended")
    _sql(f"UPDATE {_table(type(session))} SET seconds_played = seconds_played * 1000 + 1 WHERE id = %s", [session.pk])
    return (f"#{session.pk}: ",)


def _tier_changed() -> tuple[str, ...]:
    player = _one("players.Player")
    _sql(
        f"UPDATE {_table(type(player))} SET tier = %s WHERE id = %s",
        ["Diamond" if player.tier != "Diamond" else "Gold", player.pk],
    )
    return (f"#{player.pk}: tier is",)


def _seat_changed() -> tuple[str, ...]:
    seat = _one("players.RatingSeat")
    _sql(f"UPDATE {_table(type(seat))} SET seat_number = seat_number + 1 WHERE id = %s", [seat.pk])
    return (f"#{seat.pk}: ",)


def _start_time_changed() -> tuple[str, ...]:
    session = _one("players.RatingSession")
    moved = session.started_at - dt.timedelta(hours=3)
    _sql(f"UPDATE {_table(type(session))} SET started_at = %s WHERE id = %s", [moved, session.pk])
    return (f"#{session.pk}: ",)


def _walk_with_changed() -> tuple[str, ...]:
    session = _one("players.RatingSession", walk_with_cents__isnull=False)
    _sql(f"UPDATE {_table(type(session))} SET walk_with_cents = walk_with_cents + 100000 WHERE id = %s", [session.pk])
    return (f"#{session.pk}: ",)


def _tray_closer_deleted() -> tuple[str, ...]:
    closer = _one("tables.TrayCount", kind="closer")
    _sql(f"DELETE FROM {_table(type(closer))} WHERE id = %s", [closer.pk])
    return (f"#{closer.pk} was removed; its audit event #",)


def _buy_in_seat_changed() -> tuple[str, ...]:
    buy_in = _one("tables.BuyIn")
    _sql(f"UPDATE {_table(type(buy_in))} SET seat_number = seat_number + 1 WHERE id = %s", [buy_in.pk])
    return (f"#{buy_in.pk}: ",)


def _unrated_cash_turned_marker() -> tuple[str, ...]:
    from players.models import RatedBuyIn

    rated = set(RatedBuyIn.objects.values_list("buy_in_id", flat=True))
    buy_in = next(b for b in _all("tables.BuyIn", medium="cash") if b.pk not in rated)
    _sql(f"UPDATE {_table(type(buy_in))} SET medium = 'marker' WHERE id = %s", [buy_in.pk])
    return (f"#{buy_in.pk}: ",)


def _slip_sequence_rewound() -> tuple[str, ...]:
    sequence = _one("tables.SlipSequence")
    _sql(f"UPDATE {_table(type(sequence))} SET last_number = 0 WHERE id = %s", [sequence.pk])
    return (f"#{sequence.pk}: ",)


def _purchase_deleted() -> tuple[str, ...]:
    purchase = _one("poker_room.Purchase", kind="rebuy")
    _sql(f"DELETE FROM {_table(type(purchase))} WHERE id = %s", [purchase.pk])
    return (f"#{purchase.pk} was removed; its audit event #",)


def _seat_move_deleted() -> tuple[str, ...]:
    move = _one("poker_room.SeatMove")
    _sql(f"DELETE FROM {_table(type(move))} WHERE id = %s", [move.pk])
    return (f"#{move.pk} was removed; its audit event #",)


def _entry_chips_changed() -> tuple[str, ...]:
    entry = _one("poker_room.Entry", status="active")
    _sql(f"UPDATE {_table(type(entry))} SET chips = chips + 50000 WHERE id = %s", [entry.pk])
    return (f"#{entry.pk}: ",)


def _match_winner_changed() -> tuple[str, ...]:
    match = _one("poker_room.Match", winner__isnull=False)
    loser = match.entry_b_id if match.winner_id == match.entry_a_id else match.entry_a_id
    _sql(f"UPDATE {_table(type(match))} SET winner_id = %s WHERE id = %s", [loser, match.pk])
    return (f"#{match.pk}: ",)


def _ofc_hand_points_changed() -> tuple[str, ...]:
    hand = _one("poker_room.OfcHand")
    _sql(f"UPDATE {_table(type(hand))} SET table_number = table_number + 1 WHERE id = %s", [hand.pk])
    return (f"#{hand.pk}: ",)


def _drop_count_deleted() -> tuple[str, ...]:
    count = _one("tables.DropCount")
    _sql(f"DELETE FROM {_table(type(count))} WHERE id = %s", [count.pk])
    return (f"#{count.pk} was removed; its audit event #",)


def _shift_close_moved() -> tuple[str, ...]:
    shift = _one("casino.Shift", closed_at__isnull=False)
    later = shift.closed_at + dt.timedelta(hours=2)
    _sql(f"UPDATE {_table(type(shift))} SET closed_at = %s WHERE id = %s", [later, shift.pk])
    return (f"Shift #{shift.pk}: closed at is",)


def _all(model_path: str, **lookup: Any) -> list[Any]:
    from django.apps import apps

    return list(apps.get_model(model_path)._base_manager.filter(**lookup).order_by("pk"))


UNSEEN_BEFORE: dict[str, Attack] = {
    "a deal row deleted": _deal_deleted,
    "a bust deleted and the entry put back in play": _bust_deleted_and_entry_back_in_play,
    "the winner's and the runner-up's places swapped": _places_swapped,
    "a finished event's payout table changed": _finished_payouts_changed,
    "a finished event's buy-in changed": _finished_buy_in_changed,
    "the clock moved": _clock_moved,
    "a league's formula changed": _league_formula_changed,
    "an event removed from a league": _league_event_removed,
    "a rated row deleted together with its session's sums": _rated_row_deleted_with_its_sums,
    "time played x1000": _time_played_times_1000,
    "a player's tier changed": _tier_changed,
    "a rated seat changed": _seat_changed,
    "a session's start time changed": _start_time_changed,
    "a session's walk-with changed": _walk_with_changed,
    "a tray closer deleted": _tray_closer_deleted,
    "a buy-in's seat changed": _buy_in_seat_changed,
    "an unrated buy-in turned from cash to marker": _unrated_cash_turned_marker,
    "the slip sequence rewound": _slip_sequence_rewound,
    "a rebuy's purchase deleted": _purchase_deleted,
    "a seat move deleted": _seat_move_deleted,
    "an entry's chips changed": _entry_chips_changed,
    "a match's winner changed": _match_winner_changed,
    "an Open-Face hand moved to another table": _ofc_hand_points_changed,
    "a drop count deleted": _drop_count_deleted,
    "a closed shift's close moved two hours later": _shift_close_moved,
}


@pytest.mark.parametrize("attack", list(UNSEEN_BEFORE), ids=list(UNSEEN_BEFORE))
def test_an_edit_unseen_before_the_registry_is_named_by_verify_audit(every_record: Any, attack: str) -> None:
    call_command("verify_audit")  # the floor verifies
    expected = UNSEEN_BEFORE[attack]()
    _verify_audit_names(*expected)
