"""A player out of a tournament, and a mistaken bust undone (GAME_RULES.md §5; the rules in full are in
``poker_room.tournaments.entries``' docstring). Each write locks the tournament's row, refuses in the director's words
what the rules do not allow (nothing written), and writes the change, its postings, its seat moves and its audit event
together.

* **A player out**: placed by the players still in before the bust; paid if the place is paid for the field
  (``payouts.prizes``); the first paid bust makes the prize pool final (the overlay posted if the guarantee is
  above what was collected). A bounty is paid to the eliminator (fixed: all of it; progressive: half, the other
  half added to the eliminator's own bounty, the odd cent paid). Then the floor is balanced (``seating.rebalance``:
  tables broken in order, the final table redrawn). With one player left, that player is placed 1st (an elimination
  row with no eliminator, with their prize and own bounty) and the tournament finishes. A second bust of the same
  player is refused: the tournament's row lock makes a double tap wait, and the state check then refuses it.
* **Undo**: only the latest bust still in force (later ones first), with a reason; its prize and bounty postings are
  reversed (one ``t_reversal`` each), a progressive bounty's added half taken back, and the player sits down again:
  in their seat if it is free (its table not broken), else at a random free seat of the shortest table. Balancing
  moves made after the bust stay as they are (TDA practice). When every seat in play is taken because the bust broke
  the player's table (or redrew the final table), that table opens again with the player in their seat; a player
  back alone at a table is not left there: the floor is balanced. The prize pool stays final. Refused: the win
  alone (undo the runner-up's bust: the win goes with it), and the bust of a player who has re-entered since (the
  re-entry is a new entry, paid: the bust stands).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from ledger.lines import Line
from ledger.models import LedgerEntry, Posting
from ledger.services import post, posting_record
from poker_room.deals.models import Deal
from poker_room.display.live import tournament_changed
from poker_room.floor import (
    Requester,
    entry_name,
    entry_of,
    entry_record,
    locked_tournament,
    ordinal,
    person,
    refuse_finished,
    require_runner,
    require_runner_or_table_dealer,
    said,
    system_rng,
    undo_reason,
)
from poker_room.leagues.models import LeagueEvent
from poker_room.pure.seating import Move, MoveReason, SeatingError, rebalance, seat_late_entry
from poker_room.tournaments import money
from poker_room.tournaments.models import Elimination, Entry, SeatMove, Tournament, TournamentTable
from poker_room.tournaments.prizes import place_prize, pool_lock, prize_table
from poker_room.tournaments.seats import (
    MoveRecord,
    emptied_tables_break,
    final_table_and_break_order,
    lone_player_balanced,
    moves_apply,
    table_seats,
    tables_in_play,
)

# --- a player out -------------------------------------------------------------------------------------------------


def _placings(entry: Entry) -> int:
    """Which placing of ``entry`` the next one is (2: placed again after a bust was undone)."""
    return Elimination.objects.filter(entry=entry).count() + 1


def _pay(
    tournament: Tournament, entry: Entry, *, prize: int, bounty: int, actor: User
) -> tuple[Posting | None, Posting | None]:
    """Post a placing's prize and bounty (each only if any), keyed by the entry and its placing."""
    placing = _placings(entry)
    prize_posting = bounty_posting = None
    if prize:
        prize_posting = post(
            kind=Posting.Kind.T_PRIZE,
            lines=money.prize_lines(prize),
            actor=actor,
            idempotency_key=money.prize_key(tournament.pk, entry_number=entry.number, ordinal=placing),
        )
    if bounty:
        bounty_posting = post(
            kind=Posting.Kind.T_BOUNTY,
            lines=money.bounty_lines(bounty),
            actor=actor,
            idempotency_key=money.bounty_key(tournament.pk, entry_number=entry.number, ordinal=placing),
        )
    return prize_posting, bounty_posting


def _eliminator(tournament: Tournament, busted: Entry, eliminated_by: Entry | None) -> Entry | None:
    if eliminated_by is None:
        if tournament.bounty_kind != Tournament.BountyKind.NONE:
            raise ApplicationError(
                _("Say who knocked %(entry)s out: %(name)s pays a bounty.")
                % {"entry": entry_name(busted), "name": tournament.name},
                extra={"field": "eliminated_by"},
            )
        return None
    by = entry_of(tournament, eliminated_by)
    if by.pk == busted.pk:
        raise ApplicationError(_("A player does not knock themselves out."), extra={"field": "eliminated_by"})
    if by.status != Entry.Status.ACTIVE:
        raise WrongState(
            _("%(entry)s is out: only a player still in knocks someone out.") % {"entry": entry_name(by)},
            extra={"field": "eliminated_by"},
        )
    return by


