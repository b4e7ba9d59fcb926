"""The game-math lab: a supervisor picks a rule set, or edits a copy of its options, and starts a run; a
Celery task plays it while the page's bar polls its progress; then each side's edge with its 95% interval, the push
rate and the convergence chart. Thin: the writes are ``rules.lab_services``, the reads ``rules.lab_selectors``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from django.views.decorators.http import require_GET, require_POST

from casino import numbers
from casino.errors import ApplicationError
from casino.once import FORM_KEY, form_key_new
from casino.users import actor_of
from pit.lab_chart import convergence_png
from pit.views import PIT_DECIDERS, _require
from rules import options as rule_options
from rules.games import registry
from rules.games.lab import TILES_DEALS
from rules.lab_selectors import (
    lab_rule_sets,
    lab_run_figures,
    lab_run_get,
    lab_run_progress,
    lab_run_series,
    lab_runs_recent,
    shipped_figures,
)
from rules.lab_services import HANDS_DEFAULT, HANDS_MAX, HANDS_MIN, LabRefused, has_bank, lab_run_start
from rules.models import LabRun, RuleSet


def _common(game: str) -> tuple[rule_options.Option, ...]:
    """The settings every rule set has that the lab's copy may change (the commission changes the edges; the banking
    mode says whether there is a bank at all)."""
    return (
        rule_options.Option(
            "commission_rate_bp",
            gettext_noop("commission rate (basis points: 500 for 5 per cent)"),
            0,
            maximum=rule_options.MAX_BP,
        ),
        rule_options.Option("commission_on_player_wins", gettext_noop("commission on player wins"), False),
        rule_options.Option("banking_mode", gettext_noop("banking mode"), "", rule_options.BANKING_MODES),
    )


def _fields(game: str, values: dict[str, Any]) -> list[dict[str, Any]]:
    """The options form of ``game``: each option with its kind, its choices and the value to show."""
    return [
        {
            "key": option.key,
            "name": f"opt_{option.key}",
            "label": option.said(),
            "kind": option.kind.__name__,
            "choices": [(choice, option.value_said(choice)) for choice in option.choices],
            "maximum": option.maximum,
            "value": values.get(option.key, option.default),
            "value_said": option.value_said(values.get(option.key, option.default)),
        }
        for option in (*_common(game), *rule_options.GAME_OPTIONS[game])
    ]


def _rule_values(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {**{field: snapshot[field] for field in rule_options.COMMON_FIELDS}, **snapshot["options"]}


def _posted_changes(request: HttpRequest, game: str) -> dict[str, bool | int | str]:
    """The options form as sent: checkboxes on or off, whole numbers read, choices as they are (``rules.options``
    checks them all). A number that is not one is refused here, in words."""
    changes: dict[str, bool | int | str] = {}
    for option in (*_common(game), *rule_options.GAME_OPTIONS[game]):
        raw = request.POST.get(f"opt_{option.key}", "")
        if option.kind is bool:
            changes[option.key] = raw == "on"
        elif option.kind is int:
            try:
                changes[option.key] = int(raw.strip().replace(",", ""))
            except ValueError:
                raise LabRefused(
                    _("The %(label)s is a whole number, not %(value)r.") % {"label": option.said(), "value": raw},
                    extra={"field": option.key},
                ) from None
        else:
            changes[option.key] = raw
    return changes


def _posted_hands(request: HttpRequest) -> object:
    raw = request.POST.get("hands", "").strip()
    grouped = numbers.read_whole(raw)  # "1,000,000", "1.000.000", "1 000 000"
    if grouped is not None:
        return grouped
    try:
        return int(raw)
    except ValueError:
        return raw or None  # the service refuses it in words


def _posted_whole_or_none(request: HttpRequest, name: str) -> object:
    """A whole number typed in ``name``, None when left empty (a seed drawn for the run; every rank compared), or the
    text as typed, which the service refuses in words."""
    raw = request.POST.get(name, "").strip()
    if not raw:
        return None
    return int(raw) if raw.isascii() and raw.isdigit() else raw


def high_hand_ranks_said(ranks: int | None) -> str:
    """How a run compares the high hands, in words."""
    if ranks is None:
        return _("every rank, as the rules say")
    return ngettext(
        "their category and first rank only (an analysis)",
        "their category and first %(count)s ranks only (an analysis)",
        ranks,
    ) % {"count": ranks}


def _lab_page(
    request: HttpRequest,
    *,
    rule_set: RuleSet | None,
    values: dict[str, Any] | None = None,
    hands: object = None,
    seed: object = None,
    high_hand_ranks: object = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "rule_sets": lab_rule_sets(),
        "rule_set": rule_set,
        "runs": lab_runs_recent(),
        "error": error,
        "hands_min": HANDS_MIN,
        "hands_max": HANDS_MAX,
        "tiles_deals": TILES_DEALS,
    }
    if rule_set is not None:
        snapshot = rule_set.snapshot()
        context.update(
            {
                "game_label": rule_options.game_label(rule_set.game),
                "banked": has_bank(snapshot),
                "exact": registry.game(rule_set.game).tiles,
                "shipped": shipped_figures(snapshot=snapshot),
                "fields": _fields(rule_set.game, values if values is not None else _rule_values(snapshot)),
                "hands": hands if hands is not None else HANDS_DEFAULT,
                "seed": seed,
                "high_hand_ranks": str(high_hand_ranks) if high_hand_ranks is not None else "",
                "high_hand_choices": [(str(ranks), high_hand_ranks_said(ranks)) for ranks in range(1, 6)],
                "every_rank_said": high_hand_ranks_said(None),
                "form_key": form_key_new(),
            }
        )
    return render(request, "pit/lab.html", context, status=status)


def _rule_set_or_none(raw: object) -> RuleSet | None:
    try:
        return RuleSet.objects.filter(pk=int(str(raw))).first()
    except ValueError:
        return None


@login_required
@require_GET
def lab(request: HttpRequest) -> HttpResponse:
    """The lab: pick a rule set (``?rule_set=``), see its shipped figures, edit a copy of its options and start a run;
    the recent runs below."""
    _require(request, PIT_DECIDERS)
    raw = request.GET.get("rule_set")
    rule_set = _rule_set_or_none(raw) if raw else None
    if raw and rule_set is None:
        return _lab_page(
            request, rule_set=None, error=_("There is no such rule set: pick one from the list."), status=404
        )
    return _lab_page(request, rule_set=rule_set)


@login_required
@require_POST
def lab_start(request: HttpRequest) -> HttpResponse:
    """Start a run of the rule set as the form sets it (an edited copy when an option differs). Refused in words,
    nothing written; the same form sent twice answers the run it started."""
    _require(request, PIT_DECIDERS)
    rule_set = _rule_set_or_none(request.POST.get("rule_set", ""))
    if rule_set is None:
        return _lab_page(
            request, rule_set=None, error=_("There is no such rule set: pick one from the list."), status=400
        )
    hands = _posted_hands(request)
    seed = _posted_whole_or_none(request, "seed")
    ranks = _posted_whole_or_none(request, "high_hand_ranks")
    values: dict[str, bool | int | str] = {
        field["key"]: request.POST.get(field["name"], "") for field in _fields(rule_set.game, {})
    }
    try:
        # Rules without a bank draw no form: nothing to read, the service says why there is no run.
        changes = _posted_changes(request, rule_set.game) if has_bank(rule_set.snapshot()) else None
        values = changes or values
        run = lab_run_start(
            actor=actor_of(request.user),
            rule_set=rule_set,
            hands=hands,
            changes=changes,
            seed=seed,
            high_hand_ranks=ranks,
            request_key=request.POST.get(FORM_KEY, ""),
        )
    except ApplicationError as exc:
        return _lab_page(
            request,
            rule_set=rule_set,
            values=values,
            hands=hands,
            seed=seed,
            high_hand_ranks=ranks,
            error=exc.message,
            status=400,
        )
    return redirect("pit-lab-run", run_id=run.pk)


def _run_or_404(run_id: int) -> LabRun:
    run = lab_run_get(run_id=run_id)
    if run is None:
        raise Http404(_("There is no such lab run."))
    return run


@login_required
@require_GET
def lab_run(request: HttpRequest, run_id: int) -> HttpResponse:
    """One run: its rules, the progress bar while it runs, then its figures and the convergence chart."""
    _require(request, PIT_DECIDERS)
    run = _run_or_404(run_id)
    progress = lab_run_progress(run=run)
    context = {
        "run": run,
        "progress": progress,
        "figures": lab_run_figures(run=run),
        "shipped": shipped_figures(snapshot=run.snapshot),
        "has_chart": run.method == LabRun.Method.SIMULATED and bool(run.series),
        "game_label": rule_options.game_label(run.game),
        "rules": _fields(run.game, _rule_values(run.snapshot)),
        "high_hands_said": high_hand_ranks_said(run.high_hand_ranks) if run.high_hand_ranks is not None else "",
    }
    return render(request, "pit/lab_run.html", context)


@login_required
@require_GET
def lab_run_progress_json(request: HttpRequest, run_id: int) -> JsonResponse:
    """The progress bar's poll: status, hands done of requested, percent, done, and why it failed."""
    _require(request, PIT_DECIDERS)
    response = JsonResponse(dict(lab_run_progress(run=_run_or_404(run_id))))
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def lab_run_chart(request: HttpRequest, run_id: int) -> HttpResponse:
    """The convergence chart of a simulated run, as a PNG."""
    _require(request, PIT_DECIDERS)
    run = _run_or_404(run_id)
    png = convergence_png(
        lab_run_series(run=run),
        shipped=shipped_figures(snapshot=run.snapshot),
        labels={
            "player": _("player's edge"),
            "banker": _("banker's edge"),
            "shipped": _("shipped figure"),
        },
        hands_label=_("hands played"),
        # Translators: a chart axis; "%%" is a percent sign.
        edge_label=_("house edge (95%% interval)") % {},
    )
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "no-store" if run.status != LabRun.Status.FINISHED else "private, max-age=3600"
    return response
