"""Pai Gow Poker advice as the tablet and the API ask for it: exact against every bank hand once the house way's
flush memo is ready in the process, sampled (with its margin) until then.

The memo of a way is set once per installation and kept in ``VAR_DIR/paigow-poker`` (``manage.py
paigow_poker_tables`` sets every way's at install time; otherwise the first tablet that needs it sets it in the
background, about five seconds); a process reads it from there in a fraction of a second."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings

from rules.games import paigow_poker_advice
from rules.games.cards import Card


def tables_directory() -> Path:
    return Path(settings.VAR_DIR) / "paigow-poker"


def pgp_warm_up(house_way: dict[str, Any]) -> None:
    """Make the advice for this house way (``engine_options(...)["house_way"]``) exact, in the background."""
    paigow_poker_advice.warm_up_in_background(**house_way, directory=tables_directory())


def pgp_advise(
    cards: Sequence[Card], *, commission_bp: int, commission_on_player_wins: bool, outcome: dict[str, Any]
) -> paigow_poker_advice.Advice:
    """The 21 settings' odds and EVs under the rules ``outcome`` (``engine_options(...)["outcome"]``)."""
    advice = paigow_poker_advice.advise(
        cards, commission_bp=commission_bp, commission_on_player_wins=commission_on_player_wins, **outcome
    )
    if not advice.exact:
        pgp_warm_up({key: value for key, value in outcome.items() if key != "foul_policy"})
    return advice