def _bounty_split(tournament: Tournament, bounty: int) -> tuple[int, int]:
    """(paid to the eliminator, added to the eliminator's bounty): all of it (fixed), or half and half with the odd
    cent paid (progressive)."""
    if tournament.bounty_kind == Tournament.BountyKind.PROGRESSIVE:
        added = bounty // 2
        return bounty - added, added
    if tournament.bounty_kind == Tournament.BountyKind.FIXED:
        return bounty, 0
    return 0, 0


def _elimination_audit(
    actor: User,
    tournament: Tournament,
    elimination: Elimination,
    postings: list[Posting | None],
    *,
    rows: list[models.Model],
    **extra: Any,
) -> None:
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.TOURNAMENT_ELIMINATION,
        subject=tournament,
        after={
            "postings": [posting_record(posting) for posting in postings if posting is not None],
            **entry_record(elimination.entry),
            "elimination": elimination.pk,
            "place": elimination.place,
            "eliminated_by": elimination.eliminated_by.number if elimination.eliminated_by else None,
            "prize_cents": elimination.prize_cents,
            "bounty_paid_cents": elimination.bounty_paid_cents,
            "bounty_added_cents": elimination.bounty_added_cents,
            "seat": [elimination.table_number, elimination.seat_number],
            **extra,
        },
        rows=rows,
    )


def _finish(tournament: Tournament, *, actor: User, now: dt.datetime, places: tuple[int, ...]) -> None:
    """One player left: placed 1st with their prize and their own bounty; the tournament finished."""
    winner = Entry.objects.select_for_update().get(tournament=tournament, status=Entry.Status.ACTIVE)
    if tournament.pool_locked_at is None:
        pool_lock(tournament, actor=actor, now=now)
    bounty = winner.bounty_cents if tournament.bounty_kind != Tournament.BountyKind.NONE else 0
    prize = place_prize(tournament, winner, 1, places)
    prize_posting, bounty_posting = _pay(tournament, winner, prize=prize, bounty=bounty, actor=actor)
    elimination = Elimination.objects.create(
        tournament=tournament,
        entry=winner,
        eliminated_by=None,
        place=1,
        prize_cents=prize,
        bounty_paid_cents=bounty,
        bounty_added_cents=0,
        table_number=winner.table_number,
        seat_number=winner.seat_number,
        posting=prize_posting or bounty_posting,
        actor=actor,
    )
    winner.status, winner.place = Entry.Status.WON, 1
    winner.table_number = winner.seat_number = None
    winner.save(update_fields=["status", "place", "table_number", "seat_number"])
    _elimination_audit(actor, tournament, elimination, [prize_posting, bounty_posting], rows=[elimination, winner])
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, now
    tournament.save(update_fields=["status", "finished_at"])
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.TOURNAMENT_FINISHED,
        subject=tournament,
        after={**entry_record(winner), "entries": Entry.objects.filter(tournament=tournament).count()},
        rows=[tournament],
    )


