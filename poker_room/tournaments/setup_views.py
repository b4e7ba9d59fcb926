"""The console's other pages: the structure (its levels; edited as lines of text, or generated), the
payouts (the table in use, the prizes by place for the field, the guarantee and minimum cash), the results sheet (a
page and CSV) and the chip race at a colour-up break.

Thin, as ``poker_room.tournaments.views``: one service a form, POST-redirect-GET, a refusal drawn in the page with what
was typed and nothing written, every form sent once (``casino.once.FormPage``). Auditors read every page and get
no form.
"""

from __future__ import annotations

import csv
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.errors import ApplicationError
from casino.money import money_text
from casino.once import FormPage, Kept
from casino.pages import guarded_by
from casino.users import actor_of
from poker_room.floor import said
from poker_room.pages import FORM_SCOPE, page, posted_int, runners_only, viewers_only
from poker_room.pure.payouts import bands_as_json
from poker_room.pure.structure import AnteKind, StructureError, structure_as_dicts, structure_generate
from poker_room.pure.templates_data import UnknownTemplate, template
from poker_room.tournaments import services
from poker_room.tournaments.forms import (
    SETTINGS_FIELDS,
    GenerateForm,
    SettingsForm,
    chips_parse,
    payouts_parse,
    payouts_text,
    settings_initial,
    structure_parse,
    structure_text,
)
from poker_room.tournaments.models import Elimination, Tournament
from poker_room.tournaments.page_selectors import chip_race_page, level_label, results, safe_levels, tournament_payouts
from poker_room.tournaments.selectors import tournament_board
from poker_room.tournaments.views import CONSOLE, SETTINGS_GROUPS, at_tournament


def _chips_text(tournament: Tournament) -> str:
    return " ".join(str(chip) for chip in tournament.chips or ())


# --- the structure ------------------------------------------------------------------------------------------------


def _level_rows(tournament: Tournament, current: int | None) -> list[dict[str, Any]]:
    levels = safe_levels(tournament)
    return [
        {"row": index + 1, "label": level_label(levels, index), "level": level, "now": index == current}
        for index, level in enumerate(levels)
    ]


def _generate_initial(tournament: Tournament) -> dict[str, Any]:
    levels = safe_levels(tournament)
    first = next((level for level in levels if not level.is_break), None)
    try:
        t = template(tournament.template_key)
        target, players = t.target_minutes, t.players
    except UnknownTemplate:
        target, players = 300, 50
    return {
        "starting_stack": tournament.starting_stack,
        "level_minutes": first.minutes if first else 20,
        "level_hands": (first.hands if first else None) or "",
        "target_minutes": target,
        "players": players,
        "chips": _chips_text(tournament),
    }


def _structure_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    error: str = "",
    typed: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    board = tournament_board(tournament)
    typed = typed or {}
    context = {
        "t": tournament,
        "board": board,
        "here": "structure",
        "rows": _level_rows(tournament, board.clock.level if board.clock and tournament.status == "running" else None),
        "mixed": len({level.game for level in safe_levels(tournament) if not level.is_break}) > 1,
        "levels_text": typed.get("levels", structure_text(safe_levels(tournament))),
        "chips_text": typed.get("chips", _chips_text(tournament)),
        "generate": {**_generate_initial(tournament), **typed.get("generate", {})},
        "error": error,
        "field": typed.get("field", ""),
    }
    return page(request, "poker_room/structure.html", context, status=status)


def _structure_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, tournament: Tournament, **_kwargs: object
) -> HttpResponse:
    """The structure page again, with what was typed (``kept``: its ``field`` the one a form marks unless the refusal
    names another)."""
    typed = {**kept, "field": exc.extra.get("field", kept["field"])}
    return _structure_page(request, tournament, error=exc.message, typed=typed, status=exc.status_code)


