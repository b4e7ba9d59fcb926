"""Rule sets in the admin, validated by the same code as the services and saved through them (audit events)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from casino.errors import ApplicationError, WrongState
from casino.users import actor_of
from rules import options as rule_options
from rules.models import RuleSet
from rules.services import rule_set_create, rule_set_update

_COMMON_OPTIONAL = ("commission_rate_bp", "commission_rounding", "commission_on_player_wins", "banking_mode")


if TYPE_CHECKING:  # the admin's and the forms' classes take their model as a type argument only in the stubs
    ModelAdmin = admin.ModelAdmin[RuleSet]
    ModelForm = forms.ModelForm[RuleSet]
else:
    ModelAdmin = admin.ModelAdmin
    ModelForm = forms.ModelForm


class RuleSetForm(ModelForm):
    """Leave a setting blank (or the options ``{}``) for the game's default."""

    class Meta:
        model = RuleSet
        fields = ["name", "game", *_COMMON_OPTIONAL, "options"]
        help_texts = {
            "options": "The game's own options as JSON; missing ones take GAME_RULES.md's default. "
            + " · ".join(
                f"{rule_options.game_label(game)}: {', '.join(option.key for option in opts)}"
                for game, opts in rule_options.GAME_OPTIONS.items()
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("commission_rate_bp", "commission_rounding", "banking_mode"):
            self.fields[name].required = False
        if self.instance.pk:
            self.fields["game"].disabled = True

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        game = data.get("game") or self.instance.game
        if not game:
            return data
        common = {key: data[key] for key in _COMMON_OPTIONAL if data.get(key) not in (None, "")}
        if not self.instance.pk and "commission_on_player_wins" not in self.changed_data:
            common.pop("commission_on_player_wins", None)  # the unticked box means "the game's default"
        try:
            settings = rule_options.rule_set_validate(game=game, common=common, options=data.get("options") or {})
        except ApplicationError as error:
            field = error.extra.get("field")
            target = field if field in self.fields else "options" if field else None
            raise ValidationError({target: error.message} if target else error.message) from None
        self.validated_settings = settings
        return data


@admin.register(RuleSet)
class RuleSetAdmin(ModelAdmin):
    form = RuleSetForm
    list_display = ["name", "game", "commission_rate_bp", "commission_rounding", "banking_mode", "updated_at"]
    list_filter = ["game", "banking_mode"]
    search_fields = ["name"]
    readonly_fields = ["snapshot_json"]

    @admin.display(description="snapshot (what a round keeps)")
    def snapshot_json(self, obj: RuleSet) -> str:
        return json.dumps(obj.snapshot(), indent=2, ensure_ascii=False) if obj.pk else "-"

    def save_model(self, request: HttpRequest, obj: RuleSet, form: RuleSetForm, change: bool) -> None:
        settings = form.validated_settings
        values = {**{key: settings[key] for key in rule_options.COMMON_FIELDS}, "options": settings["options"]}
        try:
            if change:
                saved = rule_set_update(
                    actor=actor_of(request.user),
                    rule_set=RuleSet.objects.get(pk=obj.pk),
                    name=form.cleaned_data["name"],
                    **values,
                )
            else:
                saved = rule_set_create(
                    actor=actor_of(request.user),
                    name=form.cleaned_data["name"],
                    game=form.cleaned_data["game"],
                    **values,
                )
        except WrongState:  # saved without a change: nothing to record
            return
        obj.pk = saved.pk
        obj.refresh_from_db()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a rule set stays: audit events and past rounds name it
