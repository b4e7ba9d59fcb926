"""Reading a heads-up event's bracket from its matches: the stage the field plays first, each group's players, its
results and its standing (``poker_room.pure.brackets.group_table``). Shared by the writes and the pages; no query."""

from __future__ import annotations

from collections.abc import Sequence

from poker_room.heads_up.models import Match
from poker_room.pure.brackets import Standing, group_table
from poker_room.tournaments.models import Entry, Tournament


def stage_mode(tournament: Tournament, entries: int) -> str:
    """The first stage the field plays: "groups" or "knockout" (mode by field: groups up to ``groups_up_to``)."""
    mode = tournament.heads_up_mode
    if mode == Tournament.HeadsUpMode.BY_FIELD:
        return "groups" if entries <= tournament.groups_up_to else "knockout"
    return "groups" if mode == Tournament.HeadsUpMode.GROUPS else "knockout"


def group_players(matches: Sequence[Match]) -> dict[int, list[Entry]]:
    """Each group's players, in entry-number order: the standing's last tie-break ("the better seed") is the entry
    number, seeded or drawn (a drawn group's random order is not stored; the entry number is what the floor sees).
    """
    found: dict[int, dict[int, Entry]] = {}
    for match in matches:
        if match.stage != Match.Stage.GROUP or match.group is None:
            continue
        for entry in (match.entry_a, match.entry_b):
            if entry is not None:
                found.setdefault(match.group, {})[entry.pk] = entry
    return {group: sorted(players.values(), key=lambda e: e.number) for group, players in sorted(found.items())}


def group_results(matches: Sequence[Match], group: int) -> list[tuple[Entry, Entry]]:
    """(winner, loser) of each decided match of ``group``."""
    results = []
    for match in matches:
        if match.stage == Match.Stage.GROUP and match.group == group and match.status == Match.Status.DECIDED:
            assert match.entry_a is not None and match.entry_b is not None and match.winner is not None
            loser = match.entry_b if match.winner_id == match.entry_a_id else match.entry_a
            results.append((match.winner, loser))
    return results


def group_standing(matches: Sequence[Match], group: int, players: Sequence[Entry]) -> list[Standing[Entry]]:
    return group_table(players, group_results(matches, group))
