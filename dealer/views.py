"""The dealer tablet: a page per table; every action a form that htmx posts, the tablet drawn again.

Thin: each view checks who may see the table, reads the form, calls one service (or
selector) and renders. A refusal shows the service's message, in the dealer's words,
in the banner, with the service's status (400, 403 or 409); htmx keeps what was
tapped in and swaps only the banner. Without htmx the same forms post and redirect.

Every refusal carries ``REFUSAL_HEADER``: the tablet's script swaps an error answer only when it has
it (any other, a CSRF or sign-in failure, a server error, leaves the tablet as it is and says so in the
banner), and nothing else draws a refusal over the page (django-htmx's DEBUG helper replaces the whole
document with any 400 or 403 it sees). The tablet is never cached (Back and Forward fetch it again) and
polls ``tablet_version_view`` to draw itself again when another device changed its table.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from casino import once
from casino.errors import ApplicationError
from casino.pages import HtmxHttpRequest
from casino.templatetags.money import cents as _money
from casino.users import actor_of
from dealer import tablet, tablet_rules, tablet_swap, tablet_values, tablet_version
from poker_room.tournaments.table_selectors import dealer_tournament_tables
from rounds import ofc_turns
from rounds.models import Adjustment, Round
from rounds.services import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_open,
    round_placements_record,
    round_swap_record,
    wager_place,
)
from rounds.states import FINAL_STATES, RoundState
from rules import options as rule_options
from rules.advice import pgp_advise, pgp_warm_up
from rules.faces import faces
from rules.games import paigow_tiles_advice, registry
from rules.games.cards import cards_text, parse_cards
from rules.games.errors import InvalidHand
from rules.games.tiles import parse_tiles, tiles_text
from rules.hands import stored_hands
from settlement.services import adjustment_request, settle_round, settlement_preview
from settlement.services.settle import entered_hands
from tables.models import Table
from tables.permissions import (
    can_act_at_table,
    can_view_every_table,
    can_view_table,
    require_view_table,
    tables_visible_to,
)
from tables.rotation_selectors import dealer_next, table_relief

# Set on every refusal the tablet draws in its banner (or, for the advice, in its box): see the module's docstring.
REFUSAL_HEADER = once.REFUSAL_HEADER  # casino.once: every refusal drawn in a page carries it


# --- who may see a table ----------------------------------------------------------------------------


def _table(table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_related("pit", "rule_set", "dealer"), pk=table_id)


def _round(round_id: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("table", "table__pit", "table__rule_set", "table__dealer", "bank_seat"),
        pk=round_id,
    )


def _wagers(round_: Round) -> dict[int, int]:
    return dict(round_.wagers.values_list("seat__number", "amount_cents"))


def _int(value: str | None) -> int | str | None:
    """A whole number from a form field, or the text as typed (the service says what is wrong with it)."""
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        return value


def _game_flags(table: Table) -> dict[str, bool]:
    """What the templates draw differently by game, as the registry answers it."""
    spec = registry.game(table.game)
    return {
        "tiles": spec.tiles,
        "points_game": not spec.bankable,
        "by_street": spec.placed_by_street,
    }


# --- the tablet, drawn ------------------------------------------------------------------------------


def tablet_context(request: HttpRequest, table: Table, *, error: str = "", notice: str = "") -> dict[str, Any]:
    """Everything the tablet shows for ``table``: its rules, bank, round, seat ring and the next actions only."""
    user = request.user
    version = tablet_version.tablet_version(table)  # before the round is read: a change meanwhile redraws the tablet
    round_ = tablet.round_latest(table)
    in_play = round_ is not None and RoundState(round_.state) not in FINAL_STATES
    snapshot = round_.rule_set_snapshot if in_play and round_ is not None else table.rule_set.snapshot()
    wagers = {w.seat.number: w.amount_cents for w in round_.wagers.all()} if round_ is not None else {}
    actions = tablet.next_actions(round_)
    can_act = can_act_at_table(user, table)
    context: dict[str, Any] = {
        "table": table,
        "round": round_,
        "in_play": in_play,
        "snapshot": snapshot,
        "rules": tablet_rules.rule_summary(snapshot),
        "bank": tablet_rules.bank_of(round_ if in_play else None, snapshot),
        "actions": actions,
        "state_label": tablet.STATE_LABELS[RoundState(round_.state)] if round_ is not None else _("No round yet"),
        "can_act": can_act,
        "view_only": not can_act,
        "wagers": wagers,
        "error": error,
        "notice": notice,
        "chips": tablet.chips(table.max_wager_cents),
        "void_reasons": tablet.VOID_REASONS,
        "pending": None,
        "decided": tablet.last_decided_adjustment(round_),
        "version": version,
        "relief": table_relief(table=table, at=timezone.now()),  # "relief at 14:40: Lee" (the table's string)
        **_game_flags(table),
    }
    if round_ is not None and round_.state != RoundState.VOIDED:
        context["pending"] = tablet.pending_adjustment(round_)
    # A round whose void waits for a supervisor is on hold: its play buttons wait too (the services refuse), and its
    # badge says so beside the state.
    context["hold"] = context["pending"] is not None and context["pending"].kind == Adjustment.Kind.VOID
    if context["hold"]:
        context["state_label"] = _("%(state)s · void asked") % {"state": context["state_label"]}
    result = None
    if round_ is not None and round_.state == RoundState.SETTLED:
        result = tablet_values.settled_result(round_)
    state = round_.state if round_ is not None else None
    if "open" in actions:
        context["open"] = _open_context(table, snapshot, round_)
    if state == RoundState.OPEN:
        limits = tablet.wager_limits(table, round_)
        bank_number = round_.bank_seat.number if round_ is not None and round_.bank_seat is not None else None
        context["limits"] = limits
        context["wager_seats"] = [
            {"number": n, "wager_cents": wagers.get(n), "bank": n == bank_number}
            for n in range(1, table.seat_count + 1)
        ]
        free = [s["number"] for s in context["wager_seats"] if s["wager_cents"] is None and not s["bank"]]
        context["next_seat"] = free[0] if free else None
    if state in (RoundState.DEALT, RoundState.REVEALED) and round_ is not None:
        context.update(_entry_context(round_, wagers, revealed=state == RoundState.REVEALED))
        if registry.game(table.game).placed_by_street:
            context["entry_url"] = reverse("dealer-placements", args=[round_.pk])
        else:
            context["entry_url"] = reverse("dealer-hands", args=[round_.pk])
        if state == RoundState.DEALT:
            context["swap"] = tablet_swap.swap_panel(round_, wagers=wagers)  # Chinese Poker, three players (§3)
    if (
        state == RoundState.SETTLED
        and round_ is not None
        and can_act
        and context["pending"] is None
        and round_.shift.closed_at is None  # a closed shift's rounds are final: no correction is offered
    ):
        # A correction request: the recorded hands, every row open, entered again with the same picker.
        context.update(_entry_context(round_, wagers, revealed=False, correcting=True))
        context["correcting"] = True
        context["entry_url"] = reverse("dealer-correction-request", args=[round_.pk])
    if state == RoundState.REVEALED and round_ is not None:
        try:
            recorded = stored_hands(round_.hands)
            answer = settlement_preview(round=round_, hands=entered_hands(recorded or {"seats": {}}))
            # Shown with the hands as recorded: the house way's setting keeps the rule that chose it.
            result = tablet_values.result_rows(round_, answer, hands=recorded)
        except ApplicationError as exc:
            context["preview_error"] = exc.message
        # A key of its own for this preview: a double tap or a retry of the same form settles once.
        context["idempotency_key"] = f"tablet-{round_.pk}-{uuid.uuid4().hex}"
    context["result"] = result
    context["house_wager"] = tablet.house_wager_line(round_) if state != RoundState.VOIDED else None
    turn = context.get("turn")
    context["ring"] = tablet.seat_ring(
        table=table,
        round_=round_,
        wagers=wagers,
        outcomes=tablet_values.outcomes_by_seat(result),
        to_act=turn.seat if turn is not None else None,
    )
    return context


def _open_context(table: Table, snapshot: dict[str, Any], round_: Round | None) -> dict[str, Any]:
    mode = snapshot["banking_mode"]
    player_bank = mode in (rule_options.PLAYER_ROTATION, rule_options.CO_BANKING)
    last = tablet_rules.last_bank_turn(table) if player_bank else None
    return {
        "number": (round_.number + 1) if round_ is not None else 1,
        "player_bank": player_bank,
        "co_banking": mode == rule_options.CO_BANKING,
        "seats": list(range(1, table.seat_count + 1)),
        "last_turn": last,
        "min_cents": table.min_wager_cents,
    }


def _entry_context(
    round_: Round, wagers: dict[int, int], *, revealed: bool, correcting: bool = False
) -> dict[str, Any]:
    game = round_.table.game
    by_street = registry.game(game).placed_by_street and not correcting
    if revealed and by_street:
        return {}
    positions = tablet.entry(round_, wagers=wagers, correcting=correcting)
    if not registry.game(game).tiles and any(position.advice for position in positions):
        # Pai Gow Poker's advice builds its house way's tables on first use (a second or two): build them now,
        # while the dealer taps the cards in, so the Advice button answers at once.
        pgp_warm_up(rule_options.engine_options(round_.rule_set_snapshot)["house_way"])
    values = {target.name: target.value for position in positions for target in position.targets}
    lines, house_way = tablet_values.live_values(round_, values, wagers=wagers, correcting=correcting)
    for position in positions:
        position.lines = lines.get(position.key, [])
    live = None
    if not revealed and not correcting and tablet_values.complete(positions):
        live = tablet_values.preview(round_, values, wagers=wagers)
    street = None
    turn = None
    if by_street:
        # Placed in turn (``rounds.ofc_turns``): the street of the seat whose turn it is. A round dealt before
        # the button: the street the slowest seat is on (5 cards make street 1, each card after them one more).
        turn = ofc_turns.next_turn(round_, sorted(wagers))
        if turn is not None:
            street = turn.street
        else:
            boards = round_.placements or {}
            rows = registry.game(game).part_names
            least = min((sum(len(boards.get(str(s), {}).get(r, "").split()) for r in rows) for s in wagers), default=0)
            street = 1 if least == 0 else least - 3
    return {
        "positions": positions,
        "house_way": house_way,
        "live": live,
        "picker": tablet.picker(game),
        "street": street,
        "turn": turn,
    }


def _render_tablet(request: HtmxHttpRequest, table: Table, *, status: int = 200, **extra: Any) -> HttpResponse:
    context = tablet_context(request, table, **extra)
    template = "dealer/_tablet.html" if request.htmx else "dealer/tablet.html"
    response = render(request, template, context, status=status)
    # Never kept: Back and Forward ask again, so a finished round is never shown as current.
    add_never_cache_headers(response)
    return response


def _refused(request: HtmxHttpRequest, table: Table, exc: ApplicationError) -> HttpResponse:
    """The service's refusal in the banner, with its status; htmx swaps the banner only, keeping what was tapped."""
    if request.htmx:
        response = render(request, "dealer/_banner.html", {"error": exc.message}, status=exc.status_code)
        response[REFUSAL_HEADER] = "1"
        return retarget(reswap(response, "innerHTML"), "#banner")
    if not can_view_table(request.user, table):
        return render(request, "dealer/forbidden.html", {"message": exc.message}, status=exc.status_code)
    return _render_tablet(request, table, status=exc.status_code, error=exc.message)


