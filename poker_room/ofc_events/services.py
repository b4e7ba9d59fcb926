"""Open-Face Chinese Poker points tournaments (GAME_RULES.md §4 and §5): rounds begun and their tables
redrawn, hands entered and scored by the engine, a hand voided, and the finish that places and pays everyone.

The event is scored in points, not chips: ``Entry.chips`` keeps the stack bought, the screens show points. Entries
pay the buy-in and fee as in any tournament; the prize pool is paid by the payout table when the tournament
finishes, by the standings (``poker_room.pure.ofc_standings``: points, then the last round's points, then scoops, then
the fewest fouls, then a lot drawn at the finish and kept in its audit record).

* **A round**: round 1 after the start (the start's seat draw is kept when it already is an Open-Face layout, else
  the tables are redrawn), each later one only when every table has played all its hands. Every player still in
  draws a new seat at random (``SeatMove`` rows, reason ``round_draw``) at tables of at most four (the tournament's
  table size, if smaller); tables missing are added, a broken one reopened.
* **A hand**: entered by the table's dealer or whoever runs the tournament: a finished board (front 3, middle 5,
  back 5 cards) for every player seated at the table, exactly; a card twice on the table is refused naming both
  places; a fouled board is scored as the engine scores it. Numbered in its round at its table, never beyond the
  round's hands.
* **A hand voided**: by whoever runs the tournament, with a reason: only the table's latest hand in force of the
  round being played (its number is entered again).
* **The finish**: after the last round's last hand: the places by the standings, the players out from the last
  place to 2nd through ``eliminations.record_out`` (no reseating), the winner placed by it: the prizes post.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from poker_room.display.live import tournament_changed
from poker_room.floor import (
    Requester,
    entry_name,
    locked_tournament,
    person,
    refuse_finished,
    require_runner,
    require_runner_or_table_dealer,
    said,
    system_rng,
    text,
    whole,
)
from poker_room.ofc_events.models import OfcHand
from poker_room.ofc_events.selectors import (
    hands_in_force,
    is_ofc,
    round_tables,
    tournament_standings,
    unfinished_tables,
)
from poker_room.pure.ofc_standings import MOST_SEATS, ROWS, OfcStandingsError, fits, hand_result, lots_draw, round_draw
from poker_room.pure.seating import Move, MoveReason
from poker_room.tournaments.eliminations import record_out
from poker_room.tournaments.models import Entry, SeatMove, Tournament, TournamentTable
from poker_room.tournaments.seats import MoveRecord, moves_apply
from rules.games.cards import parse_cards
from rules.games.errors import InvalidHand
from rules.games.ofc import ROW_SIZES

MOST_TABLE_NUMBER = 50
MOST_SHOWN = 10_000  # a round or hand number the tablet showed
# A suit typed (or pasted from a screen) as its symbol reads as its letter: "A♠" is "As".
SUIT_LETTERS = str.maketrans({"♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c"})


def _row_name(row: str) -> str:
    return {"front": _("front"), "middle": _("middle"), "back": _("back")}[row]


def _ofc_running(tournament: Tournament) -> None:
    """Refuse unless ``tournament`` is an Open-Face points event under way."""
    refuse_finished(tournament)
    if not is_ofc(tournament):
        raise WrongState(_("%(name)s is not an Open-Face points tournament.") % {"name": tournament.name})
    if tournament.status != Tournament.Status.RUNNING:
        raise WrongState(_("%(name)s has not started: start it first.") % {"name": tournament.name})


def _most(tournament: Tournament) -> int:
    return min(tournament.table_size, MOST_SEATS)


def _refuse_unfinished(tournament: Tournament) -> None:
    open_tables = unfinished_tables(tournament)
    if open_tables:
        table, played = open_tables[0]
        raise WrongState(
            _("Round %(round)s is not over: table %(table)s has played %(played)s of %(hands)s hands.")
            % {"round": tournament.ofc_round, "table": table, "played": played, "hands": tournament.ofc_hands_per_round}
        )


# --- a round --------------------------------------------------------------------------------------------------------


def _tables_ready(tournament: Tournament, count: int, rows: list[models.Model]) -> list[int]:
    """Tables 1..``count`` open: those missing added (the seats of the tournament's tables), a broken one reopened.
    The numbers added or reopened (the tables added to ``rows``)."""
    changed: list[int] = []
    existing = {table.number: table for table in TournamentTable.objects.filter(tournament=tournament)}
    for number in range(1, count + 1):
        table = existing.get(number)
        if table is None:
            table = TournamentTable.objects.create(
                tournament=tournament, number=number, seats=tournament.table_size, break_position=number - 1
            )
            rows.append(table)
            changed.append(number)
        elif table.broken_at is not None or table.seats < _most(tournament):
            table.broken_at = None
            table.seats = max(table.seats, _most(tournament))
            table.save(update_fields=["broken_at", "seats"])
            rows.append(table)
            changed.append(number)
    return changed


def _refuse_undrawable(players: int, most: int) -> None:
    """The draws ``ofc_standings.table_sizes`` refuses, said in the director's words."""
    if players < 2:
        raise WrongState(_("An Open-Face round needs at least 2 players; %(count)s is left.") % {"count": players})
    if most == 2 and players % 2:
        raise WrongState(
            _("%(count)s players do not make tables of 2: one would play alone. Seat 3 or 4 a table.")
            % {"count": players},
            extra={"field": "table_size"},
        )


def ofc_round_begin(*, actor: Requester, tournament: Tournament, rng: random.Random | None = None) -> Tournament:
    """Begin the next round: its tables drawn at random (round 1 keeps the start's draw if it already seats tables of
    the Open-Face sizes), audited, every screen told. The director or a supervisor."""
    require_runner(actor, action=_("begin an Open-Face round"))
    who = person(actor, what=_("Beginning a round"))
    with transaction.atomic():
        locked = locked_tournament(tournament)
        _ofc_running(locked)
        if locked.ofc_round >= locked.ofc_rounds:
            raise WrongState(
                _("All %(rounds)s rounds are played: finish the tournament.") % {"rounds": locked.ofc_rounds}
            )
        _refuse_unfinished(locked)
        entries = list(Entry.objects.filter(tournament=locked, status=Entry.Status.ACTIVE).order_by("number"))
        seating = {
            entry.pk: (entry.table_number, entry.seat_number)
            for entry in entries
            if entry.table_number is not None and entry.seat_number is not None
        }
        most = _most(locked)
        keep = locked.ofc_round == 0 and len(seating) == len(entries) and fits(seating, most=most)
        records: list[MoveRecord] = []
        added: list[int] = []
        written: list[models.Model] = []
        if not keep:
            _refuse_undrawable(len(entries), most)
            try:
                draw = round_draw([entry.pk for entry in entries], most=most, rng=rng or system_rng())
            except OfcStandingsError as error:
                raise WrongState(said(error)) from None
            added = _tables_ready(locked, max(table for table, _seat in draw.values()), written)
            moves = [
                Move(
                    player=entry.pk,
                    from_table=entry.table_number,
                    from_seat=entry.seat_number,
                    to_table=draw[entry.pk][0],
                    to_seat=draw[entry.pk][1],
                    # Everyone stands up before anyone sits down, as at a final table's redraw.
                    reason=MoveReason.FINAL_TABLE,
                )
                for entry in entries
            ]
            records = moves_apply(
                tournament=locked, moves=moves, actor=who, rows=written, reason=SeatMove.Reason.ROUND_DRAW
            )
        locked.ofc_round += 1
        locked.save(update_fields=["ofc_round"])
        written.append(locked)
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_OFC_ROUND,
            subject=locked,
            before={"round": locked.ofc_round - 1},
            after={
                "round": locked.ofc_round,
                "players": len(entries),
                "kept_the_start_draw": keep,
                "tables_added": added,
                "seats": records,
            },
            rows=written,
        )
        tournament_changed(locked)
    return locked