# The structure page's forms: the levels as typed, a structure generated.
STRUCTURE = FormPage(
    scope=FORM_SCOPE,
    done=lambda request, *, tournament, **_kwargs: redirect("poker-room-structure", tournament_id=tournament.pk),
    refused=_structure_refused,
)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
@guarded_by(viewers_only)
@at_tournament
def structure_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the structure, its levels and the text to edit. POST: the structure as typed
    (``tournament_structure_set``)."""
    if request.method == "GET":
        return _structure_page(request, tournament)
    return _structure_save(request, tournament=tournament)


@guarded_by(runners_only)
@STRUCTURE.acts()
def _structure_save(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    typed = {"levels": request.POST.get("levels", "")[:20_000], "chips": request.POST.get("chips", "")[:200]}
    kept.update(typed, field="levels")
    levels = structure_parse(typed["levels"])
    chips = chips_parse(typed["chips"]) if typed["chips"].strip() else None
    services.tournament_structure_set(actor=actor_of(request.user), tournament=tournament, levels=levels, chips=chips)
    return _("The structure of %(name)s is saved: %(count)s rows.") % {
        "name": tournament.name,
        "count": len(levels),
    }


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@STRUCTURE.acts()
def structure_generate_view(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    """A structure generated from the starting stack, the level length, the target duration and the house's chips
    (``structure.structure_generate``), saved as the tournament's (``tournament_structure_set``)."""
    names = ("starting_stack", "level_minutes", "level_hands", "target_minutes", "players", "chips")
    kept.update(generate={name: request.POST.get(name, "")[:200] for name in names}, field="generate")
    data = GenerateForm(request.POST).cleaned()
    try:
        t = template(tournament.template_key)
        ante_up, heads_up = t.ante_up, t.heads_up
    except UnknownTemplate:
        ante_up = heads_up = False
    try:
        levels = structure_generate(
            starting_stack=data["starting_stack"],
            level_minutes=data["level_minutes"],
            level_hands=data["level_hands"],
            target_minutes=data["target_minutes"],
            chips=data["chips"],
            players=data["players"],
            games=tuple(tournament.games) or ("nlhe",),
            ante_kind=AnteKind.NONE if heads_up else AnteKind.CLASSIC if ante_up else AnteKind.BIG_BLIND,
            break_every=0 if heads_up else 4,
            ante_up=ante_up,
        )
    except StructureError as error:
        raise ApplicationError(said(error), extra={"field": "generate"}) from None
    services.tournament_structure_set(
        actor=actor_of(request.user), tournament=tournament, levels=structure_as_dicts(levels), chips=data["chips"]
    )
    return _("A structure of %(count)s rows is generated and saved.") % {"count": len(levels)}


# --- the payouts --------------------------------------------------------------------------------------------------


def _payouts_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    error: str = "",
    typed: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    typed = typed or {}
    board = tournament_board(tournament)
    eliminations = list(Elimination.objects.filter(tournament=tournament).select_related("entry"))
    payouts = tournament_payouts(tournament, board, eliminations)
    names = SETTINGS_GROUPS["prizes"]
    context = {
        "t": tournament,
        "board": board,
        "here": "payouts",
        "payouts": payouts,
        "bands_text": typed.get("payouts", payouts_text(payouts.bands)),
        "prizes_fields": [
            {"name": name, "label": SETTINGS_FIELDS[name][0], "value": typed.get("settings", {}).get(name, value)}
            for name, value in settings_initial(tournament, names).items()
        ],
        "pool_final": tournament.pool_locked_at is not None,
        "error": error,
        "field": typed.get("field", ""),
    }
    return page(request, "poker_room/payouts.html", context, status=status)


def _payouts_refused(
    request: HttpRequest,
    exc: ApplicationError,
    kept: Kept,
    *,
    tournament: Tournament,
    afresh: bool = False,
    **_kwargs: object,
) -> HttpResponse:
    """The payouts page again (``afresh``: the tournament read again), with what was typed and the field refused
    marked (or the one the form marks)."""
    shown = Tournament.objects.get(pk=tournament.pk) if afresh else tournament
    typed = {**kept, "field": exc.extra.get("field", kept.get("field", ""))}
    return _payouts_page(request, shown, error=exc.message, typed=typed, status=exc.status_code)


# The payouts page's forms: the payout table (typed, or the house's), the prizes' settings.
PAYOUTS = FormPage(
    scope=FORM_SCOPE,
    done=lambda request, *, tournament, **_kwargs: redirect("poker-room-payouts", tournament_id=tournament.pk),
    refused=_payouts_refused,
)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
@guarded_by(viewers_only)
@at_tournament
def payouts_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the payout table in use and the prizes by place. POST: the payout table as typed, or the house's
    (``house=yes``) (``tournament_payouts_set``)."""
    if request.method == "GET":
        return _payouts_page(request, tournament)
    return _payouts_save(request, tournament=tournament)


@guarded_by(runners_only)
@PAYOUTS.acts()
def _payouts_save(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    house = request.POST.get("house") == "yes"
    typed = {"payouts": request.POST.get("payouts", "")[:20_000]}
    kept.update(typed, field="payouts")
    bands = None if house else bands_as_json(payouts_parse(typed["payouts"]))
    services.tournament_payouts_set(actor=actor_of(request.user), tournament=tournament, bands=bands)
    return (
        _("%(name)s pays by the house's table.") % {"name": tournament.name}
        if house
        else _("The payout table of %(name)s is saved.") % {"name": tournament.name}
    )


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
def settings_view(request: HttpRequest, tournament: Tournament, group: str) -> HttpResponse:
    """A group of the tournament's settings (``tournament_settings_set``): the entry rules and the rebuys and add-on
    (on the console), the prizes' guarantee, minimum cash and rounding (on the payouts page)."""
    if group == "prizes":
        return _prizes_save(request, tournament=tournament, group=group)
    return _settings_save(request, tournament=tournament, group=group)


