"""The players' side of a tournament (GAME_RULES.md §5): registration, re-entry, rebuys and add-ons
here; a player out and a mistaken bust undone in ``poker_room.tournaments.eliminations``. Each write locks the
tournament's row, refuses in the director's words what the rules do not allow (nothing written), and writes the change,
its postings, its seat moves and its audit event together (``poker_room.tournaments.money`` for the lines and keys;
``poker_room.floor`` for who may act and the seats).

The rules, and what this module chose where the rules are silent:

* **Registration** is open while the tournament is planned and, once running, until the end of
  ``late_registration_level`` (levels counted without breaks, ``clock_services.current_level_number``): the break
  right after that level still counts as open, as card rooms run it. ``late_registration_level`` 0 closes it at the
  start. A late entry draws a random seat at a table with the fewest players (``seating.seat_late_entry``); one that
  opens a table (every other seat taken) does not sit there alone: the floor is balanced at once. An entry
  names a player of the players app (``player_id``) or just a name; a player with an entry in the tournament does not
  register again: while in, they are in; once out, it is a re-entry.
* **Places**: a player out is placed by the players still in before the bust. An entry that comes later (late
  registration, a re-entry) moves every player already out one place down, so that the places of the results sheet
  run from the number of entries (the first out) to 1 (the winner); the elimination row keeps the place at the bust.
* **Re-entry**: a busted entry, while registration is open, at most ``reentries_max`` re-entries a player (counted
  along the chain of re-entries); a new entry with the starting stack.
* **Rebuys**: an active entry, once the tournament runs, while the level is at most ``rebuy_until_level`` (the break
  after it included), at most ``rebuys_max`` an entry. Whether the stack is at or below the starting stack is the
  director's call at the table, not recorded here.
* **Add-on**: one an entry, when ``addon_chips`` > 0, during the break right after the rebuy period (the break after
  level ``rebuy_until_level``) or, when the structure has no break there, during the level after it.
* **Bounties**: fixed (the eliminator is paid the busted player's bounty) or progressive (half to the eliminator,
  half added to the eliminator's own bounty, the odd cent to the payment); the winner is paid their own bounty.
* **A player out**: placed by the players still in before the bust; paid if the place is paid for the field
  (``payouts.prizes``); the first paid bust makes the prize pool final (the overlay posted if the guarantee is
  above what was collected), and from then on no entry, re-entry, rebuy or add-on. Then the floor is balanced
  (``seating.rebalance``: tables broken in order, the final table redrawn). With one player left, that player is
  placed 1st (an elimination row with no eliminator, with their prize and own bounty) and the tournament finishes.
* **Undo**: only the latest bust still in force (later ones first), with a reason; its prize and bounty postings are
  reversed, a progressive bounty's added half taken back, and the player sits down again: in their seat if it is
  free (its table not broken), else at a random free seat of the shortest table, else at their own table opened
  again. Balancing moves made after the bust stay as they are (TDA practice: a table balanced is not unbalanced
  again). Undoing the runner-up's bust takes the win back and the tournament runs again; the win alone, or the bust
  of a player who has re-entered since, is not undone (``poker_room.tournaments.eliminations``).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from ledger.models import Posting
from ledger.services import post, posting_record
from players.models import Player
from poker_room.display.live import tournament_changed
from poker_room.floor import (
    MOST_CHIPS,
    Requester,
    entry_name,
    entry_of,
    entry_record,
    locked_tournament,
    ordinal,
    person,
    refuse_finished,
    refuse_pool_final,
    require_runner,
    said,
    system_rng,
    text,
    whole,
)
from poker_room.pure.seating import SeatingError, seat_late_entry
from poker_room.pure.structure import Level
from poker_room.tournaments import money
from poker_room.tournaments.clock_services import clock_now, current_level_number, level_number, tournament_levels
from poker_room.tournaments.models import Entry, Purchase, Tournament
from poker_room.tournaments.seats import MoveRecord, lone_player_balanced, moves_apply, table_seats, tables_in_play

# --- the windows: registration, rebuys, the add-on ----------------------------------------------------------------


def registration_refusal(tournament: Tournament, now: dt.datetime) -> str | None:
    """Why the tournament takes no entry now (None: it does): finished, the pool final, or past late registration."""
    if tournament.status == Tournament.Status.FINISHED:
        return _("%(name)s has finished: its results are final.") % {"name": tournament.name}
    if tournament.pool_locked_at is not None:
        return _("The prize pool is final; the money has started.")
    if tournament.status == Tournament.Status.PLANNED:
        return None
    if tournament.format != Tournament.Format.CHIPS:  # a bracket drawn, or the rounds' tables: nobody comes late
        return _("Registration closed at the start.")
    last = tournament.late_registration_level
    if current_level_number(tournament, now) <= last:
        return None
    if last == 0:
        return _("Registration closed at the start.")
    return _("Registration closed after level %(level)s.") % {"level": last}


def addon_row(levels: tuple[Level, ...], rebuy_until_level: int) -> int | None:
    """The row of the structure in which the add-on is taken: the break right after level ``rebuy_until_level``,
    else the level after it (None: the structure has neither)."""
    rows = [index for index, level in enumerate(levels) if not level.is_break]
    if 0 < rebuy_until_level <= len(rows):
        after = rows[rebuy_until_level - 1] + 1
        if after < len(levels) and levels[after].is_break:
            return after
    return rows[rebuy_until_level] if rebuy_until_level < len(rows) else None


def _addon_refusal(tournament: Tournament, now: dt.datetime) -> str | None:
    levels = tournament_levels(tournament)
    row = addon_row(levels, tournament.rebuy_until_level)
    if row is None:
        return _("The structure has no level after the rebuy period: there is no time for the add-on.")
    if clock_now(tournament, now).level == row:
        return None
    number = level_number(levels, row)
    if levels[row].is_break:
        return _("The add-on is taken at the break after level %(level)s.") % {"level": number}
    return _("The add-on is taken during level %(level)s.") % {"level": number}


def _running(tournament: Tournament, what: str) -> None:
    if tournament.status == Tournament.Status.PLANNED:
        raise WrongState(
            _("%(name)s has not started: %(what)s begin with the first level.")
            % {"name": tournament.name, "what": what}
        )
    refuse_finished(tournament)


# --- payments -----------------------------------------------------------------------------------------------------


def _purchase(
    *,
    tournament: Tournament,
    entry: Entry,
    kind: Purchase.Kind,
    ordinal_of_kind: int,
    prize_cents: int,
    fee_cents: int,
    bounty_cents: int,
    chips: int,
    actor: User,
) -> tuple[Purchase, list[Posting]]:
    """The payment's posting (none for a freeroll) and its ``Purchase`` row naming it."""
    lines = money.purchase_lines(prize_cents=prize_cents, fee_cents=fee_cents, bounty_cents=bounty_cents)
    posting = None
    if lines:
        posting = post(
            kind=Posting.Kind.T_ENTRY,
            lines=lines,
            actor=actor,
            idempotency_key=money.purchase_key(
                tournament.pk, entry_number=entry.number, kind=str(kind), ordinal=ordinal_of_kind
            ),
        )
    purchase = Purchase.objects.create(
        tournament=tournament,
        entry=entry,
        kind=kind,
        prize_cents=prize_cents,
        fee_cents=fee_cents,
        bounty_cents=bounty_cents,
        chips=chips,
        posting=posting,
        actor=actor,
    )
    return purchase, [posting] if posting is not None else []


