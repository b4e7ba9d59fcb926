"""The house-rule options of each game, their allowed values and defaults, and their validation.

Every option GAME_RULES.md names lives here once: its key, its type, the values it
may take and its default. Where an engine keeps a registry (house ways, foul
policies, points systems, royalty tables, rounding policies) the allowed values
are read from that registry, so a house way added to the engine is at once a
house way a rule set may name.

A rule set is a handful of settings every game shares (commission rate and
rounding, whether players pay commission on their wins, the banking mode) plus the
game's own options. ``rule_set_validate`` checks all of them together (including
the rules that tie two settings, such as "the peer variant has no bank") and
returns them complete, with every default filled in; ``snapshot_build`` turns that
into the frozen copy a round keeps and ``engine_options`` turns a snapshot into
the keyword arguments the engine functions take, so settling a round never reads
the live rule set again.

Chinese Poker and OFC have no bank and no commission: the house takes a rake or a
time charge instead (§3: "a rake or a time charge"). The rake is ``rake_bp``, basis
points of each player's net win of the round, rounded by the rule set's
commission rounding policy (it is computed by ``commission.commission_cents``);
the time charge is ``time_charge_cents`` per seat and half hour. A table takes one
or the other, or neither (the default: the seeds charge nothing).

Nothing here touches the database.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from rules.games import chinese_poker, ofc, paigow_poker, paigow_tiles, registry
from rules.games.commission import Rounding

# The games are the registry's (rules.games.registry): its keys, names and what each needs.
PAIGOW_TILES = registry.PAIGOW_TILES
PAIGOW_POKER = registry.PAIGOW_POKER
CHINESE_POKER = registry.CHINESE_POKER
OFC = registry.OFC

GAME_LABELS: Mapping[str, str] = {key: spec.name for key, spec in registry.GAMES.items()}
BANKED_GAMES = tuple(key for key, spec in registry.GAMES.items() if spec.bankable)
POINTS_GAMES = tuple(key for key, spec in registry.GAMES.items() if not spec.bankable)

HOUSE, PLAYER_ROTATION, CO_BANKING, NO_BANK = "house", "player_rotation", "co_banking", "none"
BANKING_MODES = (HOUSE, PLAYER_ROTATION, CO_BANKING, NO_BANK)
# Who may bank, per game: the house, players in turn (§1 "Banking rotation", §2 "A player
# may bank"), and co-banking, the house and a player covering half each (§2, PGP only).
# The points games and the tiles' peer variant (``mode = peer``) have no bank at all.
BANKING_MODES_BY_GAME: Mapping[str, tuple[str, ...]] = {
    PAIGOW_TILES: (HOUSE, PLAYER_ROTATION, NO_BANK),
    PAIGOW_POKER: (HOUSE, PLAYER_ROTATION, CO_BANKING),
    CHINESE_POKER: (NO_BANK,),
    OFC: (NO_BANK,),
}

MAX_BP = 10_000
MAX_TIME_CHARGE_CENTS = 100_000
SNAPSHOT_SCHEMA = 1


class RuleSetInvalid(ApplicationError):
    """A rule set option with a value the game does not allow; ``extra["field"]`` names it."""


@dataclass(frozen=True)
class Option:
    """One house-rule option: its key, what a pit boss calls it, its type, values and default."""

    key: str
    label: str
    default: bool | int | str
    choices: tuple[str, ...] = ()
    maximum: int = 0  # for whole-number options: 0 up to this

    @property
    def kind(self) -> type:
        return type(self.default)

    def said(self) -> str:
        """What a pit boss calls the option, in the active language."""
        return gettext(self.label)

    def value_said(self, value: object) -> str:
        """A value of the option as a pit boss reads it: on/off for a switch, a choice in words, a number as typed."""
        if self.kind is bool:
            return gettext("on") if value else gettext("off")
        words = CHOICE_WORDS.get(self.key, {}).get(str(value))
        return gettext(words) if words else str(value)


def _words(choices: tuple[str, ...]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(choices) == 1:
        return choices[0]
    return _("%(choices)s or %(last)s") % {"choices": ", ".join(choices[:-1]), "last": choices[-1]}


_FOUL_POLICY = gettext_noop("foul policy")
_RAKE = Option("rake_bp", gettext_noop("rake (basis points of a player's net win)"), 0, maximum=MAX_BP)
_TIME_CHARGE = Option(
    "time_charge_cents", gettext_noop("time charge (cents a seat each half hour)"), 0, maximum=MAX_TIME_CHARGE_CENTS
)

GAME_OPTIONS: Mapping[str, tuple[Option, ...]] = {
    PAIGOW_TILES: (
        Option("tiles_house_way", gettext_noop("house way"), "foxwoods", tuple(paigow_tiles.HOUSE_WAYS)),
        Option("foul_policy", _FOUL_POLICY, "forfeit", tuple(paigow_tiles.FOUL_POLICIES)),
        Option(
            "gee_joon_single_rank",
            gettext_noop("Gee Joon single rank"),
            "seed",
            tuple(paigow_tiles.GEE_JOON_SINGLE_RANKS),
        ),
        Option("zero_zero_copy", gettext_noop("zero against zero is a copy"), True),
        Option("mode", gettext_noop("mode"), "bank", ("bank", "peer")),
        Option("gee_joon_as_zero", gettext_noop("Gee Joon tiles count zero (peer variant)"), False),
        Option("peer_points", gettext_noop("gong 10 and wong 11 points (peer variant)"), False),
    ),
    PAIGOW_POKER: (
        Option("pgp_house_way", gettext_noop("house way"), "golden_nugget", tuple(paigow_poker.HOUSE_WAYS)),
        Option("foul_policy", _FOUL_POLICY, "forfeit", tuple(paigow_poker.FOUL_POLICIES)),
        Option("wheel_second_highest", gettext_noop("wheel (5-4-3-2-A) second-highest straight"), True),
        Option("joker_flush_as_ace", gettext_noop("joker in a flush is always an ace"), False),
        # §2: "the house (dealer) wagers the player's last bet against a player bank" (practice; on by default).
        Option("house_wager", gettext_noop("the house wagers the banker's last bet against a player bank"), True),
    ),
    CHINESE_POKER: (
        Option("cp_scoring", gettext_noop("points system"), "2-4", tuple(chinese_poker.POINTS_SYSTEMS)),
        Option("cp_royalties", gettext_noop("royalty table"), "seed", tuple(chinese_poker.ROYALTY_TABLES)),
        Option("naturals", gettext_noop("naturals"), True),
        Option("natural_vs_natural", gettext_noop("natural against natural"), "higher", ("higher", "push")),
        Option("surrender_allowed", gettext_noop("surrender"), False),
        Option("swap_allowed", gettext_noop("swap"), False),
        _RAKE,
        _TIME_CHARGE,
    ),
    OFC: (
        Option("ofc_royalties", gettext_noop("royalty table"), "mainz", tuple(ofc.ROYALTY_TABLES)),
        Option("fantasyland", gettext_noop("Fantasyland"), False),
        _RAKE,
        _TIME_CHARGE,
    ),
}

# The choices of the options in a user's words (the values are the engines' names, which the API and the snapshots
# keep); a choice missing here is shown as its value.
CHOICE_WORDS: Mapping[str, Mapping[str, str]] = {
    "tiles_house_way": {"foxwoods": gettext_noop("Foxwoods")},
    "pgp_house_way": {
        "golden_nugget": gettext_noop("Golden Nugget"),
        "trump_plaza": gettext_noop("Trump Plaza"),
        "foxwoods": gettext_noop("Foxwoods"),
        "trump_plaza_literal": gettext_noop("Trump Plaza, as its text reads"),
    },
    "foul_policy": {
        "forfeit": gettext_noop("the wager is lost"),
        "house_way": gettext_noop("re-set by the house way"),
    },
    "gee_joon_single_rank": {
        "seed": gettext_noop("4-2 above the mixed fives, 2-1 last (seed)"),
        "lowest": gettext_noop("both last, equal"),
    },
    "mode": {"bank": gettext_noop("banked"), "peer": gettext_noop("peer variant")},
    "cp_royalties": {"seed": gettext_noop("the seed's table"), "none": gettext_noop("none")},
    "natural_vs_natural": {"higher": gettext_noop("the higher wins"), "push": gettext_noop("a push")},
    "ofc_royalties": {"mainz": gettext_noop("Mainz"), "standard": gettext_noop("standard")},
    "banking_mode": {
        HOUSE: gettext_noop("the house banks"),
        PLAYER_ROTATION: gettext_noop("players bank in rotation"),
        CO_BANKING: gettext_noop("co-banking"),
        NO_BANK: gettext_noop("no bank"),
    },
}

# Options added after rule sets were first stored (the default rule sets of ``rules/migrations/0002`` lack them):
# a rule set read without one takes its default, and a round played under such a default rule set before the
# option existed froze a snapshot without it (``settlement.verify`` accepts that version of the defaults too).
OPTIONS_ADDED_LATER: Mapping[str, tuple[str, ...]] = {PAIGOW_POKER: ("house_wager",)}

# The settings every rule set has (model columns), with each game's default. Pai Gow Poker
# players pay 5% on their wins (§2, seed); in tiles only the bank does unless the house turns
# ``commission_on_player_wins`` on (§1). The points games take a rake, never a commission.
COMMON_DEFAULTS: Mapping[str, Mapping[str, Any]] = {
    PAIGOW_TILES: {
        "commission_rate_bp": 500,
        "commission_rounding": Rounding.CENT_DOWN.value,
        "commission_on_player_wins": False,
        "banking_mode": HOUSE,
    },
    PAIGOW_POKER: {
        "commission_rate_bp": 500,
        "commission_rounding": Rounding.CENT_DOWN.value,
        "commission_on_player_wins": True,
        "banking_mode": HOUSE,
    },
    CHINESE_POKER: {
        "commission_rate_bp": 0,
        "commission_rounding": Rounding.CENT_DOWN.value,
        "commission_on_player_wins": False,
        "banking_mode": NO_BANK,
    },
    OFC: {
        "commission_rate_bp": 0,
        "commission_rounding": Rounding.CENT_DOWN.value,
        "commission_on_player_wins": False,
        "banking_mode": NO_BANK,
    },
}
COMMON_FIELDS = ("commission_rate_bp", "commission_rounding", "commission_on_player_wins", "banking_mode")

# The rule set the data migration creates for each game, and tables get when none is named.
DEFAULT_RULE_SET_NAMES: Mapping[str, str] = {
    PAIGOW_TILES: "Pai Gow (tiles) — house rules (Foxwoods)",
    PAIGOW_POKER: "Pai Gow Poker — house rules (Golden Nugget)",
    CHINESE_POKER: "Chinese Poker — house rules (2-4, seed royalties)",
    OFC: "Open-Face Chinese Poker — house rules (Mainz)",
}


def game_label(game: str) -> str:
    return GAME_LABELS.get(game, game)


def check_game(game: object) -> str:
    if game not in GAME_LABELS:
        raise RuleSetInvalid(
            _("Unknown game %(game)s: choose %(games)s.") % {"game": repr(game), "games": _words(tuple(GAME_LABELS))},
            extra={"field": "game"},
        )
    return str(game)


def default_options(game: str) -> dict[str, Any]:
    """The game's own options at their GAME_RULES.md defaults."""
    return {option.key: option.default for option in GAME_OPTIONS[check_game(game)]}