# --- a hand ---------------------------------------------------------------------------------------------------------

Boards = Mapping[Any, Sequence[object]]


def _boards_checked(players: list[Entry], table_number: int, boards: object) -> dict[int, tuple[str, str, str]]:
    """The boards as entered, each row's cards read and counted, every seated player's, nobody else's, no card twice
    on the table; a refusal names the field (``<entry number>-<row>``)."""
    if not isinstance(boards, Mapping):
        raise ApplicationError(_("Enter a board for every player at the table."), extra={"field": "boards"})
    given: dict[int, object] = {}
    for key, value in boards.items():
        number = int(key) if isinstance(key, str) and key.isdecimal() and len(key) < 10 else key
        if isinstance(number, bool) or not isinstance(number, int):
            raise ApplicationError(
                _("A board is named by the player's entry number, not %(key)s.") % {"key": repr(key)},
                extra={"field": "boards"},
            )
        if number in given:
            raise ApplicationError(
                _("#%(number)s has two boards: enter each player's board once.") % {"number": number},
                extra={"field": "boards"},
            )
        given[number] = value
    seated = {entry.number: entry for entry in players}
    for number in given:
        if number not in seated:
            raise ApplicationError(
                _("#%(number)s does not sit at table %(table)s.") % {"number": number, "table": table_number},
                extra={"field": "boards"},
            )
    checked: dict[int, tuple[str, str, str]] = {}
    seen: dict[Any, tuple[Entry, str]] = {}
    for entry in players:
        where = {"seat": entry.seat_number, "entry": entry_name(entry)}
        rows = given.get(entry.number)
        if rows is None:
            raise ApplicationError(
                _("Seat %(seat)s (%(entry)s) has no board: enter all three rows of every player.") % where,
                extra={"field": f"{entry.number}-front"},
            )
        if isinstance(rows, Mapping):
            rows = [rows.get(row, "") for row in ROWS]
        if isinstance(rows, str) or not isinstance(rows, Sequence) or len(rows) != len(ROWS):
            raise ApplicationError(
                _("Seat %(seat)s (%(entry)s): a board is three rows, front, middle and back.") % where,
                extra={"field": f"{entry.number}-front"},
            )
        texts: list[str] = []
        for row, value in zip(ROWS, rows, strict=True):
            field = f"{entry.number}-{row}"
            typed = text(value, field=field, what=_("A row"), most=60)
            try:
                cards = parse_cards(typed.translate(SUIT_LETTERS))
            except InvalidHand as error:
                raise ApplicationError(
                    _("Seat %(seat)s (%(entry)s), %(row)s: %(problem)s")
                    % {**where, "row": _row_name(row), "problem": said(error)},
                    extra={"field": field},
                ) from None
            if len(cards) != ROW_SIZES[row]:
                raise ApplicationError(
                    _("Seat %(seat)s (%(entry)s): the %(row)s holds %(size)s cards, not %(count)s.")
                    % {**where, "row": _row_name(row), "size": ROW_SIZES[row], "count": len(cards)},
                    extra={"field": field},
                )
            for card in cards:
                if card.is_joker:
                    raise ApplicationError(
                        _("Seat %(seat)s (%(entry)s), %(row)s: Open-Face is played without the joker.")
                        % {**where, "row": _row_name(row)},
                        extra={"field": field},
                    )
                if card in seen:
                    other, other_row = seen[card]
                    raise ApplicationError(
                        _(
                            "%(card)s is on the table twice: seat %(seat)s (%(entry)s) %(row)s and seat "
                            "%(other_seat)s (%(other)s) %(other_row)s. Check the cards."
                        )
                        % {
                            "card": card.symbol,
                            **where,
                            "row": _row_name(row),
                            "other_seat": other.seat_number,
                            "other": entry_name(other),
                            "other_row": _row_name(other_row),
                        },
                        extra={"field": field, "card": str(card)},
                    )
                seen[card] = (entry, row)
            texts.append(" ".join(str(card) for card in cards))
        checked[entry.number] = (texts[0], texts[1], texts[2])
    return checked