def _purchase_audit(
    *,
    actor: User,
    tournament: Tournament,
    entry: Entry,
    purchase: Purchase,
    postings: list[Posting],
    rows: list[models.Model],
    **extra: Any,
) -> None:
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.TOURNAMENT_PURCHASE,
        subject=tournament,
        after={
            "postings": [posting_record(posting) for posting in postings],
            **entry_record(entry),
            "purchase": purchase.pk,
            "kind": purchase.kind,
            "prize_cents": purchase.prize_cents,
            "fee_cents": purchase.fee_cents,
            "bounty_cents": purchase.bounty_cents,
            "chips": purchase.chips,
            **extra,
        },
        rows=[*rows, purchase],
    )


def _next_number(tournament: Tournament) -> int:
    last = Entry.objects.filter(tournament=tournament).order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def _entry_bounty(tournament: Tournament) -> int:
    return tournament.bounty_cents if tournament.bounty_kind != Tournament.BountyKind.NONE else 0


def _seat_late(
    tournament: Tournament, entry: Entry, actor: User, rng: random.Random, rows: list[models.Model]
) -> list[MoveRecord]:
    """A late entry (or a re-entry) drawn to a random free seat at a table with the fewest players; at a table
    opened for it (every other seat taken), the floor balanced at once (the rows written added to ``rows``)."""
    if tournament.status != Tournament.Status.RUNNING:
        return []
    try:
        move = seat_late_entry(table_seats(tournament, tables_in_play(tournament)), entry.pk, rng)
    except SeatingError as error:
        raise WrongState(
            _("No free seat for %(entry)s: %(reason)s") % {"entry": entry_name(entry), "reason": said(error)}
        ) from None
    seats = moves_apply(tournament=tournament, moves=[move], actor=actor, rows=rows)
    return seats + lone_player_balanced(tournament, move.to_table, actor=actor, rng=rng, rows=rows)