def defaults(game: str) -> dict[str, Any]:
    """Every setting of a rule set for ``game`` at its default: the common ones and ``options``."""
    return {**COMMON_DEFAULTS[check_game(game)], "options": default_options(game)}


def _bad(field: str, message: str) -> RuleSetInvalid:
    return RuleSetInvalid(message, extra={"field": field})


def _where(game: str) -> str:
    return _("for %(game)s") % {"game": game_label(game)}


def _check_option(option: Option, value: object, game: str) -> bool | int | str:
    """The option's value, checked (its refusal says which game's option: translated only when it refuses)."""
    if option.kind is bool:
        if not isinstance(value, bool):
            raise _bad(
                option.key,
                _("The %(option)s (%(key)s) %(where)s is on or off (true or false), not %(value)s.")
                % {"option": gettext(option.label), "key": option.key, "where": _where(game), "value": repr(value)},
            )
        return value
    if option.kind is int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= option.maximum:
            span = _("a whole number from 0 to %(most)s") % {"most": option.maximum}
            raise _bad(
                option.key,
                _("The %(option)s (%(key)s) %(where)s is %(span)s, not %(value)s.")
                % {
                    "option": gettext(option.label),
                    "key": option.key,
                    "where": _where(game),
                    "span": span,
                    "value": repr(value),
                },
            )
        return value
    if value not in option.choices:
        raise _bad(
            option.key,
            _("Unknown %(option)s %(value)s %(where)s: choose %(choices)s.")
            % {
                "option": gettext(option.label),
                "value": repr(value),
                "where": _where(game),
                "choices": _words(option.choices),
            },
        )
    return str(value)


