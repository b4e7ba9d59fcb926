"""Signals of the tables app, for the apps above it to act on without the tables importing them.

The table's money (issue 16) moves in the one double-entry ledger, which lives above the tables
(``settlement.ledger``). A tables service that moves chips or cash calls ``chips_post`` inside its own transaction;
the ledger answers the signal with the posting it wrote (``settlement.apps``), so the movement and its posting are
written together or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

from casino.models import Shift
from tables.models import Table

# Sent with ``table``, ``shift``, ``kind`` (fill, credit, buy_in, drop), ``lines`` ((account, cents), summing to
# zero), ``actor`` and ``key`` (what is posted, unique): the ledger posts it and answers with the posting as its
# audit event records it.
chips_moved = Signal()

# Sent inside the count that makes a table's drop box final, with ``table`` and ``shift``: the pit builds the shift's
# Master Game Report once every box it waits for is final (``pit.apps``); a receiver does transactional work only.
drop_box_final = Signal()

# Sent under the table's lock as it closes (``tables.services.table_close``), with ``table``: a receiver refuses the
# close by raising ``WrongState`` (players: a rated player still seated there, ``players.rating``).
table_closing = Signal()

# Sent inside a buy-in's transaction (``tables.drop.buy_in_record``, and ``buy_in_void`` with the correcting row of
# the opposite amount), with ``buy_in``: a rating session seated there counts it (``players.rating``).
buy_in_recorded = Signal()

# What each movement takes out of one account and puts into another (DESIGN.md, "The table's money").
MOVES: dict[str, tuple[str, str]] = {
    "fill": ("cage", "tray"),  # chips from the cage to the table's tray
    "credit": ("tray", "cage"),  # chips from the tray back to the cage
    "buy_in": ("tray", "drop"),  # chips out of the tray to a player; the cash or marker into the drop box
    "drop": ("drop", "cage"),  # a counted box's cash and markers from the drop box to the cage
}


def chips_post(
    *, table: Table, shift: Shift, kind: str, cents: int, actor: AbstractBaseUser, key: str
) -> dict[str, Any]:
    """Post ``cents`` moved by ``kind`` (``MOVES``) at ``table`` in ``shift``; return the posting's record for the
    audit event of the service that moved them. Call it inside that service's transaction."""
    source, target = MOVES[kind]
    lines: Sequence[tuple[str, int]] = ((source, -cents), (target, cents))
    answers = [
        answer
        for _receiver, answer in chips_moved.send(
            sender=Table, table=table, shift=shift, kind=kind, lines=lines, actor=actor, key=key
        )
        if answer is not None
    ]
    if len(answers) != 1:
        raise ImproperlyConfigured(
            f"The ledger must post the table's money once; {len(answers)} receivers answered (settlement installed?)."
        )
    return answers[0]
