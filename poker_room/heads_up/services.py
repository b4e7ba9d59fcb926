"""Writes of a heads-up event (GAME_RULES.md §5 "MSOP Heads Up": group mode or knock-out by field size,
blinds up every 7th hand). The bracket's shape is the pure ``poker_room.pure.brackets``; this module stores it as
``Match`` rows and moves the players through it.

* **The draw** (``bracket_draw``, once the tournament has started): a knock-out of the whole field, or (mode "by
  field": a field of at most ``groups_up_to``) groups of at most ``group_size`` playing round robins, whose winners
  then play a knock-out drawn as soon as the last group match is decided. Seeded: the entry numbers are the seeds;
  drawn: the order is drawn at random, then seeded. Every match of a knock-out is stored at once, each naming where
  its winner goes; a bye goes straight into its second-round slot. The prize tiers are set with the stage: the
  losers of one knock-out round share their places' prizes, as do the group stage's non-winners.
* **Rounds in order**: a knock-out round gets its tables once every earlier round is decided, so each player out is
  placed in the tier of the round they lost (the places count the players still in). Group matches get tables in
  round-robin order, a player in one match at a time. A match holds its table until it is decided; each player sits
  at their match's table (seat 1: side a, seat 2: side b), a player waiting for a match sits nowhere.
* **A match**: the table's dealer (or the director) counts each hand (the match's blinds walk the structure's levels
  by its hands), takes back a mis-tapped hand, and records the winner. In a knock-out the loser is out at once
  (``eliminations.record_out``, knocked out by the winner), the winner moves on; the final's loser out makes the
  winner 1st and finishes the tournament. In a group nobody is out until the group is complete: then its
  non-winners go out in the standing's order, the last first.
* **A wrong winner** (``match_undo``, the director): the loser's bust is undone (``eliminations.bust_undo``,
  so only the latest bust) and the winner taken back out of the next match, only while that match has had no hand;
  a group match only while its group is not complete. Anything later is undone first.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any, TypedDict

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
    undo_reason,
)
from poker_room.heads_up.bracket import group_players, group_results, group_standing, stage_mode
from poker_room.heads_up.models import Match
from poker_room.heads_up.tables import tables_assign
from poker_room.pure.brackets import BracketError, blinds_at, groups, knockout, knockout_tiers, round_robin
from poker_room.tournaments.clock_services import tournament_levels
from poker_room.tournaments.eliminations import bust_undo, record_out
from poker_room.tournaments.models import Elimination, Entry, Tournament, TournamentTable

__all__ = [
    "bracket_draw",
    "group_results",
    "match_decide",
    "match_hand",
    "match_hand_undo",
    "match_undo",
    "stage_mode",
]


# --- helpers under the lock ----------------------------------------------------------------------------------------


def _heads_up(tournament: Tournament) -> None:
    if tournament.format != Tournament.Format.HEADS_UP:
        raise WrongState(_("%(name)s is not a heads-up event: it has no bracket.") % {"name": tournament.name})


def _match_of(tournament: Tournament, match: Match | int) -> Match:
    pk = match if isinstance(match, int) else match.pk
    found = (
        Match.objects.select_for_update(of=("self",))
        .select_related("entry_a", "entry_b", "winner")
        .filter(pk=pk, tournament_id=tournament.pk)
        .first()
    )
    if found is None:
        raise ApplicationError(
            _("That match is not in %(name)s.") % {"name": tournament.name}, extra={"field": "match"}
        )
    return found


def _table_of(tournament: Tournament, match: Match) -> TournamentTable | None:
    if match.table_number is None:
        return None
    return TournamentTable.objects.filter(tournament=tournament, number=match.table_number).first()


def match_label(match: Match) -> str:
    """How the floor names a match in a refusal: "Group 2, match 3" or "Round 2, match 5"."""
    if match.stage == Match.Stage.GROUP:
        return _("Group %(group)s, match %(number)s") % {"group": match.group, "number": match.number}
    return _("Round %(round)s, match %(number)s") % {"round": match.round, "number": match.number}


class MatchRecord(TypedDict):
    """A match as the audit trail names it: stage, round, number, group, the entry numbers, the table, the hands."""

    match: int
    stage: str
    round: int
    number: int
    group: int | None
    a: int | None
    b: int | None
    table: int | None
    hands: int


def _record(match: Match) -> MatchRecord:
    return {
        "match": match.pk,
        "stage": str(match.stage),
        "round": match.round,
        "number": match.number,
        "group": match.group,
        "a": match.entry_a.number if match.entry_a else None,
        "b": match.entry_b.number if match.entry_b else None,
        "table": match.table_number,
        "hands": match.hands,
    }


def _refuse_unplayable(match: Match) -> None:
    """Only a match with both players at its table is played."""
    if match.status == Match.Status.DECIDED:
        assert match.winner is not None
        raise WrongState(
            _("%(match)s is decided: %(winner)s won it.")
            % {"match": match_label(match), "winner": entry_name(match.winner)}
        )
    if match.status == Match.Status.WAITING:
        raise WrongState(_("%(match)s waits for its players.") % {"match": match_label(match)})
    if match.table_number is None:
        raise WrongState(
            _("%(match)s has no table yet: it starts when the round before it is over and a table is free.")
            % {"match": match_label(match)}
        )


# --- the draw -----------------------------------------------------------------------------------------------------


class KnockoutDraw(TypedDict):
    """A knock-out's draw as the audit trail records it: entries by number, the seeds best first."""

    stage: str  # "knockout"
    size: int
    seeds: list[int]
    byes: list[int]
    rounds: int
    matches: int