def ofc_hand_record(
    *,
    actor: Requester,
    tournament: Tournament,
    table_number: int,
    boards: Boards,
    now: dt.datetime | None = None,
    round_number: int | None = None,
    hand_number: int | None = None,
) -> OfcHand:
    """Enter one hand at one table: every seated player's finished board, scored by ``rules.games.ofc.score`` with
    the tournament's royalties; the points, royalties and fouls stored; audited with the boards. The table's dealer
    or whoever runs the tournament.

    ``round_number`` and ``hand_number`` (the tablet sends the ones it showed): the hand is refused unless it is
    that round's next hand at the table, so a hand entered from two screens (or a page left open across a void or
    a new round's draw) is not recorded twice or into the wrong round."""
    who = person(actor, what=_("Entering a hand"))
    del now  # accepted as the other services take it; the hand's time is the database's (``created_at``)
    number = whole(table_number, field="table_number", what=_("The table"), least=1, most=MOST_TABLE_NUMBER)
    shown_round = (
        None
        if round_number is None
        else whole(round_number, field="round", what=_("The round"), least=1, most=MOST_SHOWN)
    )
    shown_hand = (
        None if hand_number is None else whole(hand_number, field="hand", what=_("The hand"), least=1, most=MOST_SHOWN)
    )
    with transaction.atomic():
        locked = locked_tournament(tournament)
        table = TournamentTable.objects.filter(tournament=locked, number=number).first()
        require_runner_or_table_dealer(actor, table, action=_("enter an Open-Face hand"))
        _ofc_running(locked)
        if locked.ofc_round < 1:
            raise WrongState(_("Round 1 has not begun: the director begins it on the console."))
        players = round_tables(locked).get(number, [])
        if table is None or len(players) < 2:
            raise WrongState(
                _("Nobody plays at table %(table)s in round %(round)s.") % {"table": number, "round": locked.ofc_round},
                extra={"field": "table_number"},
            )
        played = hands_in_force(locked).filter(round=locked.ofc_round, table_number=number).count()
        if played >= locked.ofc_hands_per_round:
            raise WrongState(
                _("Table %(table)s has played all %(hands)s hands of round %(round)s.")
                % {"table": number, "hands": locked.ofc_hands_per_round, "round": locked.ofc_round}
            )
        if shown_round is not None and shown_round != locked.ofc_round:
            raise WrongState(
                _(
                    "Round %(round)s is being played now, not round %(shown)s: the tables were drawn again. Check "
                    "who sits at table %(table)s, then enter the hand."
                )
                % {"round": locked.ofc_round, "shown": shown_round, "table": number},
                extra={"field": "round"},
            )
        if shown_hand is not None and shown_hand != played + 1:
            raise WrongState(
                _(
                    "Table %(table)s is at hand %(next)s, not hand %(shown)s: a hand was entered or voided on another "
                    "screen. Check the last hand's result before entering the boards again."
                )
                % {"table": number, "next": played + 1, "shown": shown_hand},
                extra={"field": "hand"},
            )
        checked = _boards_checked(players, number, boards)
        try:
            result = hand_result(checked, royalties=locked.ofc_royalties)
        except (InvalidHand, ValueError) as error:  # checked above: a refusal here is the engine's own
            raise ApplicationError(said(error), extra={"field": "boards"}) from None
        hand = OfcHand.objects.create(
            tournament=locked,
            round=locked.ofc_round,
            hand=played + 1,
            table_number=number,
            boards={str(entry): list(rows) for entry, rows in checked.items()},
            points={str(entry): points for entry, points in result.points.items()},
            royalties={str(entry): earned for entry, earned in result.royalties.items()},
            fouls=sorted(result.fouls),
            actor=who,
        )
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_OFC_HAND,
            subject=locked,
            after={
                "hand": hand.pk,
                "round": hand.round,
                "number": hand.hand,
                "table": number,
                "boards": hand.boards,
                "points": hand.points,
                "royalties": hand.royalties,
                "fouls": hand.fouls,
                "scoring": locked.ofc_royalties,
            },
            rows=[hand],
        )
        tournament_changed(locked)
    return hand