def _places_make_room(tournament: Tournament, rows: list[models.Model]) -> None:
    """A new entry grows the field: every player already out finishes one place further down (a player out is placed
    by the entries still in; with one more entry, one more player finishes above them). One row at a time, from the
    last place up, so no two entries ever share a place. Only busts out of the money move: the first paid bust makes
    the prize pool final, and no entry comes after it."""
    for busted in Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED).order_by("-place"):
        busted.place = (busted.place or 0) + 1
        busted.save(update_fields=["place"])
        rows.append(busted)


def _new_entry(
    tournament: Tournament,
    *,
    actor: User,
    name: str,
    player: Player | None,
    reentry_of: Entry | None,
    rng: random.Random,
    rows: list[models.Model],
    chips: int | None = None,
) -> tuple[Entry, Purchase, list[Posting], list[MoveRecord]]:
    """The new entry, its payment and its seat; the entries placed lower, the seat moves and the entry added to
    ``rows`` (the purchase is the audit event's own)."""
    stack = tournament.starting_stack if chips is None else chips
    _places_make_room(tournament, rows)
    entry = Entry.objects.create(
        tournament=tournament,
        number=_next_number(tournament),
        player=player,
        name=name,
        reentry_of=reentry_of,
        chips=stack,
        bounty_cents=_entry_bounty(tournament),
        created_by=actor,
    )
    seats = _seat_late(tournament, entry, actor, rng, rows)
    entry.refresh_from_db(fields=["table_number", "seat_number"])
    rows.append(entry)
    purchase, postings = _purchase(
        tournament=tournament,
        entry=entry,
        kind=Purchase.Kind.ENTRY if reentry_of is None else Purchase.Kind.REENTRY,
        ordinal_of_kind=1,
        prize_cents=tournament.buy_in_cents,
        fee_cents=tournament.fee_cents,
        bounty_cents=entry.bounty_cents,
        chips=stack,
        actor=actor,
    )
    return entry, purchase, postings, seats