class GroupsDraw(TypedDict):
    """The groups' draw as the audit trail records it: each group's entry numbers."""

    stage: str  # "group"
    groups: list[list[int]]
    matches: int


def _knockout_store(
    tournament: Tournament, players: Sequence[Entry], *, drawn: bool, rng: random.Random, rows: list[models.Model]
) -> KnockoutDraw:
    """Store the knock-out of ``players`` (in seed order): every match at once, the final first (each match names
    the one its winner goes to), added to ``rows``. Returns the draw as the audit trail records it."""
    try:
        bracket = knockout(list(players), drawn=drawn, rng=rng)
    except BracketError as error:
        raise WrongState(said(error)) from None
    stored: dict[tuple[int, int], Match] = {}
    for matches in reversed(bracket.rounds):
        for planned in matches:
            a, b = planned.a.entrant, planned.b.entrant
            stored[(planned.round, planned.number)] = Match.objects.create(
                tournament=tournament,
                stage=Match.Stage.KNOCKOUT,
                round=planned.round,
                number=planned.number,
                entry_a=a,
                entry_b=b,
                next_match=stored[planned.next] if planned.next else None,
                next_side=planned.next_side,
                status=Match.Status.READY if a is not None and b is not None else Match.Status.WAITING,
            )
    rows += stored.values()
    return {
        "stage": "knockout",
        "size": bracket.size,
        "seeds": [entry.number for entry in sorted(bracket.seeds, key=lambda e: bracket.seeds[e])],
        "byes": [entry.number for entry in bracket.byes],
        "rounds": len(bracket.rounds),
        "matches": len(stored),
    }


def _groups_store(
    tournament: Tournament, players: Sequence[Entry], *, drawn: bool, rng: random.Random, rows: list[models.Model]
) -> GroupsDraw:
    """Store the groups of ``players`` and every match of their round robins, added to ``rows``. Returns the draw as
    the audit trail records it."""
    try:
        placed = groups(list(players), tournament.group_size, drawn=drawn, rng=rng)
    except BracketError as error:
        raise WrongState(said(error)) from None
    count = 0
    numbers: dict[int, int] = {}  # a round's matches are numbered across the groups: group 2's follow group 1's
    for group_number, group in enumerate(placed, start=1):
        for robin in round_robin(group):
            for a, b in robin.pairs:
                numbers[robin.number] = numbers.get(robin.number, 0) + 1
                match = Match.objects.create(
                    tournament=tournament,
                    stage=Match.Stage.GROUP,
                    round=robin.number,
                    number=numbers[robin.number],
                    group=group_number,
                    entry_a=a,
                    entry_b=b,
                    status=Match.Status.READY,
                )
                rows.append(match)
                count += 1
    return {"stage": "group", "groups": [[entry.number for entry in group] for group in placed], "matches": count}


def _tiers(entrants: int, winners: int | None) -> list[list[int]]:
    """The prize tiers: a knock-out of the field, or of the ``winners`` of the groups with the others sharing the
    places below them."""
    if winners is None:
        return knockout_tiers(entrants)
    if winners < 2:
        return []  # one group is the whole event: its standing places everyone, as the payout table pays them
    tiers = knockout_tiers(winners)
    if entrants > winners + 1:
        tiers.append([winners + 1, entrants])
    return tiers