def _check_common(game: str, common: Mapping[str, Any]) -> dict[str, Any]:
    label = game_label(game)
    rate = common["commission_rate_bp"]
    if isinstance(rate, bool) or not isinstance(rate, int) or not 0 <= rate <= MAX_BP:
        raise _bad(
            "commission_rate_bp",
            _("The commission rate is in basis points, 0 to %(most)s (500 is 5%%), not %(value)s.")
            % {"most": MAX_BP, "value": repr(rate)},
        )
    rounding = common["commission_rounding"]
    roundings = tuple(r.value for r in Rounding)
    if rounding not in roundings:
        raise _bad(
            "commission_rounding",
            _("Unknown commission rounding %(value)s: choose %(choices)s.")
            % {"value": repr(rounding), "choices": _words(roundings)},
        )
    on_wins = common["commission_on_player_wins"]
    if not isinstance(on_wins, bool):
        raise _bad(
            "commission_on_player_wins",
            _("Commission on player wins is on or off (true or false), not %(value)s.") % {"value": repr(on_wins)},
        )
    banking = common["banking_mode"]
    allowed = BANKING_MODES_BY_GAME[game]
    if banking not in allowed:
        if banking not in BANKING_MODES:
            message = _("Unknown banking mode %(value)s: choose %(choices)s for %(game)s.") % {
                "value": repr(banking),
                "choices": _words(allowed),
                "game": label,
            }
        elif not registry.game(game).bankable:
            message = _("%(game)s has no bank: its banking mode is %(mode)s, not %(value)s.") % {
                "game": label,
                "mode": repr(NO_BANK),
                "value": repr(banking),
            }
        else:
            message = _("%(game)s cannot be banked %(value)s: choose %(choices)s.") % {
                "game": label,
                "value": repr(banking),
                "choices": _words(allowed),
            }
        raise _bad("banking_mode", message)
    if not registry.game(game).bankable and (rate or on_wins):
        raise _bad(
            "commission_rate_bp" if rate else "commission_on_player_wins",
            _(
                "%(game)s has no bank and takes no commission (set the rate to 0 and commission on player wins off): "
                "the house takes a rake or a time charge instead."
            )
            % {"game": label},
        )
    return {
        "commission_rate_bp": rate,
        "commission_rounding": str(rounding),
        "commission_on_player_wins": on_wins,
        "banking_mode": str(banking),
    }


