"""What the room display shows of a heads-up or an Open-Face points event in place of the clock.

A heads-up match's blinds go by its own hands and an Open-Face event plays rounds of hands: neither has the room's
clock. The display lists instead the matches being played (their table, the entry numbers, the blinds and which
hand of the level it is) or the round and its tables' hands with the standings' leaders. Entry numbers only, like
the rest of the display: the TV shows no player's name. The lines of a version are kept in the cache like the
board's figures (``poker_room.tournaments.selectors``): the first screen after a change reads them, the rest of the room
gets them from the cache.
"""

from __future__ import annotations

from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _

from casino import numbers
from poker_room.display import live
from poker_room.heads_up.models import Match
from poker_room.ofc_events.selectors import hands_played, ofc_standings, round_tables
from poker_room.pure.brackets import BracketError, blinds_at
from poker_room.pure.structure import Level, StructureError, structure_from_dicts
from poker_room.tournaments.models import Tournament

LINES_SECONDS = 600
LEADERS = 5  # the standings' top lines on the TV


def _grouped(value: int) -> str:
    return numbers.whole(value)


def _levels(tournament: Tournament) -> tuple[Level, ...]:
    try:
        return structure_from_dicts(tournament.levels)
    except (StructureError, TypeError, ValueError):
        return ()  # an unreadable structure: the matches are listed without their blinds


def _heads_up_lines(tournament: Tournament) -> list[str]:
    matches = (
        Match.objects.filter(tournament=tournament, status=Match.Status.READY, table_number__isnull=False)
        .select_related("entry_a", "entry_b")
        .order_by("table_number")
    )
    levels = _levels(tournament)
    lines = []
    for match in matches:
        if match.entry_a is None or match.entry_b is None:
            continue
        players = _("Table %(table)s: #%(a)s v #%(b)s") % {
            "table": match.table_number,
            "a": match.entry_a.number,
            "b": match.entry_b.number,
        }
        try:
            now = blinds_at(levels, match.hands)
        except BracketError:
            lines.append(players)
            continue
        lines.append(
            _("%(players)s · level %(level)s, %(small)s / %(big)s, hand %(hand)s of %(of)s")
            % {
                "players": players,
                "level": now.level_number,
                "small": _grouped(now.level.small_blind),
                "big": _grouped(now.level.big_blind),
                "hand": now.hand_in_level,
                "of": now.hands_in_level,
            }
        )
    return lines


def _ofc_lines(tournament: Tournament) -> list[str]:
    lines = []
    if tournament.ofc_round:
        lines.append(
            _("Round %(round)s of %(rounds)s, %(hands)s hands a round")
            % {"round": tournament.ofc_round, "rounds": tournament.ofc_rounds, "hands": tournament.ofc_hands_per_round}
        )
        played_at = hands_played(tournament, tournament.ofc_round)
        for table in sorted(round_tables(tournament)):
            played = played_at.get(table, 0)
            lines.append(
                _("Table %(table)s: %(played)s of %(hands)s hands played")
                % {"table": table, "played": played, "hands": tournament.ofc_hands_per_round}
            )
    for standing in ofc_standings(tournament)[:LEADERS]:
        lines.append(
            _("%(rank)s. #%(entry)s · %(points)s points")
            % {"rank": standing["rank"], "entry": standing["entry"], "points": standing["points"]}
        )
    return lines


def format_lines(tournament: Tournament) -> list[str]:
    """The display's lines for a heads-up or an Open-Face points event (none for a chip tournament), cached under
    the tournament's version and the screen's language."""
    if tournament.format == Tournament.Format.CHIPS or tournament.status == Tournament.Status.PLANNED:
        return []
    key = live.floor_key("lines", tournament.pk, tournament.version, translation.get_language() or "en")
    cached = cache.get(key)
    if isinstance(cached, list):
        return cached
    lines = (_heads_up_lines if tournament.format == Tournament.Format.HEADS_UP else _ofc_lines)(tournament)
    cache.set(key, lines, LINES_SECONDS)
    return lines