def _refuse_timed_levels(tournament: Tournament) -> None:
    """A match's blinds walk the structure by its own hands: a structure with a level of minutes (a chip template
    switched to heads-up) would refuse every hand counted, so the bracket is not drawn on it."""
    levels = tournament_levels(tournament)
    if any(not level.is_break and not level.hands for level in levels):
        raise WrongState(
            _(
                "The structure of %(name)s counts levels in minutes, but a heads-up match's blinds go up with its own "
                "hands: give every level a number of hands on the Structure page, then draw the bracket."
            )
            % {"name": tournament.name},
            extra={"field": "levels"},
        )
    try:
        blinds_at(levels, 0)
    except BracketError as error:  # no level at all
        raise WrongState(said(error), extra={"field": "levels"}) from None


def bracket_draw(*, actor: Requester, tournament: Tournament, rng: random.Random | None = None) -> list[Match]:
    """Draw the bracket of a heads-up event once it has started: the knock-out, or the groups (then the knock-out of
    their winners follows by itself). Tables go to the first matches; the prize tiers are set. Returns the matches."""
    require_runner(actor, action=_("draw the bracket"))
    who = person(actor, what=_("Drawing the bracket"))
    with transaction.atomic():
        locked = locked_tournament(tournament)
        _heads_up(locked)
        refuse_finished(locked)
        if locked.status != Tournament.Status.RUNNING:
            raise WrongState(
                _("%(name)s has not started: the bracket is drawn from the players at the start.")
                % {"name": locked.name}
            )
        if Match.objects.filter(tournament=locked).exists():
            raise WrongState(_("The bracket of %(name)s is drawn already.") % {"name": locked.name})
        players = list(Entry.objects.filter(tournament=locked, status=Entry.Status.ACTIVE).order_by("number"))
        if len(players) < 2:
            raise WrongState(_("A bracket needs at least two players still in."))
        _refuse_timed_levels(locked)
        drawn = locked.seeding == Tournament.Seeding.DRAWN
        source = rng or system_rng()
        mode = stage_mode(locked, len(players))
        record: GroupsDraw | KnockoutDraw
        written: list[models.Model] = []
        if mode == "groups":
            if locked.bounty_kind != Tournament.BountyKind.NONE:
                # A group's non-winners go out on the standing, not to one player: nobody to pay their bounty to.
                raise WrongState(
                    _("A heads-up event in groups pays no bounties: play it as a knock-out, or remove the bounty.")
                )
            record = _groups_store(locked, players, drawn=drawn, rng=source, rows=written)
            locked.prize_tiers = _tiers(len(players), len(record["groups"]))
        else:
            record = _knockout_store(locked, players, drawn=drawn, rng=source, rows=written)
            locked.prize_tiers = _tiers(len(players), None)
        locked.save(update_fields=["prize_tiers"])
        written.append(locked)
        tables = tables_assign(locked, who, written)
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_BRACKET,
            subject=locked,
            after={
                **record,
                "seeding": str(locked.seeding),
                "entries": len(players),
                "prize_tiers": locked.prize_tiers,
                "tables": tables,
            },
            rows=written,
        )
        tournament_changed(locked)
    return list(Match.objects.filter(tournament=tournament).order_by("stage", "round", "number"))


def _winners_knockout(tournament: Tournament, who: User, rng: random.Random) -> KnockoutDraw | None:
    """Once every group match is decided: the group winners' knock-out drawn (seeded by group number, or drawn)."""
    matches = list(
        Match.objects.filter(tournament=tournament, stage=Match.Stage.GROUP).select_related(
            "entry_a", "entry_b", "winner"
        )
    )
    if any(match.status != Match.Status.DECIDED for match in matches):
        return None
    if Match.objects.filter(tournament=tournament, stage=Match.Stage.KNOCKOUT).exists():
        return None
    players = group_players(matches)
    winners = [group_standing(matches, group, members)[0].player for group, members in players.items()]
    if len(winners) < 2:
        return None  # one group: its winner has won the event
    drawn = tournament.seeding == Tournament.Seeding.DRAWN
    written: list[models.Model] = []
    record = _knockout_store(tournament, winners, drawn=drawn, rng=rng, rows=written)
    audit_event_record(
        actor=who,
        event_type=AuditEventType.TOURNAMENT_BRACKET,
        subject=tournament,
        after={
            **record,
            "from_groups": True,
            "seeding": str(tournament.seeding),
            "prize_tiers": tournament.prize_tiers,
        },
        rows=written,
    )
    return record


