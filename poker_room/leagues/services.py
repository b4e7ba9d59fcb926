"""Writes on the poker room's leagues: a league and its
settings, its events added and taken out, and the Master Class its season ends with.

Each is done by whoever runs tournaments (the director, a supervisor: ``floor.require_runner``), in one transaction
with the league's row locked, and writes its audit event (``LEAGUE_*``, the league as the subject). A refusal says
what is wrong in the house's words and writes nothing. The points are ``poker_room.pure.league_points``'s, the standings
``poker_room.leagues.selectors``'s.

* A **league's settings**: the formula (``League.Formula``; an expression is checked to read and to score every
  place of a sample field, a points table to be a table), best N (0: every result), the tie-breaks in order
  (``league_points.TIE_BREAKS``; none given: ``DEFAULT_TIE_BREAKS``), the Master Class's size (2 to 100) and its
  conversion (chips a point, rounding to the smallest chip). Once the Master Class is invited, the settings that
  decide the standings are final.
* An **event** is a tournament of the poker room, finished or not (only finished ones score); once in a league,
  each event is in it once; taken out, it is marked, never deleted (``LeagueEvent.removed_at``), and may be added
  again. The Master Class itself is never an event of its own league.
* **The Master Class**: once a league, when every event of it has finished: a tournament from the ``master_class``
  template (a freeroll unless the house sets a buy-in), its field the top ``master_class_size`` of the standings
  (players still tied at the cut after every tie-break are all invited), each registered with their points
  converted to chips as the stack (``entries.entry_register(chips=...)``).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from poker_room.floor import MOST_CENTS, MOST_CHIPS, Requester, person, require_runner, said, text, whole
from poker_room.leagues.models import League, LeagueEvent
from poker_room.leagues.selectors import league_standings, smallest_chip
from poker_room.pure.league_points import (
    DEFAULT_TIE_BREAKS,
    FORMULAS,
    ROUNDINGS,
    LeagueError,
    expression_check,
    table_check,
    tie_breaks_check,
)
from poker_room.pure.templates_data import template
from poker_room.tournaments import services as tournaments
from poker_room.tournaments.entries import entry_register
from poker_room.tournaments.models import Tournament

MASTER_CLASS_TEMPLATE = "master_class"
MOST_MASTER_CLASS = 100
MOST_BEST_OF = 100
MOST_CHIPS_PER_POINT = 100_000

SETTINGS = (
    "name",
    "season",
    "formula",
    "expression",
    "points_table",
    "best_of",
    "tie_breaks",
    "master_class_size",
    "chips_per_point",
    "chip_rounding",
)
# What decides the standings and the stacks: final once the Master Class is invited.
_SCORING = tuple(name for name in SETTINGS if name not in ("name", "season"))


def _league_error(error: LeagueError, field: str) -> ApplicationError:
    return ApplicationError(said(error), extra={"field": field})


def _clean(field: str, value: object) -> object:
    """One setting, checked; a refusal names the field."""
    if field == "name":
        return text(value, field=field, what=_("The league's name"), required=True)
    if field == "season":
        return text(value, field=field, what=_("The season"), most=40, required=True)
    if field == "formula":
        if value not in FORMULAS:
            raise ApplicationError(
                _("Choose one of the formulas: %(formulas)s.") % {"formulas": ", ".join(FORMULAS)},
                extra={"field": field},
            )
        return value
    if field == "expression":
        if value in (None, ""):
            return ""
        try:
            return expression_check(value)
        except LeagueError as error:
            raise _league_error(error, field) from None
    if field == "points_table":
        if value is None or value == "" or value == [] or value == ():
            return []
        if not isinstance(value, list | tuple):
            raise ApplicationError(_("The points table is a list of points, 1st place first."), extra={"field": field})
        try:
            return [_number(points) for points in table_check(value)]
        except LeagueError as error:
            raise _league_error(error, field) from None
    if field == "best_of":
        return whole(value, field=field, what=_("Best of"), most=MOST_BEST_OF)
    if field == "tie_breaks":
        if value is None or value == "" or value == [] or value == ():
            return []
        if not isinstance(value, list | tuple):
            raise ApplicationError(_("The tie-breaks are a list, the first applied first."), extra={"field": field})
        try:
            return list(tie_breaks_check(value))
        except LeagueError as error:
            raise _league_error(error, field) from None
    if field == "master_class_size":
        return whole(value, field=field, what=_("The Master Class's size"), least=2, most=MOST_MASTER_CLASS)
    if field == "chips_per_point":
        return whole(value, field=field, what=_("Chips a point"), least=1, most=MOST_CHIPS_PER_POINT)
    if field == "chip_rounding":
        if value not in ROUNDINGS:
            raise ApplicationError(_("Round to the nearest chip, up or down."), extra={"field": field})
        return value
    raise ApplicationError(_("%(field)s is not a league setting.") % {"field": field}, extra={"field": field})


def _number(value: Any) -> int | float:
    """A points table's entry as JSON keeps it: a whole number as an int."""
    return int(value) if value == int(value) else float(value)