def ofc_hand_void(*, actor: Requester, tournament: Tournament, hand: OfcHand, reason: str) -> OfcHand:
    """Void a hand entered wrongly, saying why: only the latest hand in force of the round being played at its
    table (it is entered again). The director or a supervisor."""
    require_runner(actor, action=_("void an Open-Face hand"))
    who = person(actor, what=_("Voiding a hand"))
    why = text(reason, field="reason", what=_("The reason"), most=500, required=True)
    with transaction.atomic():
        locked = locked_tournament(tournament)
        _ofc_running(locked)
        found = OfcHand.objects.select_for_update().filter(pk=hand.pk, tournament=locked).first()
        if found is None:
            raise ApplicationError(_("That hand is not in %(name)s.") % {"name": locked.name}, extra={"field": "hand"})
        if found.status != OfcHand.Status.IN_FORCE:
            raise WrongState(_("Hand %(hand)s of table %(table)s is voided already.") % _hand_names(found))
        if found.round != locked.ofc_round:
            raise WrongState(
                _("Hand %(hand)s belongs to round %(round)s, which is over: its points stand.") % _hand_names(found)
            )
        latest = (
            hands_in_force(locked).filter(round=found.round, table_number=found.table_number).order_by("-hand").first()
        )
        if latest is not None and latest != found:  # ``found`` is in force there: there is a latest
            raise WrongState(
                _("Only the latest hand of table %(table)s is voided: void hand %(latest)s first.")
                % {**_hand_names(found), "latest": latest.hand}
            )
        found.status = OfcHand.Status.VOIDED
        found.voided_at = timezone.now()
        found.voided_by = who
        found.void_reason = why
        found.save(update_fields=["status", "voided_at", "voided_by", "void_reason"])
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_OFC_HAND_VOIDED,
            subject=locked,
            before={"hand": found.pk, "points": found.points},
            after={"round": found.round, "number": found.hand, "table": found.table_number},
            reason=why,
            rows=[found],
        )
        tournament_changed(locked)
    return found