def _group_complete(tournament: Tournament, group: int, who: User, now: dt.datetime) -> list[int]:
    """A group whose matches are all decided: its non-winners out, the last of the standing first. Their numbers."""
    matches = list(
        Match.objects.filter(tournament=tournament, stage=Match.Stage.GROUP, group=group).select_related(
            "entry_a", "entry_b", "winner"
        )
    )
    if any(match.status != Match.Status.DECIDED for match in matches):
        return []
    members = group_players(matches)[group]
    standing = group_standing(matches, group, members)
    out = []
    for line in reversed(standing[1:]):
        record_out(tournament=tournament, entry=line.player, eliminated_by=None, actor=who, now=now, reseat=False)
        out.append(line.player.number)
    return out


# --- a match ------------------------------------------------------------------------------------------------------


def _tables_given(tournament: Tournament, who: User) -> None:
    """After a result or its undo: tables given to the matches that can start and their players seated
    (``tables_assign``), in an audit event of their own when anyone or anything moved."""
    written: list[models.Model] = []
    given = tables_assign(tournament, who, written)
    if written:
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_SEATS,
            subject=tournament,
            after={"action": "match_tables", "tables": given},
            rows=written,
        )


def _hand_change(actor: Requester, tournament: Tournament, match: Match | int, by: int) -> Match:
    with transaction.atomic():
        locked = locked_tournament(tournament)
        _heads_up(locked)
        found = _match_of(locked, match)
        require_runner_or_table_dealer(actor, _table_of(locked, found), action=_("count a match's hands"))
        refuse_finished(locked)
        _refuse_unplayable(found)
        if found.hands + by < 0:
            raise WrongState(_("%(match)s has no hand counted to take back.") % {"match": match_label(found)})
        levels = tournament_levels(locked)
        try:
            before = blinds_at(levels, found.hands)
            after = blinds_at(levels, found.hands + by)
        except BracketError as error:
            raise WrongState(said(error), extra={"field": "levels"}) from None
        found.hands += by
        found.save(update_fields=["hands"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_MATCH_HAND,
            subject=locked,
            before={"hands": found.hands - by, "level": before.level_number},
            after={**_record(found), "action": "hand" if by > 0 else "hand_undone", "level": after.level_number},
            rows=[found],
        )
        tournament_changed(locked)
    return found


def match_hand(*, actor: Requester, tournament: Tournament, match: Match | int) -> Match:
    """A hand of the match played: its count up by one (the blinds rise with it, ``brackets.blinds_at``). The table's
    dealer or whoever runs the tournament; refused once the match is decided."""
    return _hand_change(actor, tournament, match, +1)


def match_hand_undo(*, actor: Requester, tournament: Tournament, match: Match | int) -> Match:
    """A hand counted by mistake taken back (not below none)."""
    return _hand_change(actor, tournament, match, -1)


def _winner_of(match: Match, winner: Entry | int | None) -> tuple[Entry, Entry]:
    pk = winner if isinstance(winner, int) and not isinstance(winner, bool) else getattr(winner, "pk", None)
    assert match.entry_a is not None and match.entry_b is not None
    if pk == match.entry_a_id:
        return match.entry_a, match.entry_b
    if pk == match.entry_b_id:
        return match.entry_b, match.entry_a
    raise ApplicationError(
        _("The winner of %(match)s is %(a)s or %(b)s.")
        % {"match": match_label(match), "a": entry_name(match.entry_a), "b": entry_name(match.entry_b)},
        extra={"field": "winner"},
    )


def match_decide(
    *,
    actor: Requester,
    tournament: Tournament,
    match: Match | int,
    winner: Entry | int,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> Match:
    """The match's winner: in a knock-out the loser is out (placed and paid) and the winner moves on; in a group the
    result counts, and the group's non-winners go out once it is complete (the knock-out of the winners is drawn
    after the last group). The final's decision finishes the tournament. Tables go to the matches that can start."""
    who = person(actor, what=_("Recording a match"))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        _heads_up(locked)
        found = _match_of(locked, match)
        require_runner_or_table_dealer(actor, _table_of(locked, found), action=_("record a match's winner"))
        refuse_finished(locked)
        _refuse_unplayable(found)
        won, lost = _winner_of(found, winner)
        found.status, found.winner, found.decided_at, found.decided_by = Match.Status.DECIDED, won, now, who
        found.save(update_fields=["status", "winner", "decided_at", "decided_by"])
        written: list[models.Model] = [found]
        after: dict[str, Any] = {**_record(found), "winner": won.number, "loser": lost.number}
        if found.stage == Match.Stage.KNOCKOUT:
            elimination = record_out(tournament=locked, entry=lost, eliminated_by=won, actor=who, now=now, reseat=False)
            after["place"] = elimination.place
            if found.next_match_id is not None:
                following = Match.objects.select_for_update().get(pk=found.next_match_id)
                setattr(following, "entry_a" if found.next_side == "a" else "entry_b", won)
                if following.entry_a_id is not None and following.entry_b_id is not None:
                    following.status = Match.Status.READY
                following.save(update_fields=["entry_a", "entry_b", "status"])
                written.append(following)
                after["winner_to"] = following.pk
        else:
            assert found.group is not None
            after["group_out"] = _group_complete(locked, found.group, who, now)
        audit_event_record(
            actor=who, event_type=AuditEventType.TOURNAMENT_MATCH, subject=locked, after=after, rows=written
        )
        if found.stage == Match.Stage.GROUP:
            _winners_knockout(locked, who, rng or system_rng())
        locked.refresh_from_db()
        if locked.status == Tournament.Status.RUNNING:
            _tables_given(locked, who)
        tournament_changed(locked)
    return found


def match_undo(
    *,
    actor: Requester,
    tournament: Tournament,
    match: Match | int,
    reason: str,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> Match:
    """A wrong winner tapped: the match open again. Knock-out: the loser's bust undone (it must be the latest in
    force) and the winner taken back out of the next match, while that match has had no hand; a group match while
    its group is not complete. The director's, with a reason."""
    require_runner(actor, action=_("undo a match"))
    who = person(actor, what=_("Undoing a match"))
    why = undo_reason(reason, missing=_("Say why the match is undone."))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        _heads_up(locked)
        found = _match_of(locked, match)
        if found.status != Match.Status.DECIDED:
            raise WrongState(_("%(match)s is not decided: there is nothing to undo.") % {"match": match_label(found)})
        won, lost = _winner_of(found, found.winner_id)
        before = {**_record(found), "winner": won.number}
        following = None
        if found.stage == Match.Stage.KNOCKOUT:
            if found.next_match_id is not None:
                following = Match.objects.select_for_update().get(pk=found.next_match_id)
                if following.hands or following.status == Match.Status.DECIDED:
                    raise WrongState(
                        _("%(winner)s has played on in %(match)s: undo that match first.")
                        % {"winner": entry_name(won), "match": match_label(following)}
                    )
            bust = Elimination.objects.filter(tournament=locked, entry=lost, status=Elimination.Status.IN_FORCE).first()
            if bust is None:  # pragma: no cover - a decided knock-out match always placed its loser
                raise WrongState(_("%(entry)s is not out.") % {"entry": entry_name(lost)})
            bust_undo(actor=actor, tournament=locked, elimination=bust, reason=why, now=now, rng=rng)
            locked.refresh_from_db()
            if following is not None:
                setattr(following, "entry_a" if found.next_side == "a" else "entry_b", None)
                following.status, following.table_number = Match.Status.WAITING, None
                following.save(update_fields=["entry_a", "entry_b", "status", "table_number"])
        elif (
            not Match.objects.filter(tournament=locked, stage=Match.Stage.GROUP, group=found.group)
            .exclude(status=Match.Status.DECIDED)
            .exists()
        ):
            raise WrongState(
                _("Group %(group)s is complete: its players are placed, its results final.") % {"group": found.group}
            )
        found.status, found.winner, found.decided_at, found.decided_by = Match.Status.READY, None, None, None
        found.table_number = None
        found.save(update_fields=["status", "winner", "decided_at", "decided_by", "table_number"])
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_MATCH_UNDONE,
            subject=locked,
            before=before,
            after={**_record(found), "action": "undone"},
            reason=why,
            rows=[following, found] if following is not None else [found],
        )
        _tables_given(locked, who)
        tournament_changed(locked)
    return found