def _formula_complete(values: dict[str, Any]) -> None:
    """The chosen formula has what it needs: an expression, or a points table."""
    if values["formula"] == League.Formula.EXPRESSION and not values["expression"]:
        raise ApplicationError(
            _("Write the formula, for example 10 * sqrt(players) / sqrt(place)"), extra={"field": "expression"}
        )
    if values["formula"] == League.Formula.TABLE and not values["points_table"]:
        raise ApplicationError(
            _("The points table is empty: give the points for 1st place at least"), extra={"field": "points_table"}
        )


def _meant(field: str, value: object) -> object:
    """A setting as it scores: no tie-breaks stored means the house's (``DEFAULT_TIE_BREAKS``), so the settings form,
    which shows and sends those, changes nothing by sending them back (after the Master Class, a rename alone)."""
    if field == "tie_breaks":
        return list(value) if isinstance(value, list | tuple) and value else list(DEFAULT_TIE_BREAKS)
    return value


def _record(league: League) -> dict[str, Any]:
    return {name: getattr(league, name) for name in SETTINGS}


def _audit(
    actor: Requester, league: League, event_type: AuditEventType, *, rows: list[models.Model], **changes: Any
) -> None:
    audit_event_record(
        actor=actor, event_type=event_type, subject=league, after={"league": league.pk, **changes}, rows=rows
    )