def _check_tiles_mode(common: Mapping[str, Any], options: Mapping[str, Any]) -> None:
    """Pai Gow tiles: the peer variant has no bank, the banked game needs one; the peer rules need the peer mode."""
    if options["mode"] == "peer":
        # The peer variant (§1, Czech seed) has no banker, so nobody holds a bank or pays on it.
        if common["banking_mode"] != NO_BANK or common["commission_on_player_wins"]:
            raise _bad(
                "banking_mode",
                _("The peer variant has no banker: set the banking mode to %(mode)s and commission on player wins off.")
                % {"mode": repr(NO_BANK)},
            )
    else:
        if common["banking_mode"] == NO_BANK:
            raise _bad(
                "banking_mode",
                _(
                    "Banked Pai Gow needs a banker: choose %(house)s or %(rotation)s, "
                    "or set mode to 'peer' for the game without one."
                )
                % {"house": repr(HOUSE), "rotation": repr(PLAYER_ROTATION)},
            )
        for key in ("gee_joon_as_zero", "peer_points"):
            if options[key]:
                raise _bad(
                    key, _("%(key)s is a rule of the peer variant only: set mode to 'peer' to use it.") % {"key": key}
                )


def _check_naturals(common: Mapping[str, Any], options: Mapping[str, Any]) -> None:
    """Chinese Poker: natural against natural means nothing without naturals."""
    if options["natural_vs_natural"] != "higher" and not options["naturals"]:
        raise _bad("natural_vs_natural", _("Natural against natural has no meaning with naturals off."))


