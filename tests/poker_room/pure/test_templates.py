"""Every event of the seed's tournament list is a template with the seed's stack, level length and game(s).

The seed's text (German, copied verbatim into data/) is parsed here, independently of the templates' JSON,
and each template is checked against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from poker_room.pure.structure import DEFAULT_CHIPS, GAME_RULE_LINES, Game, structure_check
from poker_room.pure.templates_data import Template, UnknownTemplate, template, template_structure, templates

SEED = Path(__file__).parent / "data" / "poker_varianten_turniere.txt"
NO_GAME = ()


@dataclass(frozen=True)
class SeedEvent:
    name: str
    stack: int | None  # None: the league points
    minutes: int | None
    hands: int | None
    games: tuple[str, ...]  # empty: the seed names no game
    knockout: bool
    heads_up: bool
    ante_up: bool


def _games(body: str) -> tuple[str, ...]:
    if "Ein Mix aus No Limit Holdem und No Limit Omaha" in body:
        return ("nlhe", "nlo")
    if "5 Card Draw" in body or "bekommt 5 Karten" in body:
        return ("draw5",)
    if "Pineapple" in body:
        return ("pineapple",)
    if re.search(r"4 Karten bekommt, sich nach dem Flop aber von 2 Karten trennen", body):
        return ("irish",)
    if re.search(r"Omaha", body) and re.search(r"4 verdeckte Karten\. Davon werden 2", body):
        return ("omaha",)
    if "No Limit Holdem" in body:
        return ("nlhe",)
    return NO_GAME


def parse_seed() -> list[SeedEvent]:
    """Events are the blocks between level-length lines; a block's first line is the event's name."""
    lines = [line for line in SEED.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert lines[0].startswith("Wie das Turnier abläuft")
    events, block = [], []
    for line in lines[1:]:
        block.append(line)
        minutes = re.fullmatch(r"(\d+) Minuten Blinds\.", line)
        hands = re.fullmatch(r"Blinderhöhung nach jeder (\d+)\. Hand\.", line)
        if not (minutes or hands):
            continue
        name, body = block[0], "\n".join(block)
        stack_match = re.search(r"^Starting Stack ([\d ]+) Chips\.$", body, re.MULTILINE)
        points = "Starting Stack ist die Anzahl der erspielten Punkte." in body
        assert bool(stack_match) != points, name
        events.append(
            SeedEvent(
                name=name.replace(" - ", " "),
                stack=int(stack_match.group(1).replace(" ", "")) if stack_match else None,
                minutes=int(minutes.group(1)) if minutes else None,
                hands=int(hands.group(1)) if hands else None,
                games=_games(body),
                knockout=bool(re.search(r"\bKO\b", body)),
                heads_up="Eins gegen Eins" in body,
                ante_up="Ante Up" in name,
            )
        )
        block = []
    assert block == ["Finale Turnierstrukturen dann in den jeweiligen Turniereinladungen!"]
    return events


SEED_EVENTS = parse_seed()


def _by_name(name: str) -> Template:
    matches = [t for t in templates() if t.name == name]
    assert len(matches) == 1, f"{name!r}: {len(matches)} templates"
    return matches[0]


def test_the_seed_lists_seventeen_events_and_there_are_seventeen_templates() -> None:
    assert len(SEED_EVENTS) == 17
    assert len(templates()) == 17
    assert sorted(t.name for t in templates()) == sorted(event.name for event in SEED_EVENTS)


@pytest.mark.parametrize("event", SEED_EVENTS, ids=lambda event: event.name)
def test_each_template_has_the_seeds_stack_level_length_and_games(event: SeedEvent) -> None:
    t = _by_name(event.name)
    assert t.starting_stack == event.stack
    assert t.stack_from_points is (event.stack is None)
    assert (t.level_minutes, t.level_hands) == (event.minutes, event.hands)
    if event.games == NO_GAME:
        assert "names no game" in t.source
        assert t.games == ("nlhe",)  # as GAME_RULES.md §5 has it
    else:
        assert t.games == event.games
    assert (t.knockout, t.heads_up, t.ante_up) == (event.knockout, event.heads_up, event.ante_up)
    assert t.table_size == (2 if event.heads_up else 9)


def test_the_seed_names_no_game_for_the_msop_main_event_and_the_ante_up() -> None:
    assert [event.name for event in SEED_EVENTS if event.games == NO_GAME] == ["MSOP Ante Up", "MSOP Main Event"]


@pytest.mark.parametrize(
    ("key", "phrases"),
    [
        ("msop_irish", ["four hole cards", "discards two after the flop"]),
        ("halloween_day", ["three hole cards", "discards one after the pre-flop betting"]),
        ("msop_omaha", ["exactly two of them with three of the five board cards"]),
        ("msop_5_card_draw", ["five cards", "one draw", "showdown"]),
        ("msop_ante_up", ["blinds stay the same", "ante, paid from level 1, rises every level"]),
        ("mainzer_poker_masters", ["No-Limit Hold'em:", "No-Limit Omaha:", "alternate with every blind level"]),
        ("zocktoberfest", ["Knock-out", "bounty"]),
        ("msop_heads_up", ["One against one", "every 7th hand"]),
        ("master_class", ["league points"]),
    ],
)
def test_the_rules_line_says_what_the_director_must_tell_the_players(key: str, phrases: list[str]) -> None:
    rules = template(key).rules
    for phrase in phrases:
        assert phrase in rules


def test_every_template_shows_its_games_rule_lines() -> None:
    for t in templates():
        for game in t.games:
            assert GAME_RULE_LINES[Game(game)] in t.rules, t.key


@pytest.mark.parametrize("t", templates(), ids=lambda t: t.key)
def test_every_templates_default_structure_passes_the_check(t: Template) -> None:
    structure = template_structure(t)
    structure_check(structure, chips=DEFAULT_CHIPS)
    levels = [level for level in structure if not level.is_break]
    assert {level.game for level in levels} == set(t.games)
    assert all((level.minutes, level.hands) == (t.level_minutes, t.level_hands) for level in levels)


def test_the_master_class_stack_is_the_points_given() -> None:
    small = template_structure(template("master_class"), points_stack=2_000)
    large = template_structure(template("master_class"), points_stack=40_000)
    assert small[0].big_blind < large[0].big_blind


def test_the_mainzer_poker_masters_alternates_its_games_with_every_level() -> None:
    levels = [level for level in template_structure(template("mainzer_poker_masters")) if not level.is_break]
    assert [level.game for level in levels[:4]] == ["nlhe", "nlo", "nlhe", "nlo"]


def test_the_heads_up_structure_raises_the_blinds_every_seventh_hand_without_breaks() -> None:
    structure = template_structure(template("msop_heads_up"), players=64)
    assert all(level.hands == 7 and level.minutes is None for level in structure)
    assert not any(level.is_break for level in structure)


def test_an_unknown_key_is_refused_by_name() -> None:
    with pytest.raises(UnknownTemplate, match="No template 'wsop_main'"):
        template("wsop_main")


def test_the_templates_are_read_once() -> None:
    assert templates() is templates()