def entry_register(
    *,
    actor: Requester,
    tournament: Tournament,
    name: str = "",
    player_id: int | None = None,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
    chips: int | None = None,
) -> Entry:
    """Register a player (by ``player_id`` of the players app, or just a ``name``): a new entry, its payment posted,
    and, once the tournament runs, a seat drawn. ``chips`` gives this entry that stack instead of the starting stack
    (the Master Class: each player's league points); its purchase and audit event record it."""
    require_runner(actor, action="register a player")
    who = person(actor, what=_("Registering a player"))
    if chips is not None:
        whole(chips, field="chips", what=_("The stack"), least=1, most=MOST_CHIPS)
    name = text(name, field="name", what=_("The name"))
    player = None
    if player_id is not None:
        whole(player_id, field="player_id", what=_("The player"), least=1, most=2**62)
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise ApplicationError(_("There is no player %(id)s.") % {"id": player_id}, extra={"field": "player_id"})
        name = name or player.name or _("Player %(id)s") % {"id": player.pk}
    if not name:
        raise ApplicationError(_("Say the player's name, or choose the player."), extra={"field": "name"})
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refusal = registration_refusal(locked, now)
        if refusal:
            raise WrongState(refusal)
        if player is not None:
            earlier = Entry.objects.filter(tournament=locked, player=player).order_by("-number").first()
            if earlier is not None and earlier.status != Entry.Status.BUSTED:
                raise WrongState(_("%(entry)s is already in.") % {"entry": entry_name(earlier)})
            if earlier is not None:
                raise WrongState(
                    _("%(entry)s is out (%(place)s): that is a re-entry, not a new registration.")
                    % {"entry": entry_name(earlier), "place": ordinal(earlier.place or 0)}
                )
        written: list[models.Model] = []
        entry, purchase, postings, seats = _new_entry(
            locked,
            actor=who,
            name=name,
            player=player,
            reentry_of=None,
            rng=rng or system_rng(),
            rows=written,
            chips=chips,
        )
        _purchase_audit(
            actor=who,
            tournament=locked,
            entry=entry,
            purchase=purchase,
            postings=postings,
            rows=written,
            seats=seats,
        )
        tournament_changed(locked)
    return entry


def _reentries(entry: Entry) -> int:
    """How many re-entries the chain ending with ``entry`` holds (0 for a first entry)."""
    count, current = 0, entry
    while current.reentry_of_id is not None:
        count += 1
        current = Entry.objects.get(pk=current.reentry_of_id)
    return count


