"""The table and its rules as the dealer tablet states them: the rule set in a few lines, and who banks the round."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rounds.models import BankTurn, Round
from rounds.states import RoundState
from rules import options as rule_options
from rules.games import registry
from tables.models import Table


def _percent(bp: int) -> str:
    return f"{bp / 100:g}%"


def _words(value: str) -> str:
    return value.replace("_", " ")


# What a foul costs, in the dealer's words (the option's values are the engines' names).
_FOUL_POLICIES = {
    "forfeit": gettext_lazy("the wager is lost"),
    "house_way": gettext_lazy("re-set by the house way"),
}


def _foul(policy: str) -> str:
    return _("foul: %(policy)s") % {"policy": _FOUL_POLICIES.get(policy, _words(policy))}


def _house_way_rules(way_option: str) -> Callable[[Mapping[str, Any]], list[str]]:
    """A banked game's rules: its house way (the option ``way_option``), foul policy and commission."""

    def rules(snapshot: Mapping[str, Any]) -> list[str]:
        o = snapshot["options"]
        items = [
            _("house way %(way)s") % {"way": _words(o[way_option]).title()},
            _foul(o["foul_policy"]),
        ]
        rate = _percent(snapshot["commission_rate_bp"])
        if snapshot["commission_on_player_wins"]:
            items.append(_("%(rate)s commission on player wins") % {"rate": rate})
        else:
            items.append(_("%(rate)s commission on the bank's win") % {"rate": rate})
        return items

    return rules


def _chinese_poker_rules(snapshot: Mapping[str, Any]) -> list[str]:
    o = snapshot["options"]
    items = [
        _("%(system)s scoring") % {"system": o["cp_scoring"]},
        _("%(table)s royalties") % {"table": o["cp_royalties"]},
        _("naturals") if o["naturals"] else _("no naturals"),
    ]
    if o.get("surrender_allowed"):
        items.append(_("surrender"))
    if o.get("swap_allowed"):
        items.append(_("swap (three players)"))
    return items


def _tiles_rules(snapshot: Mapping[str, Any]) -> list[str]:
    """Pai Gow tiles: the banked game's house way and commission, or the peer variant's own rules (§1)."""
    o = snapshot["options"]
    if o.get("mode") != "peer":
        return _house_way_rules("tiles_house_way")(snapshot)
    items = [
        _("peer variant: each player against each, equal stakes"),
        _foul(o["foul_policy"]),
    ]
    if o.get("gee_joon_as_zero"):
        items.append(_("Gee Joon tiles count 0"))
    if o.get("peer_points"):
        items.append(_("gong 10, wong 11"))
    return items


def _ofc_rules(snapshot: Mapping[str, Any]) -> list[str]:
    o = snapshot["options"]
    items = [_("%(table)s royalties") % {"table": o["ofc_royalties"].title()}]
    if o["fantasyland"]:
        items.append(_("Fantasyland"))
    return items


# Each game's own options in a few words (they differ per game, as ``rules.options.GAME_OPTIONS`` does).
_GAME_RULES: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = {
    registry.PAIGOW_TILES: _tiles_rules,
    registry.PAIGOW_POKER: _house_way_rules("pgp_house_way"),
    registry.CHINESE_POKER: _chinese_poker_rules,
    registry.OFC: _ofc_rules,
}


def rule_summary(snapshot: Mapping[str, Any]) -> list[str]:
    """The key options of a rule set in a few words each, for the table bar."""
    game, o = snapshot["game"], snapshot["options"]
    banking = {
        rule_options.HOUSE: _("the house banks"),
        rule_options.PLAYER_ROTATION: _("players bank in rotation"),
        rule_options.CO_BANKING: _("co-banking"),
        rule_options.NO_BANK: _("no bank"),
    }[snapshot["banking_mode"]]
    items = _GAME_RULES[game](snapshot)
    if not registry.game(game).bankable and o["rake_bp"]:
        items.append(_("rake %(rate)s") % {"rate": _percent(o["rake_bp"])})
    items.append(banking)
    return items


@dataclass
class Bank:
    """Who banks: ``seat`` (None: the house, or nobody when ``none``), for how many rounds in a row."""

    none: bool
    seat: int | None
    in_a_row: int
    bank_cents: int | None


def bank_of(round_: Round | None, snapshot: Mapping[str, Any]) -> Bank:
    if snapshot["banking_mode"] == rule_options.NO_BANK:
        return Bank(True, None, 0, None)
    if round_ is None:
        return Bank(False, None, 0, None)
    turn = BankTurn.objects.filter(round=round_).first()
    seat = round_.bank_seat.number if round_.bank_seat is not None else None
    return Bank(False, seat, turn.consecutive if turn is not None else 0, round_.bank_cents)


def last_bank_turn(table: Table) -> BankTurn | None:
    """The newest bank turn of a round that was not voided: who may bank next follows from it."""
    return (
        BankTurn.objects.filter(round__table=table)
        .exclude(round__state=RoundState.VOIDED)
        .select_related("seat", "round")
        .order_by("-round__number")
        .first()
    )