def record_out(
    *,
    tournament: Tournament,
    entry: Entry,
    eliminated_by: Entry | None,
    actor: User,
    now: dt.datetime,
    reseat: bool = True,
    rng: random.Random | None = None,
) -> Elimination:
    """A player out, inside the caller's transaction with ``tournament`` locked and the actor's right checked:
    placed at the number of players still in, paid (the prize pool made final at the first paid place), the bounty
    paid, the seat freed and, with ``reseat``, the floor balanced; with one player left, the winner placed and the
    tournament over. Heads-up matches and Open-Face standings place their players through it too."""
    busted = entry_of(tournament, entry)
    if busted.status != Entry.Status.ACTIVE:
        raise WrongState(
            _("%(entry)s is already out (%(place)s).")
            % {"entry": entry_name(busted), "place": ordinal(busted.place or 0)}
        )
    by = _eliminator(tournament, busted, eliminated_by)
    place = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if place < 2:
        raise WrongState(_("%(entry)s is the last player in.") % {"entry": entry_name(busted)})
    seats_before = table_seats(tournament, tables_in_play(tournament))
    had_players = {seats.number for seats in seats_before if seats.count}
    _pool, _overlay, places = prize_table(tournament)
    prize = place_prize(tournament, busted, place, places)
    if prize and tournament.pool_locked_at is None:
        pool_lock(tournament, actor=actor, now=now)
    paid, added = _bounty_split(tournament, busted.bounty_cents)
    prize_posting, bounty_posting = _pay(tournament, busted, prize=prize, bounty=paid, actor=actor)
    written: list[models.Model] = []
    if by is not None and added:
        by.bounty_cents += added
        by.save(update_fields=["bounty_cents"])
        written.append(by)
    elimination = Elimination.objects.create(
        tournament=tournament,
        entry=busted,
        eliminated_by=by,
        place=place,
        prize_cents=prize,
        bounty_paid_cents=paid,
        bounty_added_cents=added,
        table_number=busted.table_number,
        seat_number=busted.seat_number,
        posting=prize_posting or bounty_posting,
        actor=actor,
    )
    busted.status, busted.place = Entry.Status.BUSTED, place
    busted.table_number = busted.seat_number = None
    busted.save(update_fields=["status", "place", "table_number", "seat_number"])
    written += [elimination, busted]
    moves: list[MoveRecord] = []
    broken: list[int] = []
    if place > 2 and reseat:
        tables = tables_in_play(tournament)
        final, order = final_table_and_break_order(tables)
        try:
            planned = rebalance(
                table_seats(tournament, tables), break_order=order, final_table=final, rng=rng or system_rng()
            )
        except SeatingError as error:
            raise WrongState(said(error)) from None
        moves = moves_apply(tournament=tournament, moves=planned, actor=actor, rows=written)
        broken = emptied_tables_break(tournament, now, had_players=had_players, rows=written)
    _elimination_audit(
        actor,
        tournament,
        elimination,
        [prize_posting, bounty_posting],
        rows=written,
        moves=moves,
        broken_tables=broken,
    )
    if place == 2:
        _finish(tournament, actor=actor, now=now, places=places)
    tournament_changed(tournament)
    return elimination


