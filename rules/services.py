"""Writes on rule sets. Each is validated by ``rules.options`` and records its audit event in the same transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.roles import SUPERVISORS, require_role
from rules import options as rule_options
from rules.models import RuleSet


def _split(game: str, values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Common settings and the game's options from one flat set of keyword arguments.

    ``options={...}`` may also be passed as one mapping; flat keys win over it.
    """
    values = dict(values)
    nested = values.pop("options", None) or {}
    if not isinstance(nested, dict):
        raise rule_options.RuleSetInvalid(
            _("The options are a set of names and values, not %(value)s.") % {"value": repr(nested)},
            extra={"field": "options"},
        )
    common = {key: values.pop(key) for key in rule_options.COMMON_FIELDS if key in values}
    return common, {**nested, **values}


def _clean_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise rule_options.RuleSetInvalid(_("A rule set needs a name."), extra={"field": "name"})
    name = name.strip()
    if len(name) > RuleSet._meta.get_field("name").max_length:  # type: ignore[operator]
        raise rule_options.RuleSetInvalid(_("A rule set's name is at most 80 characters."), extra={"field": "name"})
    return name


def _name_taken(name: str, *, other_than: int | None = None) -> None:
    taken = RuleSet.objects.filter(name__iexact=name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than)
    if taken.exists():
        raise rule_options.RuleSetInvalid(
            _("There is already a rule set called %(name)s.") % {"name": repr(name)}, extra={"field": "name"}
        )


def _apply(rule_set: RuleSet, settings: dict[str, Any]) -> None:
    for field in rule_options.COMMON_FIELDS:
        setattr(rule_set, field, settings[field])
    rule_set.options = settings["options"]


def rule_set_create(*, actor: User | None, name: str, game: str, **options: Any) -> RuleSet:
    """Create a rule set for ``game``; every setting not given takes GAME_RULES.md's default.

    ``options`` are the common settings (``commission_rate_bp``, ``commission_rounding``,
    ``commission_on_player_wins``, ``banking_mode``) and the game's own options, flat.
    """
    require_role(actor, *SUPERVISORS, action="create a rule set")
    name = _clean_name(name)
    game = rule_options.check_game(game)
    common, own = _split(game, options)
    settings = rule_options.rule_set_validate(game=game, common=common, options=own)
    with transaction.atomic():
        _name_taken(name)
        rule_set = RuleSet(name=name, game=game)
        _apply(rule_set, settings)
        rule_set.save()
        audit_event_record(
            actor=actor, event_type=AuditEventType.RULE_SET_CREATED, subject=rule_set, after=rule_set.snapshot()
        )
    return rule_set


def rule_set_update(*, actor: User | None, rule_set: RuleSet, **changes: Any) -> RuleSet:
    """Change a rule set's name or settings. Its game never changes: make a new rule set instead.

    Past rounds keep the snapshot they took, so they settle as before.
    """
    require_role(actor, *SUPERVISORS, action="edit a rule set")
    with transaction.atomic():
        locked = RuleSet.objects.select_for_update().get(pk=rule_set.pk)
        if "game" in changes and changes.pop("game") != locked.game:
            raise rule_options.RuleSetInvalid(
                _(
                    "Rule set %(rule_set)s is for %(game)s; "
                    "its game cannot change: create a new rule set for the other game."
                )
                % {"rule_set": repr(locked.name), "game": rule_options.game_label(locked.game)},
                extra={"field": "game"},
            )
        name = _clean_name(changes.pop("name")) if "name" in changes else locked.name
        common, own = _split(locked.game, changes)
        before = locked.snapshot()
        settings = rule_options.rule_set_validate(
            game=locked.game,
            common={**{field: before[field] for field in rule_options.COMMON_FIELDS}, **common},
            options={**before["options"], **own},
        )
        _name_taken(name, other_than=locked.pk)
        locked.name = name
        _apply(locked, settings)
        after = locked.snapshot()
        if after == before:
            raise WrongState(
                _("Rule set %(rule_set)s already has these rules: nothing to change.") % {"rule_set": repr(locked.name)}
            )
        locked.save()
        audit_event_record(
            actor=actor, event_type=AuditEventType.RULE_SET_UPDATED, subject=locked, before=before, after=after
        )
    return locked


def rule_set_default(*, game: str) -> RuleSet:
    """The game's house rules at their defaults (made by the data migration); made again if missing.

    Found by its name in ``rules.options.DEFAULT_RULE_SET_NAMES``; if it was renamed,
    the oldest rule set of the game stands in.
    """
    game = rule_options.check_game(game)
    name = rule_options.DEFAULT_RULE_SET_NAMES[game]
    found = RuleSet.objects.filter(name=name, game=game).first()
    found = found or RuleSet.objects.filter(game=game).order_by("created_at", "pk").first()
    if found is not None:
        return found
    with transaction.atomic():
        if RuleSet.objects.filter(name=name).exists():
            raise ApplicationError(
                _("Rule set %(rule_set)s is not for %(game)s.")
                % {"rule_set": repr(name), "game": rule_options.game_label(game)}
            )
        rule_set = RuleSet(name=name, game=game)
        _apply(rule_set, rule_options.rule_set_validate(game=game, common={}, options={}))
        rule_set.save()
        audit_event_record(
            actor=None, event_type=AuditEventType.RULE_SET_CREATED, subject=rule_set, after=rule_set.snapshot()
        )
    return rule_set


# The peer variant's house rules (GAME_RULES.md §1, "Peer variant", Czech seed): no banker, each player against
# each; the seed's own counting (Gee Joon as 0, gong 10, wong 11) is left to a rule set that names it.
PEER_RULE_SET_NAMES = {rule_options.PAIGOW_TILES: "Pai Gow (tiles) — peer variant (each against each)"}


def has_peer_variant(game: str) -> bool:
    """Whether ``game`` has a variant without a bank (its ``mode`` option offers ``peer``)."""
    return any(option.key == "mode" and "peer" in option.choices for option in rule_options.GAME_OPTIONS[game])


def rule_set_peer(*, actor: User | None, game: str) -> RuleSet:
    """The game's peer-variant rule set at its defaults (no bank, no commission), made (and audited) if missing.

    A pit boss turns a table to the peer variant with it (``tables.services.table_play_peer``): the admin,
    where other rule sets are made, is read only for them.
    """
    require_role(actor, *SUPERVISORS, action="create a rule set")
    game = rule_options.check_game(game)
    if not has_peer_variant(game):
        raise rule_options.RuleSetInvalid(
            _("%(game)s has no peer variant: only Pai Gow tiles is played without a bank.")
            % {"game": rule_options.game_label(game)},
            extra={"field": "game"},
        )
    name = PEER_RULE_SET_NAMES[game]
    found = RuleSet.objects.filter(name=name, game=game).first()
    if found is not None:
        return found
    return rule_set_create(
        actor=actor,
        name=name,
        game=game,
        banking_mode=rule_options.NO_BANK,
        commission_rate_bp=0,
        commission_on_player_wins=False,
        mode="peer",
    )