def entry_reenter(
    *,
    actor: Requester,
    tournament: Tournament,
    entry: Entry,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> Entry:
    """A busted player buys in again while registration is open: a new entry (``reentry_of`` the busted one) with the
    starting stack, its payment posted, a seat drawn."""
    require_runner(actor, action="re-enter a player")
    who = person(actor, what=_("A re-entry"))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refusal = registration_refusal(locked, now)
        if refusal:
            raise WrongState(refusal)
        busted = entry_of(locked, entry)
        if busted.status != Entry.Status.BUSTED:
            raise WrongState(
                _("%(entry)s is still in: a re-entry is for a player who is out.") % {"entry": entry_name(busted)}
            )
        again = Entry.objects.filter(reentry_of=busted).first()
        if again is not None:
            raise WrongState(
                _("%(entry)s has re-entered already, as #%(number)s.")
                % {"entry": entry_name(busted), "number": again.number}
            )
        if locked.reentries_max == 0:
            raise WrongState(_("%(name)s allows no re-entries.") % {"name": locked.name})
        done = _reentries(busted)
        if done >= locked.reentries_max:
            raise WrongState(
                ngettext(
                    "%(entry)s has had the %(count)s re-entry allowed; no more.",
                    "%(entry)s has had the %(count)s re-entries allowed; no more.",
                    locked.reentries_max,
                )
                % {"entry": entry_name(busted), "count": locked.reentries_max}
            )
        written: list[models.Model] = []
        new, purchase, postings, seats = _new_entry(
            locked,
            actor=who,
            name=busted.name,
            player=busted.player,
            reentry_of=busted,
            rng=rng or system_rng(),
            rows=written,
        )
        _purchase_audit(
            actor=who,
            tournament=locked,
            entry=new,
            purchase=purchase,
            postings=postings,
            rows=written,
            reentry_of=busted.number,
            seats=seats,
        )
        tournament_changed(locked)
    return new


def _active(tournament: Tournament, entry: Entry, what: str) -> Entry:
    found = entry_of(tournament, entry)
    if found.status != Entry.Status.ACTIVE:
        raise WrongState(
            _("%(entry)s is out: %(what)s is for a player still in.") % {"entry": entry_name(found), "what": what}
        )
    return found


def entry_rebuy(*, actor: Requester, tournament: Tournament, entry: Entry, now: dt.datetime | None = None) -> Purchase:
    """A rebuy: an active entry buys ``rebuy_chips`` more during the rebuy period, up to ``rebuys_max`` times."""
    require_runner(actor, action="sell a rebuy")
    who = person(actor, what=_("A rebuy"))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        refuse_pool_final(locked)
        if locked.rebuys_max == 0 or locked.rebuy_chips == 0:
            raise WrongState(_("%(name)s has no rebuys.") % {"name": locked.name})
        _running(locked, _("rebuys"))
        if current_level_number(locked, now) > locked.rebuy_until_level:
            raise WrongState(_("Rebuys closed after level %(level)s.") % {"level": locked.rebuy_until_level})
        buyer = _active(locked, entry, _("a rebuy"))
        if buyer.rebuys >= locked.rebuys_max:
            raise WrongState(
                ngettext(
                    "%(entry)s has had the %(count)s rebuy allowed; no more.",
                    "%(entry)s has had the %(count)s rebuys allowed; no more.",
                    locked.rebuys_max,
                )
                % {"entry": entry_name(buyer), "count": locked.rebuys_max}
            )
        buyer.rebuys += 1
        buyer.chips += locked.rebuy_chips
        buyer.save(update_fields=["rebuys", "chips"])
        purchase, postings = _purchase(
            tournament=locked,
            entry=buyer,
            kind=Purchase.Kind.REBUY,
            ordinal_of_kind=buyer.rebuys,
            prize_cents=locked.rebuy_cents,
            fee_cents=locked.rebuy_fee_cents,
            bounty_cents=0,
            chips=locked.rebuy_chips,
            actor=who,
        )
        _purchase_audit(actor=who, tournament=locked, entry=buyer, purchase=purchase, postings=postings, rows=[buyer])
        tournament_changed(locked)
    return purchase


def entry_addon(*, actor: Requester, tournament: Tournament, entry: Entry, now: dt.datetime | None = None) -> Purchase:
    """The add-on: once an entry, ``addon_chips`` for ``addon_cents``, at the end of the rebuy period."""
    require_runner(actor, action="sell an add-on")
    who = person(actor, what=_("An add-on"))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        refuse_pool_final(locked)
        if locked.addon_chips == 0:
            raise WrongState(_("%(name)s has no add-on.") % {"name": locked.name})
        _running(locked, _("add-ons"))
        buyer = _active(locked, entry, _("an add-on"))
        if buyer.addon:
            raise WrongState(_("%(entry)s has taken the add-on already.") % {"entry": entry_name(buyer)})
        refusal = _addon_refusal(locked, now)
        if refusal:
            raise WrongState(refusal)
        buyer.addon = True
        buyer.chips += locked.addon_chips
        buyer.save(update_fields=["addon", "chips"])
        purchase, postings = _purchase(
            tournament=locked,
            entry=buyer,
            kind=Purchase.Kind.ADDON,
            ordinal_of_kind=1,
            prize_cents=locked.addon_cents,
            fee_cents=locked.addon_fee_cents,
            bounty_cents=0,
            chips=locked.addon_chips,
            actor=who,
        )
        _purchase_audit(actor=who, tournament=locked, entry=buyer, purchase=purchase, postings=postings, rows=[buyer])
        tournament_changed(locked)
    return purchase