def _hand_names(hand: OfcHand) -> dict[str, int]:
    return {"hand": hand.hand, "table": hand.table_number, "round": hand.round}


# --- the finish -----------------------------------------------------------------------------------------------------


def ofc_finish(
    *, actor: Requester, tournament: Tournament, now: dt.datetime | None = None, rng: random.Random | None = None
) -> Tournament:
    """Finish after the last round's last hand: the players still in placed by the standings (a tie on every
    tie-break settled by a lot, drawn here and audited), out from the last place to 2nd, the winner last; each
    place paid by the payout table. The director or a supervisor."""
    require_runner(actor, action=_("finish an Open-Face tournament"))
    who: User = person(actor, what=_("Finishing a tournament"))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        _ofc_running(locked)
        if locked.ofc_round < locked.ofc_rounds:
            raise WrongState(
                _("Round %(round)s of %(rounds)s is being played: the tournament finishes after the last round.")
                % {"round": locked.ofc_round, "rounds": locked.ofc_rounds}
            )
        _refuse_unfinished(locked)
        active = {entry.number: entry for entry in Entry.objects.filter(tournament=locked, status=Entry.Status.ACTIVE)}
        if len(active) < 2:
            raise WrongState(_("%(name)s has fewer than two players left.") % {"name": locked.name})
        lines = [line.line for line in tournament_standings(locked, lots={}) if line.entry.number in active]
        # The players still in ranked among themselves; a tie left after the fewest fouls goes to a lot.
        lots = lots_draw(lines, rng or system_rng())
        ranked = [line.line for line in tournament_standings(locked, lots=lots) if line.entry.number in active]
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            subject=locked,
            after={
                "action": "ofc_standings",
                "tie_breaks": ["points", "last_round", "scoops", "fouls", "lot"],
                "standings": [
                    {
                        "entry": line.entry,
                        "points": line.total,
                        "by_round": list(line.by_round),
                        "scoops": line.scoops,
                        "fouls": line.fouls,
                        "lot": line.lot,
                    }
                    for line in ranked
                ],
                "lots": {str(entry): lot for entry, lot in lots.items()},
            },
        )
        for line in reversed(ranked[1:]):
            record_out(
                tournament=locked, entry=active[line.entry], eliminated_by=None, actor=who, now=now, reseat=False
            )
        tournament_changed(locked)
    return Tournament.objects.get(pk=locked.pk)