def _done(request: HtmxHttpRequest, table: Table, notice: str = "") -> HttpResponse:
    if request.htmx:
        return _render_tablet(request, table, notice=notice)
    return redirect("dealer-table", table_id=table.pk)


def _on_round(action: Callable[[HtmxHttpRequest, Round], str]) -> Callable[[HtmxHttpRequest, int], HttpResponse]:
    """A view that runs one service on a round the user may see (``action``, which returns the notice): the tablet
    drawn again, or the refusal."""

    @wraps(action)
    def view(request: HtmxHttpRequest, round_id: int) -> HttpResponse:
        round_ = _round(round_id)
        try:
            require_view_table(request.user, round_.table)
            notice = action(request, round_)
        except ApplicationError as exc:
            return _refused(request, round_.table, exc)
        return _done(request, round_.table, notice)

    return view


# --- pages ------------------------------------------------------------------------------------------


@login_required
@require_GET
def dealer_home(request: HttpRequest) -> HttpResponse:
    """A dealer's table (straight to its tablet when there is one and no tournament table), or every table for
    supervisors and auditors; and the tournament tables the dealer is put on (``poker_room``)."""
    return dealer_home_page(request)


def dealer_home_page(request: HttpRequest, *, error: str = "", status: int = 200) -> HttpResponse:
    """The dealer's home (``dealer_home``), or, with ``error``, drawn again with a refusal in its banner."""
    latest = Round.objects.filter(table=OuterRef("pk")).order_by("-number")
    tables = list(
        tables_visible_to(request.user).annotate(
            round_number=Subquery(latest.values("number")[:1]), round_state=Subquery(latest.values("state")[:1])
        )
    )
    for table in tables:  # each tile says where its latest round stands
        state = getattr(table, "round_state", None)
        table.round_label = tablet.STATE_LABELS[RoundState(state)] if state else ""  # type: ignore[attr-defined]
    tournament_tables = dealer_tournament_tables(request.user)
    if len(tables) == 1 and not tournament_tables and not can_view_every_table(request.user) and not error:
        return redirect("dealer-table", table_id=tables[0].pk)
    context = {
        "tables": tables,
        "tournament_tables": tournament_tables,
        # Where the dealer's string puts them next, and the table to tap in at (``dealer.rotation_views``).
        "rotation": dealer_next(dealer=request.user, at=timezone.now()) if request.user.is_authenticated else None,
        "form_key": once.form_key_new(),
        "error": error,
    }
    return render(request, "dealer/dealer_home.html", context, status=status)


