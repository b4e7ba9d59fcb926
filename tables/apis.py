"""REST endpoints for tables: thin, one class per operation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import refuse_unknown_fields
from casino.errors import ApplicationError
from casino.fields import StrictCharField, StrictIntegerField
from casino.roles import SUPERVISORS, Role, require_role, user_has_role
from casino.users import actor_of
from rules.models import RuleSet
from tables.selectors import table_get
from tables.services import MOST_LIMIT_CENTS, UNCHANGED, table_configure

# --- a table's set-up ------------------------------------------------------------------


class TableSetupInputSerializer(serializers.Serializer[Any]):
    min_wager_cents = StrictIntegerField(required=False, min_value=1, max_value=MOST_LIMIT_CENTS)
    max_wager_cents = StrictIntegerField(required=False, min_value=1, max_value=MOST_LIMIT_CENTS)
    rule_set = StrictIntegerField(required=False, help_text="The id of a rule set of the table's game.")
    dealer = StrictCharField(
        required=False, allow_null=True, max_length=150, help_text="A Dealer's username; null takes the dealer off."
    )
    big_win_cents = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MOST_LIMIT_CENTS, help_text="null: no alert."
    )


class TableSetupOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    min_wager_cents = serializers.IntegerField()
    max_wager_cents = serializers.IntegerField()
    rule_set = serializers.IntegerField(source="rule_set_id")
    rule_set_name = serializers.CharField(source="rule_set.name")
    dealer = serializers.CharField(source="dealer.get_username", allow_null=True, default=None)
    big_win_cents = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()


def _setup_dealer(username: str | None) -> User | None:
    if username is None:
        return None
    user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: username}).first()
    if user is None or not user_has_role(user, Role.DEALER):
        raise ApplicationError(_("%(user)s is not a Dealer.") % {"user": repr(username)}, extra={"field": "dealer"})
    return user


class TableSetupApi(APIView):
    @extend_schema(
        request=TableSetupInputSerializer,
        responses={200: TableSetupOutputSerializer},
        summary="Set up a table: its limits (both or neither), rule set, dealer and big-win alert "
        "(Floor supervisor, Pit boss); what is left out stays as it is",
        examples=[
            OpenApiExample("Limits 25.00 to 500.00", value={"min_wager_cents": 2500, "max_wager_cents": 50000}),
            OpenApiExample("A dealer and an alert above 1000.00", value={"dealer": "dana", "big_win_cents": 100000}),
        ],
    )
    def post(self, request: Request, table_id: int) -> Response:
        require_role(request.user, *SUPERVISORS, action="set up a table")
        table = table_get(table_id=table_id)
        serializer = TableSetupInputSerializer(data=request.data)
        refuse_unknown_fields(serializer, request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        rule_set = None
        if "rule_set" in data:
            rule_set = RuleSet.objects.filter(pk=data["rule_set"]).first()
            if rule_set is None:
                raise ApplicationError(
                    _("There is no rule set %(id)s.") % {"id": data["rule_set"]},
                    extra={"field": "rule_set"},
                )
        table = table_configure(
            actor=actor_of(request.user),
            table=table,
            min_wager_cents=data.get("min_wager_cents"),
            max_wager_cents=data.get("max_wager_cents"),
            rule_set=rule_set,
            dealer=_setup_dealer(data["dealer"]) if "dealer" in data else UNCHANGED,
            big_win_cents=data.get("big_win_cents", UNCHANGED),
        )
        return Response(TableSetupOutputSerializer(table).data)
