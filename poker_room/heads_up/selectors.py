"""What the pages show of a heads-up event: the bracket (groups with their standings, knock-out rounds as
columns), one match on the dealer's tablet with its blinds by hands, and the console's part (``console_context``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from poker_room.floor import can_act_at_tournament_table
from poker_room.heads_up.bracket import group_players, group_standing, stage_mode
from poker_room.heads_up.models import Match
from poker_room.pure.brackets import BlindsNow, BracketError, Standing, blinds_at
from poker_room.tournaments.models import Entry, Tournament, TournamentTable
from poker_room.tournaments.page_selectors import safe_levels


def round_title(matches: int, *, play_in: bool = False) -> str:
    """A knock-out round's name (``brackets.round_name``, translated)."""
    if play_in:
        return _("First round")
    names = {1: _("Final"), 2: _("Semi-final"), 4: _("Quarter-final")}
    return names.get(matches) or _("Round of %(players)s") % {"players": matches * 2}


@dataclass(frozen=True)
class MatchLine:
    """A match as a page lists it: its players (or where each comes from), its table, hands, blinds and winner."""

    match: Match
    a: Entry | None
    b: Entry | None
    a_from: str
    b_from: str
    blinds: BlindsNow | None

    @property
    def decided(self) -> bool:
        return self.match.status == Match.Status.DECIDED

    @property
    def playing(self) -> bool:
        return self.match.status == Match.Status.READY and self.match.table_number is not None


@dataclass(frozen=True)
class RoundColumn:
    number: int
    name: str
    matches: list[MatchLine]

    @property
    def over(self) -> bool:
        return all(line.decided for line in self.matches)


@dataclass(frozen=True)
class GroupBox:
    number: int
    standing: list[Standing[Entry]]
    matches: list[MatchLine]

    @property
    def over(self) -> bool:
        return all(line.decided for line in self.matches)


@dataclass(frozen=True)
class BracketView:
    """The whole bracket: ``drawn`` once matches exist; ``mode`` the first stage the field plays (or would)."""

    tournament: Tournament
    drawn: bool
    mode: str
    groups: list[GroupBox] = field(default_factory=list)
    rounds: list[RoundColumn] = field(default_factory=list)

    @property
    def current(self) -> RoundColumn | GroupBox | None:
        """The knock-out round being played, else (groups still on) None: the console lists the playing matches."""
        return next((column for column in self.rounds if not column.over), None)

    @property
    def playing(self) -> list[MatchLine]:
        lines = [line for box in self.groups for line in box.matches] + [
            line for column in self.rounds for line in column.matches
        ]
        return [line for line in lines if line.playing]

    @property
    def waiting_for_table(self) -> list[MatchLine]:
        lines = [line for box in self.groups for line in box.matches] + [
            line for column in self.rounds for line in column.matches
        ]
        return [line for line in lines if line.match.status == Match.Status.READY and line.match.table_number is None]


def _blinds(tournament: Tournament, hands: int) -> BlindsNow | None:
    try:
        return blinds_at(safe_levels(tournament), hands)
    except BracketError:
        return None


def bracket_view(tournament: Tournament) -> BracketView:
    """The bracket of ``tournament``, read in three queries."""
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("entry_a", "entry_b", "winner")
        .order_by("stage", "round", "number")
    )
    active = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    mode = stage_mode(tournament, active) if not matches else ("groups" if matches[0].stage == "group" else "knockout")
    feeders = {(m.next_match_id, m.next_side): m for m in matches if m.next_match_id is not None}

    def line(match: Match) -> MatchLine:
        def came_from(side: str) -> str:
            feeder = feeders.get((match.pk, side))
            return _("Winner of match %(number)s") % {"number": feeder.number} if feeder else ""

        return MatchLine(
            match=match,
            a=match.entry_a,
            b=match.entry_b,
            a_from=came_from("a"),
            b_from=came_from("b"),
            blinds=_blinds(tournament, match.hands) if match.status == Match.Status.READY else None,
        )

    boxes = [
        GroupBox(
            number=group,
            standing=group_standing(matches, group, members),
            matches=[line(m) for m in matches if m.stage == Match.Stage.GROUP and m.group == group],
        )
        for group, members in group_players(matches).items()
    ]
    knockout = [m for m in matches if m.stage == Match.Stage.KNOCKOUT]
    by_round: dict[int, list[Match]] = {}
    for match in knockout:
        by_round.setdefault(match.round, []).append(match)
    play_in = len(by_round) >= 2 and len(by_round[1]) < 2 * len(by_round[2])
    rounds = [
        RoundColumn(
            number=number,
            name=round_title(len(round_matches), play_in=play_in and number == 1),
            matches=[line(m) for m in round_matches],
        )
        for number, round_matches in sorted(by_round.items())
    ]
    return BracketView(tournament=tournament, drawn=bool(matches), mode=mode, groups=boxes, rounds=rounds)


@dataclass(frozen=True)
class MatchPage:
    """One match on the dealer's tablet."""

    tournament: Tournament
    line: MatchLine
    table: TournamentTable | None
    title: str


def match_page(tournament: Tournament, match_id: int) -> MatchPage | None:
    match = (
        Match.objects.filter(tournament=tournament, pk=match_id).select_related("entry_a", "entry_b", "winner").first()
    )
    if match is None:
        return None
    view = bracket_view(tournament)
    lines = [line for column in view.rounds for line in column.matches] + [
        line for box in view.groups for line in box.matches
    ]
    found = next(line for line in lines if line.match.pk == match.pk)
    if match.stage == Match.Stage.GROUP:
        title = _("Group %(group)s · round %(round)s") % {"group": match.group, "round": match.round}
    else:
        title = next(column.name for column in view.rounds if column.number == match.round)
    table = (
        TournamentTable.objects.filter(tournament=tournament, number=match.table_number)
        .select_related("dealer")
        .first()
        if match.table_number is not None
        else None
    )
    return MatchPage(tournament=tournament, line=found, table=table, title=title)


def dealer_matches(tournament: Tournament, user: User | AnonymousUser) -> list[Match]:
    """The matches being played at tables ``user`` may act at (the dealer's own tables; every table for the
    director)."""
    playing = Match.objects.filter(
        tournament=tournament, status=Match.Status.READY, table_number__isnull=False
    ).select_related("entry_a", "entry_b")
    tables = {table.number: table for table in TournamentTable.objects.filter(tournament=tournament)}
    return [
        match
        for match in playing
        if match.table_number is not None and can_act_at_tournament_table(user, tables.get(match.table_number))
    ]


class HeadsUpConsoleContext(TypedDict, total=False):
    heads_up: BracketView  # a heads-up event only


def console_context(tournament: Tournament, user: User | AnonymousUser) -> HeadsUpConsoleContext:
    """The console's heads-up part: the bracket (drawn or not)."""
    if tournament.format != Tournament.Format.HEADS_UP:
        return {}
    return {"heads_up": bracket_view(tournament)}


def match_at_table(tournament: Tournament, table_number: int) -> Match | None:
    """The match being played at a tournament table (for the table's tablet to link to)."""
    return (
        Match.objects.filter(tournament=tournament, table_number=table_number)
        .exclude(status=Match.Status.DECIDED)
        .select_related("entry_a", "entry_b")
        .first()
    )