def _settings_set(request: HttpRequest, kept: Kept, tournament: Tournament, group: str) -> str:
    names = SETTINGS_GROUPS.get(group, ())
    kept.update(settings={name: request.POST.get(name, "")[:24] for name in names}, field="")
    if not names:
        raise ApplicationError(_("There are no such settings."))
    services.tournament_settings_set(
        actor=actor_of(request.user), tournament=tournament, **SettingsForm(request.POST, names=names).values()
    )
    return _("The settings of %(name)s are saved.") % {"name": tournament.name}


_prizes_save = PAYOUTS.acts(afresh=True)(_settings_set)
_settings_save = CONSOLE.acts(anchor="settings-{group}")(_settings_set)


# --- the results --------------------------------------------------------------------------------------------------


@login_required
@require_GET
@never_cache
@guarded_by(viewers_only)
@at_tournament
def results_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The results sheet: place, name, prize and bounties of every entry (those still in first)."""
    sheet = results(tournament)
    context = {"t": tournament, "board": sheet.board, "sheet": sheet, "here": "results"}
    return page(request, "poker_room/results.html", context)


@login_required
@require_GET
@never_cache
@guarded_by(viewers_only)
@at_tournament
def results_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The results sheet as CSV (UTF-8): place, entry, name, prize, bounties, knock-outs; amounts as 25.00."""
    sheet = results(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(tournament.name) or "tournament"
    response["Content-Disposition"] = f'attachment; filename="{name}-{tournament.pk}-results.csv"'
    writer = csv.writer(response)
    writer.writerow([_("place"), _("entry"), _("name"), _("prize"), _("bounties"), _("knock-outs"), _("status")])
    for line in sheet.lines:
        writer.writerow(
            [
                line.place or "",
                line.entry.number,
                _csv_safe(line.entry.name),
                money_text(line.prize_cents),
                money_text(line.bounties_cents),
                line.knockouts,
                line.entry.get_status_display(),
            ]
        )
    return response


def _csv_safe(text: str) -> str:
    """A name as a spreadsheet cell: never a formula (a leading = + - @ is quoted away)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# --- the chip race ------------------------------------------------------------------------------------------------


def _race_page(
    request: HttpRequest,
    tournament: Tournament,
    table: int | None,
    *,
    error: str = "",
    typed: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    found = chip_race_page(tournament, table=table)
    typed = typed or {}
    rows = [
        {"seat": seat.seat, "entry": seat.entry, "value": typed.get(f"left-{seat.entry.number}", "")}
        for seat in (found.table.seats if found.table else [])
        if seat.entry is not None
    ]
    context = {
        "t": tournament,
        "board": found.board,
        "here": "chip-race",
        "race": found,
        "rows": rows,
        "error": error,
    }
    return page(request, "poker_room/chip_race.html", context, status=status)


def _race_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, tournament: Tournament, number: int | None
) -> HttpResponse:
    return _race_page(request, tournament, number, error=exc.message, typed=kept["typed"], status=exc.status_code)


def _to_race(request: HttpRequest, *, tournament: Tournament, number: int | None) -> HttpResponse:
    return redirect(reverse("poker-room-chip-race", args=[tournament.pk]) + (f"?table={number}" if number else ""))


# The chip race's form: a table's leftovers raced.
CHIP_RACE = FormPage(scope=FORM_SCOPE, done=_to_race, refused=_race_refused)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
@guarded_by(viewers_only)
@at_tournament
def chip_race_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the colour-up in progress, a table's players to type their leftover chips, the races run with their
    cards. POST: race a table's leftovers (``chip_race_record``)."""
    if request.method == "GET":
        chosen = request.GET.get("table", "")
        return _race_page(request, tournament, int(chosen) if chosen.isdecimal() and len(chosen) < 4 else None)
    table = posted_int(request, "table")
    return _chip_race_record(request, tournament=tournament, number=table if isinstance(table, int) else None)


@guarded_by(runners_only)
@CHIP_RACE.acts()
def _chip_race_record(request: HttpRequest, kept: Kept, tournament: Tournament, number: int | None) -> str:
    typed = {key: value[:24] for key, value in request.POST.dict().items() if key.startswith("left-")}
    kept["typed"] = typed
    if number is None:
        raise ApplicationError(_("Choose the table that races."), extra={"field": "table"})
    leftovers: dict[int, int] = {}
    for key, value in typed.items():
        entry_number = key.removeprefix("left-")
        text = value.strip()
        if not entry_number.isdecimal():
            continue
        if not text:
            text = "0"
        if not text.isdecimal():
            raise ApplicationError(
                _("Type each player's leftover chips as a whole number, not “%(text)s”.") % {"text": text[:12]},
                extra={"field": key},
            )
        leftovers[int(entry_number)] = int(text)
    race = services.chip_race_record(
        actor=actor_of(request.user), tournament=tournament, table_number=number, leftovers=leftovers
    )
    return _("Table %(table)s has raced: %(chips)s new chips in the race.") % {
        "table": number,
        "chips": race.raced_chips,
    }
