"""The pure modules' English strings, listed for the translators (``makemessages`` reads only literals in ``_()``).

The pure modules (``poker_room.pure``: ``structure``, ``payouts``, ``seating``, ``clock``, ``chip_race``, ``icm``,
``brackets``, ``league_points``, ``ofc_standings``) import nothing from Django, so their names and refusals are
English there; the services and pages translate them at runtime with ``gettext(text)``, which finds a translation
only if the English text is in the catalogue. Each literal here is the pure module's text exactly
(``tests/poker_room/test_pure_messages.py`` holds them to it). Refusals built with f-strings (a level's number, a
table's, an amount) cannot be listed: the services phrase those themselves or show them in English. The clock's fixed
refusals are listed where they are translated (``poker_room.tournaments.clock_services``). This list imports Django's
``gettext_noop``, so it stays outside the pure package.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from poker_room.pure.structure import GAME_NAMES as NAMES
from poker_room.pure.structure import GAME_RULE_LINES as LINES

# ``structure.GAME_NAMES``, translated by ``selectors`` and ``page_selectors``.
GAME_NAMES = (
    gettext_noop("No-Limit Hold'em"),
    gettext_noop("No-Limit Omaha"),
    gettext_noop("Omaha"),
    gettext_noop("Irish"),
    gettext_noop("Pineapple"),
    gettext_noop("5-Card Draw"),
)

# ``structure.GAME_RULE_LINES``, translated by ``selectors``.
GAME_RULE_LINES = (
    gettext_noop("two hole cards and five board cards; a bet may be any amount up to all of a player's chips."),
    gettext_noop("four hole cards, a hand uses exactly two of them with three of the board; no-limit betting."),
    gettext_noop("four hole cards; a hand uses exactly two of them with three of the five board cards."),
    gettext_noop("played as No-Limit Hold'em, but with four hole cards; each player discards two after the flop."),
    gettext_noop(
        "played as No-Limit Hold'em, but with three hole cards; each player still in discards one "
        "after the pre-flop betting."
    ),
    gettext_noop(
        "five cards each, a betting round, one draw (discard any and receive as many), a betting round, showdown."
    ),
)

# The seed's templates' own notes (``data/templates.json``), which end their rules line.
TEMPLATE_NOTES = (
    gettext_noop("No-Limit Hold'em and No-Limit Omaha alternate with every blind level."),
    gettext_noop(
        "The blinds stay the same for the whole event; the ante, paid from level 1, rises every level "
        "(e.g. 25/50 ante 5, then 25/50 ante 10)."
    ),
    gettext_noop(
        "One against one, in groups or knock-out depending on the number of players; the blinds go up every 7th hand."
    ),
    gettext_noop("Knock-out: a bounty on every player, paid to whoever eliminates them."),
    gettext_noop("The year's top 10; each player's starting stack is the league points they earned."),
)


def rules_text(rules: str) -> str:
    """A rules line (``templates_data.Template.rules``, kept with each tournament made from it) in the active
    language: each game's "name: rule line" and the template's note, translated piece by piece; whatever else a
    director wrote stays as written."""
    for game, name in NAMES.items():
        rule = LINES[game]
        rules = rules.replace(f"{name}: {rule}", f"{gettext(name)}: {gettext(rule)}")
    for note in TEMPLATE_NOTES:
        rules = rules.replace(note, gettext(note))
    return rules


# The pure modules' refusals that are fixed strings (no number in them), for a service that shows one translated.
REFUSALS = (
    # structure
    gettext_noop("A level needs its kind: 'level' or 'break'"),
    gettext_noop("A structure needs at least one level"),
    gettext_noop("A structure starts with a level, not a break"),
    gettext_noop("A level lasts minutes or hands: give one of them"),
    gettext_noop("A tournament needs at least two players"),
    gettext_noop("An Ante-Up event has an ante from level 1: choose the classic ante"),
    # payouts
    gettext_noop("The payout table has no bands."),
    gettext_noop("The payout table is a list of bands."),
    gettext_noop("A tournament with no entries pays no prizes."),
    # seating
    gettext_noop("A table number appears twice in the draw."),
    gettext_noop("Every seat is taken: open another table first."),
    gettext_noop("A table appears twice in the break order."),
    gettext_noop("A player draws twice at the final table."),
    gettext_noop("A table number appears twice."),
    # clock (beyond the refusals ``clock_services`` lists)
    gettext_noop("Skip at least one level, forward or back."),
    gettext_noop("Add or remove some time: at least one millisecond."),
    gettext_noop("The structure has no level."),
    # icm
    gettext_noop("A deal needs at least two players."),
    # brackets
    gettext_noop("A drawn bracket needs its random source"),
    gettext_noop("A group has at least two players"),
    gettext_noop("A heads-up event needs at least two players"),
    gettext_noop("A player appears twice in the field"),
    gettext_noop("A player appears twice in the group"),
    gettext_noop("A player cannot beat themselves"),
    gettext_noop("A result names a player who is not in the group"),
    # league_points
    gettext_noop("A buy-in, a prize pool or a prize is never negative"),
    gettext_noop("A negative number has no fractional power"),
    gettext_noop("An event without entries scores no points"),
    gettext_noop("Choose most events or fewest events as a tie-break, not both"),
    gettext_noop("Only + - * / ** % are allowed"),
    gettext_noop("Only numbers, the variables, + - * / ** %, parentheses and the listed functions are allowed"),
    gettext_noop("Points are never negative"),
    gettext_noop("The formula divides by zero"),
    gettext_noop("The formula is too long: write it with fewer parts"),
    gettext_noop("The formula's value is too large"),
    gettext_noop("The points table is empty: give the points for 1st place at least"),
    gettext_noop("Write the formula, for example 10 * sqrt(players) / sqrt(place)"),
    # ofc_standings
    gettext_noop("A player draws twice."),
    gettext_noop("An Open-Face tournament plays at least one round."),
)