@login_required
@require_GET
@never_cache
def dealer_table(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The tablet of one table."""
    table = _table(table_id)
    try:
        require_view_table(request.user, table)
    except ApplicationError as exc:
        return render(request, "dealer/forbidden.html", {"message": exc.message}, status=exc.status_code)
    return _render_tablet(request, table)


# --- actions ----------------------------------------------------------------------------------------


@login_required
@require_POST
def round_open_view(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = _table(table_id)
    banker = request.POST.get("banker", "")
    seat = None if banker in ("", "house") else _int(banker)
    bank_cents = _int(request.POST.get("bank_cents")) if seat is not None else None
    try:
        require_view_table(request.user, table)
        round_ = round_open(actor=actor_of(request.user), table=table, banker_seat=seat, bank_cents=bank_cents)  # type: ignore[arg-type]  # text typed: the service refuses it
    except ApplicationError as exc:
        return _refused(request, table, exc)
    notice = _("Round %(number)s is open: take the wagers.") % {"number": round_.number}
    house = tablet.house_wager_line(round_)
    if house is not None and house.cents is not None:
        notice += " " + _("The house wagers %(amount)s against the bank (seat %(seat)s's last bet).") % {
            "amount": _money(house.cents),
            "seat": house.bank_seat,
        }
    elif house is not None:
        notice += " " + house.why_not
    return _done(request, table, notice)


@login_required
@require_POST
@_on_round
def wager_view(request: HtmxHttpRequest, round_: Round) -> str:
    seat, amount = _int(request.POST.get("seat")), _int(request.POST.get("amount_cents"))
    wager = wager_place(actor=actor_of(request.user), round=round_, seat=seat, amount_cents=amount)  # type: ignore[arg-type]  # text typed: the service refuses it
    return _("Seat %(seat)s wagers %(amount)s.") % {"seat": seat, "amount": _money(wager.amount_cents)}


@login_required
@require_POST
@_on_round
def close_betting_view(request: HtmxHttpRequest, round_: Round) -> str:
    round_close_betting(actor=actor_of(request.user), round=round_)
    return _("Betting is closed: roll the dice.")


@login_required
@require_POST
@_on_round
def deal_view(request: HtmxHttpRequest, round_: Round) -> str:
    auto = request.POST.get("auto") == "1"
    dice = None if auto else [_int(request.POST.get(f"die{n}")) for n in (1, 2, 3)]
    if dice is not None and None in dice:
        raise ApplicationError(_("Tap all three dice first."), extra={"field": "dice"})
    round_deal(actor=actor_of(request.user), round=round_, dice=dice, auto=auto)  # type: ignore[arg-type]  # a die typed as text: the service refuses it
    return _("Dealt: enter the hands.")


@login_required
@require_POST
@_on_round
def hands_view(request: HtmxHttpRequest, round_: Round) -> str:
    hands = tablet.hands_payload(round_, request.POST, wagers=_wagers(round_))
    round_hands_record(actor=actor_of(request.user), round=round_, hands=hands)
    return _("Hands recorded: check the preview, then settle.")


@login_required
@require_POST
@_on_round
def swap_view(request: HtmxHttpRequest, round_: Round) -> str:
    """Chinese Poker, three players: a seat's swap with the undealt cards, recorded in the order announced."""
    seat = _int(request.POST.get("seat"))
    gave, took = request.POST.get("gave", ""), request.POST.get("took", "")
    if seat is None:
        raise ApplicationError(_("Tap the seat that swaps first."), extra={"field": "seat"})
    round_swap_record(actor=actor_of(request.user), round=round_, seat=seat, gave=gave, took=took)
    return _("Seat %(seat)s swapped: it pays 2 points to each other player.") % {"seat": seat}


@login_required
@require_POST
@_on_round
def placements_view(request: HtmxHttpRequest, round_: Round) -> str:
    street = tablet.placements_payload(round_, request.POST, wagers=_wagers(round_))
    placed = round_placements_record(actor=actor_of(request.user), round=round_, placements=street)
    if placed.state == RoundState.REVEALED:
        return _("Every board is complete: check the score sheet, then settle.")
    return _("Street placed.")


@login_required
@require_POST
@_on_round
def settle_view(request: HtmxHttpRequest, round_: Round) -> str:
    key = request.POST.get("idempotency_key", "")
    body = settle_round(round=round_, actor=actor_of(request.user), idempotency_key=key)
    return _("Round %(number)s is settled.") % {"number": body["number"]}


@login_required
@require_POST
@_on_round
def void_request_view(request: HtmxHttpRequest, round_: Round) -> str:
    reason = request.POST.get("reason", "")
    adjustment_request(actor=actor_of(request.user), round=round_, kind=Adjustment.Kind.VOID, reason=reason)
    return ""  # the waiting banner (dealer/_pending.html) says it: a notice beside it said it twice


@login_required
@require_POST
@_on_round
def correction_request_view(request: HtmxHttpRequest, round_: Round) -> str:
    """The dealer asks for a correction of a settled round: the hands entered again, and why."""
    reason = request.POST.get("reason", "")
    hands = tablet.hands_payload(round_, request.POST, wagers=_wagers(round_))
    adjustment_request(
        actor=actor_of(request.user), round=round_, kind=Adjustment.Kind.CORRECTION, reason=reason, hands=hands
    )
    return ""  # the waiting banner (dealer/_pending.html) says it


# --- helpers that write nothing ----------------------------------------------------------------------


@login_required
@require_POST
def hands_preview_view(request: HtmxHttpRequest, round_id: int) -> HttpResponse:
    """The values, fouls and house way of what is tapped in so far, and the settlement preview once complete."""
    round_ = _round(round_id)
    try:
        require_view_table(request.user, round_.table)
    except ApplicationError as exc:
        return _refused(request, round_.table, exc)
    wagers = _wagers(round_)
    correcting = round_.state == RoundState.SETTLED  # a correction request's hands, entered again whole
    positions = tablet.entry(round_, wagers=wagers, posted=request.POST, correcting=correcting)
    lines, house_way = tablet_values.live_values(round_, request.POST, wagers=wagers, correcting=correcting)
    for position in positions:
        position.lines = lines.get(position.key, [])
    live = None
    if tablet_values.complete(positions):
        live = tablet_values.preview(round_, request.POST, wagers=wagers, correcting=correcting)
    context = {"positions": positions, "house_way": house_way, "live": live, **_game_flags(round_.table)}
    return render(request, "dealer/_live.html", context)


@login_required
@require_POST
def advice_view(request: HtmxHttpRequest, round_id: int) -> HttpResponse:
    """A seat's hand, every setting's odds against the house way (nothing is written): exact for Pai Gow
    tiles; for Pai Gow Poker against a sample of the bank's hands, with its 95% margin."""
    round_ = _round(round_id)
    seat = request.POST.get("seat", "")
    try:
        require_view_table(request.user, round_.table)
    except ApplicationError as exc:
        return _refused(request, round_.table, exc)
    text = f"{request.POST.get(f'hand-{seat}-high', '')} {request.POST.get(f'hand-{seat}-low', '')}"
    snapshot = round_.rule_set_snapshot
    engine = rule_options.engine_options(snapshot)
    game = round_.table.game
    tiles = registry.game(game).tiles
    context: dict[str, Any] = {"seat": seat, "round": round_, "tiles": tiles}
    try:
        if not registry.game(game).advice:
            raise InvalidHand(_("advice is for Pai Gow tiles and Pai Gow Poker"))
        if tiles:
            advice: Any = paigow_tiles_advice.advise(
                parse_tiles(text),
                way=engine["house_way"]["way"],
                commission_bp=snapshot["commission_rate_bp"],
                commission_on_player_wins=snapshot["commission_on_player_wins"],
                **engine["hand"],
            )
        else:
            advice = pgp_advise(
                parse_cards(text),
                commission_bp=snapshot["commission_rate_bp"],
                commission_on_player_wins=snapshot["commission_on_player_wins"],
                outcome=engine["outcome"],
            )
            if advice.exact:
                context["exact_hands"] = advice.bank_hands
            else:
                context["sampled"] = {"hands": advice.bank_hands, "margin": advice.margin}
    except InvalidHand as exc:
        context["error"] = _("Seat %(seat)s: %(problem)s") % {"seat": seat, "problem": exc}
        response = render(request, "dealer/_advice.html", context, status=400)
        response[REFUSAL_HEADER] = "1"
        return response
    notation = tiles_text if tiles else cards_text
    context["rows"] = [
        {
            "high": notation(row.setting.high),
            "low": notation(row.setting.low),
            "high_faces": faces(notation(row.setting.high), tiles=tiles),
            "low_faces": faces(notation(row.setting.low), tiles=tiles),
            "win": row.win * 100,
            "push": row.push * 100,
            "loss": row.loss * 100,
            "ev": row.ev,
            "margin": getattr(row, "margin", 0.0),
            "foul": getattr(row, "foul", False),
            "best": row is advice.best,
            "house": row is advice.house,
        }
        for row in sorted(advice.settings, key=lambda r: -r.ev)
    ]
    return render(request, "dealer/_advice.html", context)


@require_GET
@never_cache
def tablet_version_view(request: HttpRequest, table_id: int) -> HttpResponse:
    """What the tablet polls every few seconds: its table's marker (``dealer.tablet_version``). While nothing
    changed at the table, for a user allowed to see it within the last minute, the answer comes from the cache with
    no query; after a change, for such a user, the marker is computed; otherwise the user and the table are checked
    and the marker computed, as any page would."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    cached = tablet_version.tablet_version_cached(session_key, table_id)
    if cached.version is not None:
        return JsonResponse({"version": cached.version})
    if cached.allowed:  # the table changed since: its marker, for a session allowed to see it within the minute
        return JsonResponse({"version": tablet_version.tablet_version_keep(session_key, table_id, checked=False)})
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = _table(table_id)
    try:
        require_view_table(request.user, table)
    except ApplicationError as exc:
        return JsonResponse({"message": exc.message, "extra": exc.extra}, status=exc.status_code)
    version = tablet_version.tablet_version_keep(request.session.session_key or "", table.pk, checked=True)
    return JsonResponse({"version": version})
