"""What the tournament director types on the console, read one way: the structure and the payout table as
lines of text, the money of a new tournament and its entry rules, the structure generator's figures.

The text forms are the director's notation, the same one the console shows (``structure_text``, ``payouts_text``), so
a structure or a payout table is edited where it is read:

* a structure, one row a line: ``20 min 100/200``, ``20 min 200/400 bb ante 400 nlo``, ``7 hands 25/50``,
  ``15 min 25/50 ante 5``, ``break 15 min colour up 25``. Numbers may be grouped (``1,000``, ``1.000``, ``1 000``);
  German words are read too (``Pause``, ``Hände``, ``Farbwechsel``); a line starting with ``#`` is a note.
* a payout table, one band a line: ``1-10: 50/30/20``, ``201+: 24/15.5/11/…``: the field sizes, then each paid place's
  share in per cent (two decimals at most), first place first.

What is read here is only the shape; the rules (a level below the last, shares that do not add up to 100 %) are the
services' (``poker_room.pure.structure.structure_check``, ``poker_room.pure.payouts.bands_check``), which answer in the
director's words. A line that cannot be read is refused here, named by its number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino import numbers
from casino.errors import ApplicationError
from casino.forms import AmountField
from poker_room.pages import RefusingForm
from poker_room.pure.payouts import PayoutBand
from poker_room.pure.structure import AnteKind, Game, Level, LevelJson, LevelKind
from poker_room.tournaments.models import Tournament
from poker_room.tournaments.services import FORMAT_FIELDS
from rules.games.ofc import ROYALTY_TABLES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MOST_CENTS = 10**10  # a hundred million in money: more is a key held down
MOST_LINES = 200
_NUMBER = numbers.WHOLE_TYPED


def _number(text: str) -> int:
    read = numbers.read_whole(text)
    assert read is not None, text  # ``text`` is what ``_NUMBER`` matched
    return read


# --- the structure as text ------------------------------------------------------------------------------------------

# Each pattern is tried where the line is not read yet; what is left over is refused.
_LEVEL_PREFIX = re.compile(r"^\s*(?:level|stufe|lvl|l)\s*\d+\s*[:.)]?\s*", re.IGNORECASE)
_BREAK = re.compile(r"^\s*(?:break|pause)\b", re.IGNORECASE)
_MINUTES = re.compile(rf"(?<![\w/])({_NUMBER})\s*(?:minutes|minuten|mins|min|m)\b\.?", re.IGNORECASE)
_HANDS = re.compile(rf"(?<![\w/])({_NUMBER})\s*(?:hands|hand|hände|haende)\b", re.IGNORECASE)
_BLINDS = re.compile(rf"(?<![\w/])({_NUMBER})\s*/\s*({_NUMBER})(?![\w/])")
_BB_ANTE = re.compile(rf"\b(?:bb[- ]?ante|big[- ]blind[- ]ante|bba)\s*:?\s*({_NUMBER})(?!\w)", re.IGNORECASE)
_ANTE = re.compile(rf"\bante\s*:?\s*({_NUMBER})(?!\w)", re.IGNORECASE)
_COLOUR_UP = re.compile(
    rf"\b(?:colou?r[- ]?up|farbwechsel|färben|chip[- ]?race)\s*:?\s*({_NUMBER})(?!\w)", re.IGNORECASE
)
_GAME_WORDS: dict[str, str] = {
    **{game.value: game.value for game in Game},
    "holdem": Game.NLHE.value,
    "hold'em": Game.NLHE.value,
    "plo": Game.NLO.value,
    "5cd": Game.DRAW5.value,
}
_WORD = re.compile(r"[^\s,;]+")


@dataclass(frozen=True)
class _Read:
    """What is left of a line once a pattern took its part."""

    rest: str
    found: re.Match[str] | None


def _take(pattern: re.Pattern[str], text: str) -> _Read:
    match = pattern.search(text)
    if match is None:
        return _Read(text, None)
    return _Read(text[: match.start()] + " " + text[match.end() :], match)


def _line_refused(number: int, message: str) -> ApplicationError:
    return ApplicationError(
        _("Line %(line)s: %(message)s") % {"line": number, "message": message},
        extra={"field": "levels", "line": number},
    )


def _leftover(number: int, rest: str) -> None:
    words = _WORD.findall(rest)
    if words:
        raise _line_refused(number, _("“%(words)s” is not understood.") % {"words": " ".join(words)[:40]})


def _break_line(number: int, text: str) -> LevelJson:
    rest = _BREAK.sub(" ", text, count=1)
    read = _take(_MINUTES, rest)
    found = read.found
    if found is None:
        found = re.match(rf"^\s*({_NUMBER})\b", read.rest)
        if found is None:
            raise _line_refused(number, _("a break needs its length in minutes, like “break 15 min”."))
        read = _Read(read.rest[found.end() :], found)
    minutes = _number(found.group(1))
    colour = _take(_COLOUR_UP, read.rest)
    _leftover(number, colour.rest)
    level = Level(
        kind=LevelKind.BREAK,
        minutes=minutes,
        hands=None,
        colour_up=_number(colour.found.group(1)) if colour.found else None,
    )
    return level.as_dict()


def _level_line(number: int, text: str) -> LevelJson:
    minutes = _take(_MINUTES, text)
    hands = _take(_HANDS, minutes.rest)
    if minutes.found is None and hands.found is None:
        raise _line_refused(number, _("a level needs its length, like “20 min” or “7 hands”."))
    blinds = _take(_BLINDS, hands.rest)
    if blinds.found is None:
        raise _line_refused(number, _("a level needs its blinds, like “100/200”."))
    bb_ante = _take(_BB_ANTE, blinds.rest)
    ante = _take(_ANTE, bb_ante.rest)
    if bb_ante.found and ante.found:
        raise _line_refused(number, _("a level has one ante: a classic ante or a big-blind ante, not both."))
    rest = ante.rest
    game = ""
    for word in _WORD.findall(rest):
        code = _GAME_WORDS.get(word.lower())
        if code is None:
            continue
        if game:
            raise _line_refused(number, _("a level plays one game, not %(a)s and %(b)s.") % {"a": game, "b": code})
        game = code
        rest = re.sub(rf"(?<!\S){re.escape(word)}(?!\S)", " ", rest, count=1)
    _leftover(number, rest)
    if bb_ante.found:
        ante_value, ante_kind = _number(bb_ante.found.group(1)), AnteKind.BIG_BLIND
    elif ante.found:
        ante_value, ante_kind = _number(ante.found.group(1)), AnteKind.CLASSIC
    else:
        ante_value, ante_kind = 0, AnteKind.NONE
    level = Level(
        kind=LevelKind.LEVEL,
        minutes=_number(minutes.found.group(1)) if minutes.found else None,
        hands=_number(hands.found.group(1)) if hands.found else None,
        small_blind=_number(blinds.found.group(1)),
        big_blind=_number(blinds.found.group(2)),
        ante=ante_value,
        ante_kind=ante_kind if ante_value else AnteKind.NONE,
        game=game,
    )
    return level.as_dict()


def structure_parse(text: str) -> list[LevelJson]:
    """The structure typed as lines (the module's docstring) as the service's level dicts (``Level.as_dict``).

    >>> [(row["kind"], row["minutes"], row["big_blind"], row["ante_kind"]) for row in structure_parse(
    ...     "20 min 100/200\\n20 min 200/400 bb ante 400\\nbreak 15 min colour up 25")]
    [('level', 20, 200, 'none'), ('level', 20, 400, 'big_blind'), ('break', 15, 0, 'none')]
    """
    lines = str(text or "").splitlines()
    if len(lines) > MOST_LINES:
        raise ApplicationError(
            _("A structure has at most %(most)s lines.") % {"most": MOST_LINES}, extra={"field": "levels"}
        )
    rows = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line = _LEVEL_PREFIX.sub("", line, count=1)
        rows.append(_break_line(number, line) if _BREAK.match(line) else _level_line(number, line))
    if not rows:
        raise ApplicationError(
            _("Type the structure, one level or break a line, like “20 min 100/200”."), extra={"field": "levels"}
        )
    return rows


def _grouped(n: int) -> str:
    return numbers.whole(n)


def level_text(level: Level) -> str:
    """One row in the director's notation (``structure_parse`` reads it back)."""
    if level.is_break:
        text = f"break {level.minutes} min"
        return f"{text} colour up {_grouped(level.colour_up)}" if level.colour_up else text
    length = f"{level.minutes} min" if level.minutes is not None else f"{level.hands} hands"
    parts = [length, f"{_grouped(level.small_blind)}/{_grouped(level.big_blind)}"]
    if level.ante and level.ante_kind == AnteKind.BIG_BLIND:
        parts.append(f"bb ante {_grouped(level.ante)}")
    elif level.ante:
        parts.append(f"ante {_grouped(level.ante)}")
    if level.game:
        parts.append(level.game)
    return "  ".join(parts)


def structure_text(levels: Sequence[Level]) -> str:
    """A structure as the lines the director edits."""
    return "\n".join(level_text(level) for level in levels)


# --- the payout table as text ---------------------------------------------------------------------------------------

_BAND = re.compile(
    r"^\s*(\d+)\s*(?:(?:[-–—]|to|bis)\s*(\d+)|(\+|or more|und mehr|-|–))?\s*(?:players?|spieler)?\s*:\s*(.*)$",
    re.IGNORECASE,
)
_SHARE = re.compile(r"^(\d{1,3})(?:[.,](\d{1,2}))?%?$")


def percent_text(bp: int) -> str:
    """A share in basis points as per cent, in the page's decimal mark: 2500 → "25", 1250 → "12.5" ("12,5")."""
    whole, rest = divmod(int(bp), 100)
    return str(whole) if not rest else f"{whole}{numbers.decimal_mark()}{rest:02d}".rstrip("0")


def band_text(band: PayoutBand) -> str:
    players = f"{band.min_players}+" if band.max_players is None else f"{band.min_players}-{band.max_players}"
    return f"{players}: {'/'.join(percent_text(bp) for bp in band.shares_bp)}"


def payouts_text(bands: Sequence[PayoutBand]) -> str:
    """A payout table as the lines the director edits (``payouts_parse`` reads it back)."""
    return "\n".join(band_text(band) for band in bands)


def _band_refused(number: int, message: str) -> ApplicationError:
    return ApplicationError(
        _("Line %(line)s: %(message)s") % {"line": number, "message": message},
        extra={"field": "payouts", "line": number},
    )


def payouts_parse(text: str) -> list[PayoutBand]:
    """The payout table typed as lines (the module's docstring) as bands; shares in per cent become basis points.

    >>> payouts_parse("1-10: 50/30/20\\n11+: 50/25/15/10")[1]
    PayoutBand(min_players=11, max_players=None, shares_bp=(5000, 2500, 1500, 1000))
    """
    bands = []
    lines = str(text or "").splitlines()
    if len(lines) > MOST_LINES:
        raise ApplicationError(
            _("A payout table has at most %(most)s lines.") % {"most": MOST_LINES}, extra={"field": "payouts"}
        )
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _BAND.match(line)
        if match is None:
            raise _band_refused(number, _("write the field sizes, a colon and the shares, like “1-10: 50/30/20”."))
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else None if match.group(3) else low
        shares = []
        for word in re.split(r"[/;\s]+", match.group(4).strip()):
            if not word:
                continue
            share = _SHARE.match(word)
            if share is None:
                raise _band_refused(
                    number, _("“%(share)s” is not a share in per cent, like 25 or 12.5.") % {"share": word[:12]}
                )
            shares.append(int(share.group(1)) * 100 + int((share.group(2) or "0").ljust(2, "0")))
        if not shares:
            raise _band_refused(number, _("the band pays no place: add the shares, like “50/30/20”."))
        bands.append(PayoutBand(low, high, tuple(shares)))
    if not bands:
        raise ApplicationError(
            _("Type the payout table, one band a line, like “1-10: 50/30/20”."), extra={"field": "payouts"}
        )
    return bands


# --- forms ------------------------------------------------------------------------------------------------------------


def chips_parse(text: str) -> list[int]:
    """The house's chip values as typed: whole numbers apart by spaces or commas ("25 100 500 1000 5000")."""
    words = [word for word in re.split(r"[\s,;/]+", str(text or "")) if word]
    if not words or not all(word.isdecimal() and len(word) <= 9 for word in words):
        raise ApplicationError(
            _("List the chip values as whole numbers, like “25 100 500 1000 5000”."), extra={"field": "chips"}
        )
    return [int(word) for word in words]


def _amount(label: StrOrPromise, *, required: bool = False) -> AmountField:
    return AmountField(most_cents=MOST_CENTS, required=required, label=label)


class TournamentCreateKwargs(TypedDict):
    """What the form gives ``tournament_create`` (besides who acts)."""

    template_key: str
    name: str | None
    buy_in_cents: int
    fee_cents: int
    bounty_cents: int
    tables: int
    format: str | None


class TournamentCreateForm(RefusingForm):
    """A new tournament from a template: its name, its money, its tables (``tournament_create``)."""

    template_key = forms.CharField(max_length=40, label=gettext_lazy("Template"))
    name = forms.CharField(max_length=120, required=False, label=gettext_lazy("Name"))
    buy_in = _amount(gettext_lazy("Buy-in to the prize pool"), required=True)
    fee = _amount(gettext_lazy("House fee"))
    bounty = _amount(gettext_lazy("Bounty"))
    tables = forms.IntegerField(min_value=1, max_value=100, label=gettext_lazy("Tables"))
    format = forms.ChoiceField(
        choices=[("", ""), *Tournament.Format.choices], required=False, label=gettext_lazy("Format")
    )

    def create_kwargs(self) -> TournamentCreateKwargs:
        data = self.cleaned()
        return {
            "template_key": data["template_key"],
            "name": data["name"] or None,
            "buy_in_cents": data["buy_in"],
            "fee_cents": data["fee"] or 0,
            "bounty_cents": data["bounty"] or 0,
            "tables": data["tables"],
            "format": data["format"] or None,
        }


# The entry rules the console edits (``tournament_settings_set``): field → (label, kind). Money is typed as 25.00.
SETTINGS_FIELDS: dict[str, tuple[Any, str]] = {
    "late_registration_level": (gettext_lazy("Late registration until the end of level"), "count"),
    "reentries_max": (gettext_lazy("Re-entries a player may make"), "count"),
    "rebuys_max": (gettext_lazy("Rebuys an entry may make"), "count"),
    "rebuy_until_level": (gettext_lazy("Rebuys until the end of level"), "count"),
    "table_size": (gettext_lazy("Seats a table"), "count"),
    "rebuy_cents": (gettext_lazy("Rebuy to the prize pool"), "money"),
    "rebuy_fee_cents": (gettext_lazy("Rebuy house fee"), "money"),
    "rebuy_chips": (gettext_lazy("Rebuy chips"), "chips"),
    "addon_cents": (gettext_lazy("Add-on to the prize pool"), "money"),
    "addon_fee_cents": (gettext_lazy("Add-on house fee"), "money"),
    "addon_chips": (gettext_lazy("Add-on chips"), "chips"),
    "guarantee_cents": (gettext_lazy("Guaranteed prize pool"), "money"),
    "min_cash_cents": (gettext_lazy("Minimum cash"), "money"),
    "payout_unit_cents": (gettext_lazy("Prizes rounded to"), "money"),
    # The format and how a heads-up or an Open-Face points event runs.
    "format": (gettext_lazy("Format"), "choice"),
    "heads_up_mode": (gettext_lazy("Heads-up: groups or knock-out"), "choice"),
    "groups_up_to": (gettext_lazy("Heads-up: groups for a field of at most"), "count"),
    "group_size": (gettext_lazy("Heads-up: players a group"), "count"),
    "seeding": (gettext_lazy("Heads-up: seeding"), "choice"),
    "ofc_rounds": (gettext_lazy("Open-Face: rounds"), "count"),
    "ofc_hands_per_round": (gettext_lazy("Open-Face: hands a round"), "count"),
    "ofc_royalties": (gettext_lazy("Open-Face: royalties"), "choice"),
}


def setting_choices(name: str) -> list[tuple[str, str]]:
    """The values a ``choice`` setting takes, with their labels."""
    if name == "ofc_royalties":
        return [(key, key.capitalize()) for key in sorted(ROYALTY_TABLES)]
    field = Tournament._meta.get_field(name)
    choices = field.choices if isinstance(field, models.Field) else None
    return [(str(value), str(label)) for value, label in choices or ()]


# Fixed once the tournament has started (the model's triggers refuse them; the page shows them read-only).
MONEY_FIELDS = frozenset(
    (
        "rebuy_cents",
        "rebuy_fee_cents",
        "rebuy_chips",
        "addon_cents",
        "addon_fee_cents",
        "addon_chips",
        "guarantee_cents",
        "table_size",
        *FORMAT_FIELDS,
    )
)


class SettingsForm(RefusingForm):
    """The entry rules and the money rules of a tournament (a group of ``SETTINGS_FIELDS``)."""

    def __init__(self, data: Any, *, names: Sequence[str]) -> None:
        super().__init__(data)
        for name in names:
            label, kind = SETTINGS_FIELDS[name]
            if kind == "money":
                self.fields[name] = _amount(label, required=name == "payout_unit_cents")
            elif kind == "choice":
                self.fields[name] = forms.ChoiceField(choices=setting_choices(name), label=label)
            else:
                most = 10**9 if kind == "chips" else 1000
                self.fields[name] = forms.IntegerField(min_value=0, max_value=most, label=label, required=True)

    def values(self) -> dict[str, Any]:
        return {name: (0 if value is None else value) for name, value in self.cleaned().items()}


def settings_choices(names: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
    """The choices of each ``choice`` setting among ``names`` (the console's select boxes)."""
    return {name: setting_choices(name) for name in names if SETTINGS_FIELDS[name][1] == "choice"}


def settings_initial(tournament: Any, names: Sequence[str]) -> dict[str, str]:
    """The settings as the form shows them: money as 25.00, counts as numbers."""
    shown = {}
    for name in names:
        value = getattr(tournament, name)
        if SETTINGS_FIELDS[name][1] == "money":
            shown[name] = numbers.amount(value)
        elif SETTINGS_FIELDS[name][1] == "choice":
            shown[name] = str(value)
        else:
            shown[name] = str(value)
    return shown


class GenerateForm(RefusingForm):
    """The structure generator's figures (``poker_room.pure.structure.structure_generate``)."""

    starting_stack = forms.IntegerField(min_value=1, max_value=10**9, label=gettext_lazy("Starting stack"))
    level_minutes = forms.IntegerField(
        min_value=1, max_value=24 * 60, required=False, label=gettext_lazy("Level length (minutes)")
    )
    level_hands = forms.IntegerField(
        min_value=1, max_value=1000, required=False, label=gettext_lazy("Level length (hands)")
    )
    target_minutes = forms.IntegerField(
        min_value=10, max_value=7 * 24 * 60, label=gettext_lazy("Target duration (minutes)")
    )
    players = forms.IntegerField(min_value=2, max_value=10_000, label=gettext_lazy("Players expected"))
    chips = forms.CharField(max_length=200, label=gettext_lazy("The house's chips"))

    def clean_chips(self) -> list[int]:
        try:
            return chips_parse(self.cleaned_data["chips"])
        except ApplicationError as exc:
            raise forms.ValidationError(exc.message) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        both = "level_minutes" in data and "level_hands" in data
        if both and (data["level_minutes"] is None) == (data["level_hands"] is None):
            raise forms.ValidationError(_("A level lasts minutes or hands: give one of them."))
        return data