# The rules that tie two of a game's own options together, by game (a game without any is not listed).
_COMBINATION_CHECKS: Mapping[str, Callable[[Mapping[str, Any], Mapping[str, Any]], None]] = {
    PAIGOW_TILES: _check_tiles_mode,
    CHINESE_POKER: _check_naturals,
}


def _check_combinations(game: str, common: Mapping[str, Any], options: Mapping[str, Any]) -> None:
    """The rules that tie two settings together."""
    if not registry.game(game).bankable and options["rake_bp"] and options["time_charge_cents"]:
        raise _bad("rake_bp", _("The house takes a rake or a time charge, not both: set one of them to 0."))
    check = _COMBINATION_CHECKS.get(game)
    if check is not None:
        check(common, options)


def rule_set_validate(*, game: str, common: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """Check every setting of a rule set for ``game``; return them complete (defaults filled in).

    ``common`` holds any of ``COMMON_FIELDS``, ``options`` any of the game's own
    options; what is missing takes its default. Raises ``RuleSetInvalid`` with the
    first problem, in a pit boss's words.
    """
    game = check_game(game)
    unknown = sorted(set(common) - set(COMMON_FIELDS))
    if unknown:
        raise _bad(unknown[0], _("A rule set has no setting %(setting)s.") % {"setting": repr(unknown[0])})
    if not isinstance(options, Mapping):
        raise _bad("options", _("The options are a set of names and values, not %(value)s.") % {"value": repr(options)})
    known = {option.key: option for option in GAME_OPTIONS[game]}
    for key in options:
        if key not in known:
            raise _bad(
                str(key),
                _("%(game)s has no option %(key)s: its options are %(options)s.")
                % {"game": game_label(game), "key": repr(key), "options": _words(tuple(known))},
            )
    checked_common = _check_common(game, {**COMMON_DEFAULTS[game], **common})
    checked_options = {
        key: _check_option(option, options.get(key, option.default), game) for key, option in known.items()
    }
    _check_combinations(game, checked_common, checked_options)
    return {**checked_common, "options": checked_options}


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def snapshot_build(*, rule_set_id: int | None, name: str, game: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The frozen, JSON-ready copy of a rule set a round keeps.

    ``settings`` are the validated settings (``rule_set_validate``'s result). ``version``
    is a SHA-256 over the rules alone (game, common settings, options; not the name or
    id), so two snapshots with the same version settle every hand the same way.
    """
    rules = {"game": game, **{field: settings[field] for field in COMMON_FIELDS}, "options": dict(settings["options"])}
    version = hashlib.sha256(_canonical({"schema": SNAPSHOT_SCHEMA, **rules}).encode("utf-8")).hexdigest()
    return {"schema": SNAPSHOT_SCHEMA, "rule_set_id": rule_set_id, "name": name, **rules, "version": version}


def engine_options(snapshot: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The keyword arguments each engine function takes, from a snapshot (never the live rule set).

    Keys by game:

    * Pai Gow Poker: ``hand`` (``poker.high_hand``, ``paigow_poker.is_foul``),
      ``house_way`` and ``outcome`` (``paigow_poker``), ``commission``
      (``commission.commission_cents``).
    * Pai Gow tiles: ``hand`` (``paigow_tiles.hand_value``, ``settings``, ``is_foul``),
      ``house_way``, ``outcome`` and ``peer_results`` (``paigow_tiles``), ``commission``.
    * Chinese Poker: ``score`` and ``royalties`` (``chinese_poker``), ``rake``
      (``commission.commission_cents``).
    * OFC: ``score`` and ``royalties`` (``ofc``), ``rake``.
    """
    game = snapshot["game"]
    settings = rule_set_validate(
        game=game,
        common={field: snapshot[field] for field in COMMON_FIELDS},
        options=snapshot["options"],
    )
    return _ENGINE_OPTIONS[game](settings, settings["options"])


def _pgp_engine_options(settings: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    hand = {"wheel_second_highest": o["wheel_second_highest"], "joker_flush_as_ace": o["joker_flush_as_ace"]}
    return {
        "hand": hand,
        "house_way": {"way": o["pgp_house_way"], **hand},
        "outcome": {"foul_policy": o["foul_policy"], "way": o["pgp_house_way"], **hand},
        "commission": _money(settings),
    }


def _tiles_engine_options(settings: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    hand = {key: o[key] for key in ("gee_joon_single_rank", "zero_zero_copy", "gee_joon_as_zero", "peer_points")}
    outcome = {"foul_policy": o["foul_policy"], "way": o["tiles_house_way"], **hand}
    return {
        "hand": hand,
        "house_way": {"way": o["tiles_house_way"], **hand},
        "outcome": outcome,
        "peer_results": dict(outcome),
        "commission": _money(settings),
    }


def _cp_engine_options(settings: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        "score": {
            "scoring": o["cp_scoring"],
            "royalties": o["cp_royalties"],
            "natural_vs_natural": o["natural_vs_natural"],
            "naturals": o["naturals"],
        },
        "royalties": {"table": o["cp_royalties"]},
        "rake": _rake(settings, o),
    }


def _ofc_engine_options(settings: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        "score": {"royalties": o["ofc_royalties"], "fantasyland": o["fantasyland"]},
        "royalties": {"table": o["ofc_royalties"]},
        "rake": _rake(settings, o),
    }


def _money(settings: Mapping[str, Any]) -> dict[str, Any]:
    return {"rate_bp": settings["commission_rate_bp"], "rounding": settings["commission_rounding"]}


def _rake(settings: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, Any]:
    return {"rate_bp": o["rake_bp"], "rounding": settings["commission_rounding"]}


# How each game's options become its engine's keyword arguments (``engine_options``).
_ENGINE_OPTIONS: Mapping[str, Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, dict[str, Any]]]] = {
    PAIGOW_POKER: _pgp_engine_options,
    PAIGOW_TILES: _tiles_engine_options,
    CHINESE_POKER: _cp_engine_options,
    OFC: _ofc_engine_options,
}