def _locked(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


def league_create(
    *,
    actor: Requester,
    name: object,
    season: object,
    formula: object = League.Formula.SQRT_PLACE,
    expression: object = "",
    points_table: object = None,
    best_of: object = 0,
    tie_breaks: object = None,
    master_class_size: object = 10,
    chips_per_point: object = 1,
    chip_rounding: object = League.Rounding.NEAREST,
) -> League:
    """A new league with its settings (the module's docstring)."""
    require_runner(actor, action="create a league")
    who = person(actor, what=_("Creating a league"))
    given = {
        "name": name,
        "season": season,
        "formula": formula,
        "expression": expression,
        "points_table": points_table,
        "best_of": best_of,
        "tie_breaks": tie_breaks,
        "master_class_size": master_class_size,
        "chips_per_point": chips_per_point,
        "chip_rounding": chip_rounding,
    }
    values = {field: _clean(field, value) for field, value in given.items()}
    _formula_complete(values)
    with transaction.atomic():
        league = League.objects.create(created_by=who, **values)
        _audit(who, league, AuditEventType.LEAGUE_CREATED, rows=[league], **_record(league))
    return league


def league_update(*, actor: Requester, league: League, **fields: object) -> League:
    """Change some of the league's settings (``SETTINGS``); those that decide the standings are final once the
    Master Class is invited."""
    require_runner(actor, action="change a league")
    who = person(actor, what=_("Changing a league"))
    unknown = sorted(set(fields) - set(SETTINGS))
    if unknown:
        raise ApplicationError(
            _("%(field)s is not a league setting.") % {"field": unknown[0]}, extra={"field": unknown[0]}
        )
    cleaned = {field: _clean(field, value) for field, value in fields.items()}
    with transaction.atomic():
        locked = _locked(league)
        before = _record(locked)
        changed = {
            field: value for field, value in cleaned.items() if _meant(field, before[field]) != _meant(field, value)
        }
        if locked.master_class_id is not None and any(field in _SCORING for field in changed):
            raise WrongState(
                _("The Master Class is invited: the points, the tie-breaks and the stacks of %(name)s are final.")
                % {"name": locked.name}
            )
        _formula_complete({**before, **cleaned})
        if not changed:
            return locked
        for field, value in changed.items():
            setattr(locked, field, value)
        locked.save(update_fields=list(changed))
        _audit(
            who,
            locked,
            AuditEventType.LEAGUE_UPDATED,
            rows=[locked],
            before={field: before[field] for field in changed},
            changed=changed,
        )
    return locked


def _tournament(tournament_id: object) -> Tournament:
    pk = whole(tournament_id, field="tournament", what=_("The tournament"), least=1, most=2**62)
    found = Tournament.objects.filter(pk=pk).first()
    if found is None:
        raise ApplicationError(
            _("There is no tournament %(id)s.") % {"id": tournament_id}, extra={"field": "tournament"}
        )
    return found


def league_event_add(*, actor: Requester, league: League, tournament_id: object) -> LeagueEvent:
    """Count a tournament of the poker room in the league (finished or not: only finished events score)."""
    require_runner(actor, action="add an event to a league")
    who = person(actor, what=_("Adding an event to a league"))
    tournament = _tournament(tournament_id)
    with transaction.atomic():
        locked = _locked(league)
        if locked.master_class_id is not None:
            raise WrongState(_("The Master Class is invited: the season of %(name)s is over.") % {"name": locked.name})
        if League.objects.filter(master_class=tournament).exists():
            raise WrongState(
                _("%(event)s is a league's Master Class, not one of its events.") % {"event": tournament.name}
            )
        if LeagueEvent.objects.filter(league=locked, tournament=tournament, removed_at__isnull=True).exists():
            raise WrongState(
                _("%(event)s is already in %(name)s.") % {"event": tournament.name, "name": locked.name},
                extra={"field": "tournament"},
            )
        event = LeagueEvent.objects.create(league=locked, tournament=tournament, added_by=who)
        _audit(
            who,
            locked,
            AuditEventType.LEAGUE_EVENT_ADDED,
            rows=[event],
            tournament=tournament.pk,
            league_event=event.pk,
        )
    return event


def league_event_remove(
    *, actor: Requester, league: League, tournament_id: object, now: dt.datetime | None = None
) -> LeagueEvent:
    """Take an event out of the league (marked, not deleted); refused once the Master Class is invited."""
    require_runner(actor, action="take an event out of a league")
    who = person(actor, what=_("Taking an event out of a league"))
    tournament = _tournament(tournament_id)
    with transaction.atomic():
        locked = _locked(league)
        if locked.master_class_id is not None:
            raise WrongState(_("The Master Class is invited: the season of %(name)s is over.") % {"name": locked.name})
        event = (
            LeagueEvent.objects.select_for_update()
            .filter(league=locked, tournament=tournament, removed_at__isnull=True)
            .first()
        )
        if event is None:
            raise WrongState(
                _("%(event)s is not in %(name)s.") % {"event": tournament.name, "name": locked.name},
                extra={"field": "tournament"},
            )
        event.removed_at = now or timezone.now()
        event.removed_by = who
        event.save(update_fields=["removed_at", "removed_by"])
        _audit(
            who,
            locked,
            AuditEventType.LEAGUE_EVENT_REMOVED,
            rows=[event],
            tournament=tournament.pk,
            league_event=event.pk,
        )
    return event


def master_class_invite(
    *,
    actor: Requester,
    league: League,
    name: object = None,
    buy_in_cents: object = 0,
    fee_cents: object = 0,
    starts_at: dt.datetime | None = None,
) -> Tournament:
    """The Master Class (the module's docstring): a tournament of the ``master_class`` template with the top of the
    standings registered, each with their points as chips; once a league."""
    require_runner(actor, action="invite the Master Class")
    who = person(actor, what=_("Inviting the Master Class"))
    buy_in = whole(buy_in_cents, field="buy_in_cents", what=_("The buy-in"), most=MOST_CENTS)
    fee = whole(fee_cents, field="fee_cents", what=_("The fee"), most=MOST_CENTS)
    with transaction.atomic():
        locked = _locked(league)
        if locked.master_class is not None:
            raise WrongState(
                _("%(name)s has invited its Master Class already: %(event)s.")
                % {"name": locked.name, "event": locked.master_class.name}
            )
        found = league_standings(locked)
        if found.error:
            raise WrongState(found.error)
        pending = [event.tournament.name for event in found.events if not event.finished]
        if pending:
            raise WrongState(_("The season is not over: %(events)s has not finished.") % {"events": ", ".join(pending)})
        if found.finished_events == 0:
            raise WrongState(_("%(name)s has no finished event: nobody has points yet.") % {"name": locked.name})
        field = found.invited
        if len(field) < 2:
            raise WrongState(_("A Master Class needs at least 2 players with points."))
        title = text(name, field="name", what=_("The name")) or _("Master Class %(season)s") % {"season": locked.season}
        size = template(MASTER_CLASS_TEMPLATE).table_size
        tournament = tournaments.tournament_create(
            actor=who,
            template_key=MASTER_CLASS_TEMPLATE,
            name=title,
            buy_in_cents=buy_in,
            fee_cents=fee,
            tables=max(1, math.ceil(len(field) / size)),
            starts_at=starts_at,
        )
        chip = smallest_chip(tournament)
        if chip != found.smallest_chip:
            found = league_standings(locked, chip=chip)
            field = found.invited
        for line in field:
            if line.chips is not None and line.chips > MOST_CHIPS:
                raise ApplicationError(
                    _(
                        "%(player)s's %(points)s points at %(chips)s chips a point make a stack of more than "
                        "%(most)s chips: lower the chips a point."
                    )
                    % {"player": line.name, "points": line.total, "chips": locked.chips_per_point, "most": MOST_CHIPS},
                    extra={"field": "chips_per_point"},
                )
        invitations = []
        for line in field:
            assert line.chips is not None
            entry = entry_register(
                actor=who, tournament=tournament, name=line.name, player_id=line.player_id, chips=line.chips
            )
            invitations.append(
                {"entry": entry.number, "player": line.player_id, "points": str(line.total), "chips": line.chips}
            )
        locked.master_class = tournament
        locked.save(update_fields=["master_class"])
        _audit(
            who,
            locked,
            AuditEventType.LEAGUE_MASTER_CLASS,
            rows=[locked],
            tournament=tournament.pk,
            chips_per_point=locked.chips_per_point,
            chip_rounding=locked.chip_rounding,
            smallest_chip=chip,
            invitations=invitations,
        )
    return tournament
