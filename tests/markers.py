"""A buy-in paid with a marker, made the one way the floor makes one (``players.credit``): the player rated at the
seat (seated there for the rating if nobody is), a credit line covering the marker set by a Credit manager, the
marker asked for at the seat with the player's signature and issued by a supervisor who did not ask for it."""

from __future__ import annotations

from django.contrib.auth.models import Group, User

from casino.roles import Role
from players.credit import credit_limit_cents, credit_line_set, credit_owing_cents, marker_issue, marker_request
from players.models import Marker, Player, RatingSeat
from players.services import player_create, session_start
from tables.models import BuyIn, Table


def _credit_manager() -> User:
    manager, _ = User.objects.get_or_create(username="carla_credit_desk")
    manager.groups.add(Group.objects.get_or_create(name=Role.CREDIT_MANAGER.value)[0])
    return manager


def marker_issued(*, table: Table, seat: int, amount_cents: int, asked_by: User, issued_by: User) -> Marker:
    """A numbered marker of ``amount_cents`` at ``seat`` of ``table``, its chips out of the tray as its buy-in."""
    rated = RatingSeat.objects.filter(table=table, seat_number=seat, ended_at__isnull=True).first()
    if rated is None:
        player = player_create(actor=asked_by, name=f"Marker player {table.name} {seat}", tier="Gold")
        session_start(actor=asked_by, player=player, table=table, seat=seat)
    else:
        player = Player.objects.get(sessions__pk=rated.session_id)
    needed = credit_owing_cents(player) + amount_cents
    if credit_limit_cents(player) < needed:
        credit_line_set(actor=_credit_manager(), player=player, limit_cents=needed)
    marker = marker_request(actor=asked_by, table=table, seat=seat, amount_cents=amount_cents, signed_name="Player")
    return marker_issue(actor=issued_by, marker=marker)


def marker_buy_in(*, table: Table, seat: int, amount_cents: int, asked_by: User, issued_by: User) -> BuyIn:
    """The buy-in of a marker issued as ``marker_issued`` makes it."""
    buy_in = marker_issued(
        table=table, seat=seat, amount_cents=amount_cents, asked_by=asked_by, issued_by=issued_by
    ).buy_in
    assert buy_in is not None
    return buy_in