def entry_eliminate(
    *,
    actor: Requester,
    tournament: Tournament,
    entry: Entry,
    eliminated_by: Entry | None = None,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> Elimination:
    """A player out: placed, paid if in the money (the prize pool made final at the first paid bust), the bounty
    paid, the seat freed and the floor balanced; with one player left, the winner placed and the tournament over.

    The tournament director, a supervisor, or the dealer of the table the player sits at."""
    who = person(actor, what=_("Recording a bust"))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        busted = entry_of(locked, entry)
        table = (
            TournamentTable.objects.filter(tournament=locked, number=busted.table_number).first()
            if busted.table_number is not None
            else None
        )
        require_runner_or_table_dealer(actor, table, action=_("record a bust"))
        refuse_finished(locked)
        _played_out_elsewhere(locked, undoing=False)
        if locked.status != Tournament.Status.RUNNING:
            raise WrongState(_("%(name)s has not started: nobody is out yet.") % {"name": locked.name})
        return record_out(
            tournament=locked, entry=busted, eliminated_by=eliminated_by, actor=who, now=now, reseat=True, rng=rng
        )


# --- a mistaken bust undone ---------------------------------------------------------------------------------------


def _reverse(tournament: Tournament, original: Posting, *, actor: User) -> Posting:
    lines = [
        Line(account, None, amount, kind)
        for account, amount, kind in LedgerEntry.objects.filter(posting=original)
        .order_by("pk")
        .values_list("account", "amount_cents", "kind")
    ]
    return post(
        kind=Posting.Kind.T_REVERSAL,
        lines=money.reversal_lines(lines),
        actor=actor,
        idempotency_key=money.undo_key(tournament.pk, posting_id=original.pk),
        reverses=original,
    )


def elimination_postings(elimination: Elimination) -> list[Posting]:
    """The prize and bounty postings of an elimination (by their keys: the row names only one of them)."""
    placing = Elimination.objects.filter(entry_id=elimination.entry_id, pk__lte=elimination.pk).count()
    number = elimination.entry.number
    keys = [
        money.prize_key(elimination.tournament_id, entry_number=number, ordinal=placing),
        money.bounty_key(elimination.tournament_id, entry_number=number, ordinal=placing),
    ]
    found = {posting.idempotency_key: posting for posting in Posting.objects.filter(idempotency_key__in=keys)}
    return [found[key] for key in keys if key in found]


def _seat_again(
    tournament: Tournament, entry: Entry, elimination: Elimination, rng: random.Random, rows: list[models.Model]
) -> tuple[Move[int], int | None]:
    """The busted player's seat if it is free and its table still plays, else a random free seat at the shortest
    table; with every seat in play taken, their own table if it has broken since (the bust broke it, or redrew the
    final table): it opens again (added to ``rows``), and they sit in their seat. The move, and the number of the
    table opened again (None: none was)."""
    seats = table_seats(tournament, tables_in_play(tournament))
    for table in seats:
        if table.number == elimination.table_number and elimination.seat_number not in table.occupied:
            assert elimination.seat_number is not None
            return Move(entry.pk, None, None, table.number, elimination.seat_number, MoveReason.DRAW), None
    broken = (
        None
        if elimination.table_number is None
        else TournamentTable.objects.filter(
            tournament=tournament, number=elimination.table_number, broken_at__isnull=False
        ).first()
    )
    if broken is not None and elimination.seat_number is not None and not any(table.empty_seats for table in seats):
        broken.broken_at = None
        broken.save(update_fields=["broken_at"])
        rows.append(broken)
        return Move(entry.pk, None, None, broken.number, elimination.seat_number, MoveReason.DRAW), broken.number
    try:
        return seat_late_entry(seats, entry.pk, rng), None
    except SeatingError as error:
        raise WrongState(
            _("No free seat for %(entry)s: %(reason)s") % {"entry": entry_name(entry), "reason": said(error)}
        ) from None


def _undo(
    locked: Tournament,
    undone: Elimination,
    *,
    who: User,
    why: str,
    now: dt.datetime,
    rng: random.Random | None,
) -> None:
    """Undo one bust (the latest in force): its postings reversed, the player back in a seat (the floor balanced if
    they are back alone at a table), the row marked, the event written."""
    rng = rng or system_rng()
    originals = elimination_postings(undone)
    reversals = [_reverse(locked, original, actor=who) for original in originals]
    by_original = {reversal.reverses_id: reversal for reversal in reversals}
    written: list[models.Model] = []
    if undone.eliminated_by is not None and undone.bounty_added_cents:
        by = Entry.objects.select_for_update().get(pk=undone.eliminated_by.pk)
        by.bounty_cents -= undone.bounty_added_cents
        by.save(update_fields=["bounty_cents"])
        written.append(by)
    entry = Entry.objects.select_for_update().get(pk=undone.entry_id)
    entry.status, entry.place = Entry.Status.ACTIVE, None
    entry.save(update_fields=["status", "place"])
    written.append(entry)
    back, reopened = _seat_again(locked, entry, undone, rng, written)
    seats = moves_apply(tournament=locked, moves=[back], actor=who, rows=written, reason=SeatMove.Reason.UNDO)
    # Not alone at a table opened for them.
    seats += lone_player_balanced(locked, back.to_table, actor=who, rng=rng, rows=written)
    undone.status = Elimination.Status.UNDONE
    undone.undone_at, undone.undone_by, undone.undo_reason = now, who, why
    undone.undo_posting = by_original.get(undone.posting_id)
    undone.save(update_fields=["status", "undone_at", "undone_by", "undo_reason", "undo_posting"])
    written.append(undone)
    audit_event_record(
        actor=who,
        event_type=AuditEventType.TOURNAMENT_ELIMINATION_UNDONE,
        subject=locked,
        after={
            "postings": [posting_record(reversal) for reversal in reversals],
            **entry_record(entry),
            "elimination": undone.pk,
            "place": undone.place,
            "bounty_taken_back_cents": undone.bounty_added_cents,
            "seats": seats,
            "reopened_table": reopened,
        },
        reason=why,
        rows=written,
    )


def _played_out_elsewhere(tournament: Tournament, *, undoing: bool) -> None:
    """A heads-up event's players go out by their matches and an Open-Face event's by its standings: a bust (or its
    undo) recorded past them would leave the bracket or the standings out of step with the entries."""
    if tournament.format == Tournament.Format.HEADS_UP:
        raise WrongState(
            _("In a heads-up event the result of a match is undone on its tablet, and the bracket with it.")
            if undoing
            else _(
                "In a heads-up event a player goes out when their match is decided: record the winner on its tablet."
            )
        )
    if tournament.format == Tournament.Format.OFC_POINTS:
        raise WrongState(_("An Open-Face points event places everyone by the standings at the finish: nobody busts."))


def elimination_undo(
    *,
    actor: Requester,
    tournament: Tournament,
    elimination: Elimination,
    reason: str,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> Elimination:
    """Undo a mistaken bust of a chip tournament (a heads-up match's result is undone with its match:
    ``poker_room.heads_up.services.match_undo``, through ``bust_undo``)."""
    require_runner(actor, action="undo a bust")
    _played_out_elsewhere(tournament, undoing=True)
    return bust_undo(actor=actor, tournament=tournament, elimination=elimination, reason=reason, now=now, rng=rng)


def bust_undo(
    *,
    actor: Requester,
    tournament: Tournament,
    elimination: Elimination,
    reason: str,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> Elimination:
    """Undo a mistaken bust (the latest still in force): its prize and bounty reversed, a progressive bounty's added
    half taken back, the player back in a seat. Seat moves made since stay (TDA practice)."""
    require_runner(actor, action="undo a bust")
    who = person(actor, what=_("Undoing a bust"))
    why = undo_reason(reason, missing=_("Say why the bust is undone."))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        undone = Elimination.objects.select_for_update().filter(pk=elimination.pk, tournament=locked).first()
        if undone is None:
            raise ApplicationError(_("That bust is not in %(name)s.") % {"name": locked.name})
        if undone.status == Elimination.Status.UNDONE:
            raise WrongState(_("The bust of %(entry)s was undone already.") % {"entry": entry_name(undone.entry)})
        if undone.place == 1:
            # Alone, the win would leave one player in a tournament that can never finish.
            raise WrongState(
                _("The win of %(entry)s is not undone alone: undo the runner-up's bust, and the win goes with it.")
                % {"entry": entry_name(undone.entry)}
            )
        invited = (
            LeagueEvent.objects.filter(tournament=locked, removed_at__isnull=True, league__master_class__isnull=False)
            .select_related("league")
            .first()
        )
        if invited is not None:
            # The league's Master Class was invited on these results: its players and stacks stand.
            raise WrongState(
                _("%(name)s counts in %(league)s, whose Master Class is invited on its results: they stand.")
                % {"name": locked.name, "league": invited.league}
            )
        deal = Deal.objects.filter(tournament=locked).first()
        if deal is not None and deal.amount_for(undone.entry.number) is None:
            # The deal shared out the money of the places left: this player is not in it, so their bust stands.
            raise WrongState(
                _(
                    "The bust of %(entry)s came before the deal: the deal shares the money of the places left, so the "
                    "bust stands."
                )
                % {"entry": entry_name(undone.entry)}
            )
        reentry = Entry.objects.filter(reentry_of_id=undone.entry_id).first()
        if reentry is not None:
            raise WrongState(
                _("%(entry)s has re-entered as #%(number)s since: that entry plays on, and this bust stands.")
                % {"entry": entry_name(undone.entry), "number": reentry.number}
            )
        latest = (
            Elimination.objects.select_related("entry")
            .filter(tournament=locked, status=Elimination.Status.IN_FORCE)
            .order_by("-pk")
            .first()
        )
        if (
            locked.status == Tournament.Status.FINISHED
            and latest is not None
            and latest.place == 1
            and latest.pk != undone.pk
        ):
            # The runner-up's bust finished the tournament: undoing it takes the win back first.
            before_win = (
                Elimination.objects.filter(tournament=locked, status=Elimination.Status.IN_FORCE, pk__lt=latest.pk)
                .order_by("-pk")
                .first()
            )
            if before_win is not None and before_win.pk == undone.pk:
                _undo(locked, latest, who=who, why=why, now=now, rng=rng)
                latest = undone
        if latest is not None and latest.pk != undone.pk:
            raise WrongState(
                _("Undo the later bust first: %(entry)s, out in %(place)s.")
                % {"entry": entry_name(latest.entry), "place": ordinal(latest.place)}
            )
        _undo(locked, undone, who=who, why=why, now=now, rng=rng)
        if locked.status == Tournament.Status.FINISHED:
            locked.status, locked.finished_at = Tournament.Status.RUNNING, None
            locked.save(update_fields=["status", "finished_at"])
            audit_event_record(
                actor=who,
                event_type=AuditEventType.TOURNAMENT_UPDATED,
                subject=locked,
                after={"status": locked.status, "reopened": True, "elimination": undone.pk},
                reason=why,
                rows=[locked],
            )
        tournament_changed(locked)
    return undone
