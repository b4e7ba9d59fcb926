"""Dealer-assist REST endpoints: stateless answers from the engines, one class per operation.

Each endpoint takes a hand in notation (and optionally the id of a rule set of its
game), asks one engine function and answers; none of them writes anything. Without
a rule set the game's options take GAME_RULES.md's defaults (``rules.options.defaults``,
no database read); with one, the engine keyword arguments come from
``rules.options.engine_options`` of its snapshot, as a round's settlement takes them.
A hand the rules refuse (bad notation, a wrong count, a card twice) is answered 400
in the engine's words, with ``extra.field`` naming the input that holds it.

drf-spectacular names a schema component after its serializer class, so every
serializer here has a name of its own (nested ``InputSerializer`` classes would clash).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import valid_input
from casino.errors import ApplicationError
from casino.fields import StrictCharField, StrictIntegerField
from rules import options as rule_options
from rules.advice import pgp_advise
from rules.games import chinese_poker, ofc, paigow_poker, paigow_poker_advice, paigow_tiles, paigow_tiles_advice
from rules.games.cards import Card, cards_text, parse_cards
from rules.games.errors import InvalidHand
from rules.games.poker import HandValue, high_hand, low_hand
from rules.games.tiles import parse_tiles, tiles_text
from rules.models import RuleSet

ROWS = ("front", "middle", "back")

# --- the rules to answer by, and the engine's refusals --------------------------------------------


def _snapshot(*, rule_set_id: int | None, game: str) -> dict[str, Any]:
    """The snapshot of rule set ``rule_set_id``, which must be of ``game``; without one, the game's defaults.

    ``rules.options.engine_options`` turns it into the engine keyword arguments.
    """
    if rule_set_id is None:
        return rule_options.snapshot_build(
            rule_set_id=None, name="defaults", game=game, settings=rule_options.defaults(game)
        )
    rule_set = RuleSet.objects.filter(pk=rule_set_id).first()
    if rule_set is None:
        # The id is input, not the address: a 400 naming the field, as for a rule set of another game.
        raise ApplicationError(_("There is no rule set %(id)s.") % {"id": rule_set_id}, extra={"field": "rule_set"})
    if rule_set.game != game:
        raise ApplicationError(
            _("Rule set %(rule_set)s is for %(rule_set_game)s, not %(game)s.")
            % {
                "rule_set": repr(rule_set.name),
                "rule_set_game": rule_options.game_label(rule_set.game),
                "game": rule_options.game_label(game),
            },
            extra={"field": "rule_set"},
        )
    snapshot: dict[str, Any] = rule_set.snapshot()
    return snapshot


def _engine_options(*, rule_set_id: int | None, game: str) -> dict[str, dict[str, Any]]:
    """The engine keyword arguments of ``_snapshot``'s rules."""
    return rule_options.engine_options(_snapshot(rule_set_id=rule_set_id, game=game))


@contextmanager
def _refused_as(field: str, where: str = "") -> Iterator[None]:
    """Turn the engine's ``InvalidHand`` into the one application error (400), naming the input ``field`` (and, in
    the message, ``where``: "Seat 2, front")."""
    try:
        yield
    except InvalidHand as exc:
        message = _("%(where)s: %(problem)s") % {"where": where, "problem": exc} if where else str(exc)
        raise ApplicationError(message, extra={"field": field}) from exc


def _category(value: HandValue) -> str:
    """A poker hand's category in words: "one pair", "three of a kind"."""
    return value.category.name.replace("_", " ").lower()


def _seat_rows(seats: Mapping[str, Mapping[str, str]]) -> dict[str, tuple[tuple[Card, ...], ...]]:
    """Each seat's front, middle and back as cards, or a 400 naming the seat and the row."""
    parsed = {}
    for seat, rows in seats.items():
        cards = []
        for row in ROWS:
            with _refused_as(f"seats.{seat}.{row}", _("Seat %(seat)s, %(row)s") % {"seat": seat, "row": row}):
                cards.append(parse_cards(rows[row]))
        parsed[seat] = tuple(cards)
    return parsed


class RuleSetIdField(StrictIntegerField):
    """The optional ``rule_set``: the id of a rule set of the endpoint's game."""

    def __init__(self) -> None:
        super().__init__(
            required=False,
            allow_null=True,
            default=None,
            help_text="Id of a rule set of this game; without it the game's default house rules apply.",
        )


# --- Pai Gow Poker ----------------------------------------------------------------------------------


class PaigowPokerHouseWayInputSerializer(serializers.Serializer[Any]):
    cards = StrictCharField(help_text="Seven cards, e.g. 'As Ad 7s 4d 2c Kh Kc'; the joker is Jk.")
    rule_set = RuleSetIdField()


class PaigowPokerHouseWayOutputSerializer(serializers.Serializer[Any]):
    high = serializers.CharField(help_text="The five-card high hand.")
    low = serializers.CharField(help_text="The two-card low hand.")
    rule = serializers.CharField(help_text="The house-way rule that chose the setting.")
    high_value = serializers.CharField(help_text="The high hand's category, e.g. 'one pair'.")
    low_value = serializers.CharField(help_text="The low hand's category: 'one pair' or 'high card'.")


class PaigowPokerHouseWayApi(APIView):
    @extend_schema(
        operation_id="assist_paigow_poker_house_way",
        request=PaigowPokerHouseWayInputSerializer,
        responses=PaigowPokerHouseWayOutputSerializer,
        summary="Pai Gow Poker: the bank's setting by the house way, and why",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(PaigowPokerHouseWayInputSerializer, request)
        options = _engine_options(rule_set_id=data["rule_set"], game=rule_options.PAIGOW_POKER)
        with _refused_as("cards"):
            cards = parse_cards(data["cards"])
            setting, rule = paigow_poker.house_way_explained(cards, **options["house_way"])
        answer = {
            "high": cards_text(setting.high),
            "low": cards_text(setting.low),
            "rule": rule,
            "high_value": _category(high_hand(setting.high, **options["hand"])),
            "low_value": _category(low_hand(setting.low)),
        }
        return Response(PaigowPokerHouseWayOutputSerializer(answer).data)


# --- Pai Gow tiles ----------------------------------------------------------------------------------


class PaigowTilesInputSerializer(serializers.Serializer[Any]):
    tiles = StrictCharField(help_text="Four tiles by their pips, e.g. '6-6 5-4 3-1 2-2'.")
    rule_set = RuleSetIdField()


class PaigowTilesHouseWayOutputSerializer(serializers.Serializer[Any]):
    high = serializers.CharField(help_text="The high two-tile hand.")
    low = serializers.CharField(help_text="The low two-tile hand.")
    rule = serializers.CharField(help_text="The house-way rule that chose the setting.")
    high_value = serializers.CharField(help_text="The high hand in words, e.g. 'Teen wong'.")
    low_value = serializers.CharField(help_text="The low hand in words, e.g. '9 points, high tile Mooy'.")


class PaigowTilesHouseWayApi(APIView):
    @extend_schema(
        operation_id="assist_paigow_tiles_house_way",
        request=PaigowTilesInputSerializer,
        responses=PaigowTilesHouseWayOutputSerializer,
        summary="Pai Gow tiles: the bank's setting by the house way, and why",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(PaigowTilesInputSerializer, request)
        options = _engine_options(rule_set_id=data["rule_set"], game=rule_options.PAIGOW_TILES)
        with _refused_as("tiles"):
            tiles = parse_tiles(data["tiles"])
            setting, rule = paigow_tiles.house_way_explained(tiles, **options["house_way"])
        answer = {
            "high": tiles_text(setting.high),
            "low": tiles_text(setting.low),
            "rule": rule,
            "high_value": paigow_tiles.hand_value(setting.high, **options["hand"]).describe(),
            "low_value": paigow_tiles.hand_value(setting.low, **options["hand"]).describe(),
        }
        return Response(PaigowTilesHouseWayOutputSerializer(answer).data)


class PaigowTilesSettingAdviceSerializer(serializers.Serializer[Any]):
    high = serializers.CharField()
    low = serializers.CharField()
    wins = serializers.IntegerField(help_text="Bank hands this setting beats, of 20,475.")
    pushes = serializers.IntegerField()
    losses = serializers.IntegerField()
    win = serializers.FloatField(help_text="The chance to win.")
    push = serializers.FloatField()
    loss = serializers.FloatField()
    ev = serializers.FloatField(help_text="Expected value per unit wagered, after any commission on a win.")


class PaigowTilesAdviceOutputSerializer(serializers.Serializer[Any]):
    tiles = serializers.CharField()
    way = serializers.CharField(help_text="The house way the bank sets its hands by.")
    commission_bp = serializers.IntegerField()
    commission_on_player_wins = serializers.BooleanField()
    bank_hands = serializers.IntegerField(help_text="Every bank hand the other 28 tiles allow: 20,475.")
    settings = PaigowTilesSettingAdviceSerializer(many=True)
    best = PaigowTilesSettingAdviceSerializer(help_text="The setting with the highest EV.")
    house = PaigowTilesSettingAdviceSerializer(help_text="The house way's own setting of these tiles.")


def _setting_advice(row: paigow_tiles_advice.SettingAdvice) -> dict[str, Any]:
    return {
        "high": tiles_text(row.setting.high),
        "low": tiles_text(row.setting.low),
        **{key: getattr(row, key) for key in ("wins", "pushes", "losses", "win", "push", "loss", "ev")},
    }


class PaigowPokerSettingAdviceSerializer(serializers.Serializer[Any]):
    high = serializers.CharField()
    low = serializers.CharField()
    foul = serializers.BooleanField(help_text="The low hand outranks the high hand.")
    win = serializers.FloatField(help_text="The chance to win, over the bank hands compared.")
    push = serializers.FloatField()
    loss = serializers.FloatField()
    ev = serializers.FloatField(help_text="Expected value per unit wagered, after any commission on a win.")
    margin = serializers.FloatField(help_text="95% margin of the EV (0 when exact).")


class PaigowPokerAdviceOutputSerializer(serializers.Serializer[Any]):
    cards = serializers.CharField()
    way = serializers.CharField(help_text="The house way the bank sets its hands by.")
    exact = serializers.BooleanField(help_text="False: against a random sample of the bank's hands.")
    bank_hands = serializers.IntegerField(help_text="Bank hands compared (all 53,524,680 the other cards allow).")
    margin = serializers.FloatField(help_text="The widest EV margin (95%).")
    settings = PaigowPokerSettingAdviceSerializer(many=True)
    best = PaigowPokerSettingAdviceSerializer(help_text="The setting with the highest EV.")
    house = PaigowPokerSettingAdviceSerializer(help_text="The house way's own setting of these cards.")


def _poker_setting_advice(row: paigow_poker_advice.SettingAdvice) -> dict[str, Any]:
    return {
        "high": cards_text(row.setting.high),
        "low": cards_text(row.setting.low),
        **{key: getattr(row, key) for key in ("foul", "win", "push", "loss", "ev", "margin")},
    }


# --- the advice: every setting's odds against a house-way bank -------------------------------------------------


# A hand's every setting, its odds and EV against a bank that sets its hand by the house way (nothing written): the
# one shape of the two advice endpoints. Each names its game, the input field holding the hand (refused in the
# engine's words, naming it), how it asks its engine and how it answers. (No docstring: drf-spectacular would publish
# it as each endpoint's description.)
# An advice endpoint: the rule set's options checked and read, then the game's own ``advise`` (a comment, not a
# docstring: drf-spectacular would publish a docstring as each endpoint's description).
class AdviseApi(APIView, ABC):
    game: ClassVar[str]
    hand: ClassVar[str]
    input_serializer: ClassVar[type[serializers.Serializer[Any]]]
    output_serializer: ClassVar[type[serializers.Serializer[Any]]]

    def post(self, request: Request) -> Response:
        data = valid_input(self.input_serializer, request)
        snapshot = _snapshot(rule_set_id=data["rule_set"], game=self.game)
        options = rule_options.engine_options(snapshot)
        with _refused_as(self.hand):
            answer = self.advise(
                data[self.hand],
                options,
                commission_bp=options["commission"]["rate_bp"],
                commission_on_player_wins=snapshot["commission_on_player_wins"],
            )
        return Response(self.output_serializer(answer).data)

    @abstractmethod
    def advise(
        self, hand: str, options: dict[str, dict[str, Any]], *, commission_bp: int, commission_on_player_wins: bool
    ) -> dict[str, Any]:
        """The engine's advice on ``hand`` as the endpoint answers it."""


@extend_schema_view(
    post=extend_schema(
        operation_id="assist_paigow_tiles_advise",
        request=PaigowTilesInputSerializer,
        responses=PaigowTilesAdviceOutputSerializer,
        summary="Pai Gow tiles: every setting's exact odds and EV against a house-way bank",
    )
)
class PaigowTilesAdviseApi(AdviseApi):
    game = rule_options.PAIGOW_TILES
    hand = "tiles"
    input_serializer = PaigowTilesInputSerializer
    output_serializer = PaigowTilesAdviceOutputSerializer

    def advise(
        self, hand: str, options: dict[str, dict[str, Any]], *, commission_bp: int, commission_on_player_wins: bool
    ) -> dict[str, Any]:
        advice = paigow_tiles_advice.advise(
            parse_tiles(hand),
            commission_bp=commission_bp,
            commission_on_player_wins=commission_on_player_wins,
            **options["house_way"],
        )
        return {
            "tiles": tiles_text(advice.tiles),
            "way": advice.way,
            "commission_bp": advice.commission_bp,
            "commission_on_player_wins": advice.commission_on_player_wins,
            "bank_hands": paigow_tiles_advice.BANK_HANDS,
            "settings": [_setting_advice(row) for row in advice.settings],
            "best": _setting_advice(advice.best),
            "house": _setting_advice(advice.house),
        }


@extend_schema_view(
    post=extend_schema(
        operation_id="assist_paigow_poker_advise",
        request=PaigowPokerHouseWayInputSerializer,
        responses=PaigowPokerAdviceOutputSerializer,
        summary="Pai Gow Poker: every setting's odds and EV against a house-way bank, with a 95% margin",
    )
)
class PaigowPokerAdviseApi(AdviseApi):
    game = rule_options.PAIGOW_POKER
    hand = "cards"
    input_serializer = PaigowPokerHouseWayInputSerializer
    output_serializer = PaigowPokerAdviceOutputSerializer

    def advise(
        self, hand: str, options: dict[str, dict[str, Any]], *, commission_bp: int, commission_on_player_wins: bool
    ) -> dict[str, Any]:
        advice = pgp_advise(
            parse_cards(hand),
            commission_bp=commission_bp,
            commission_on_player_wins=commission_on_player_wins,
            outcome=options["outcome"],
        )
        return {
            "cards": cards_text(advice.cards),
            "way": advice.way,
            "exact": advice.exact,
            "bank_hands": advice.bank_hands,
            "margin": advice.margin,
            "settings": [_poker_setting_advice(row) for row in advice.settings],
            "best": _poker_setting_advice(advice.best),
            "house": _poker_setting_advice(advice.house),
        }


# --- the points games: Chinese Poker and OFC --------------------------------------------------------


class PointsSeatRowsSerializer(serializers.Serializer[Any]):
    front = StrictCharField(help_text="3 cards, e.g. 'Qs Qd 4c'.")
    middle = StrictCharField(help_text="5 cards.")
    back = StrictCharField(help_text="5 cards.")


class PointsScoreInputSerializer(serializers.Serializer[Any]):
    seats = serializers.DictField(
        child=PointsSeatRowsSerializer(), help_text="Two to four seats, each keyed by its seat label, e.g. '1'."
    )
    stakes_cents = StrictIntegerField(
        required=False, allow_null=True, default=None, min_value=0, help_text="Cents a point, for totals in money."
    )
    rule_set = RuleSetIdField()


class PointsSeatTotalSerializer(serializers.Serializer[Any]):
    seat = serializers.CharField()
    points = serializers.IntegerField(help_text="The seat's net points against every other seat (zero-sum).")
    cents = serializers.IntegerField(allow_null=True, help_text="The points in cents at the stakes; null without.")


class ChinesePokerPairScoreSerializer(serializers.Serializer[Any]):
    seat = serializers.CharField(source="player")
    opponent = serializers.CharField()
    won = serializers.IntegerField(help_text="Rows won (0-3 for a fouled hand, as if scooped).")
    lost = serializers.IntegerField()
    ties = serializers.IntegerField()
    system = serializers.IntegerField(help_text="Points for the rows under the points system.")
    royalties = serializers.IntegerField()
    natural = serializers.IntegerField()
    fouled = serializers.BooleanField()
    opponent_fouled = serializers.BooleanField()
    net = serializers.IntegerField(help_text="The seat's points from the opponent, every item summed.")


class ChinesePokerScoreOutputSerializer(serializers.Serializer[Any]):
    seats = PointsSeatTotalSerializer(many=True)
    pairs = ChinesePokerPairScoreSerializer(many=True, help_text="Every ordered pair of seats.")


class ChinesePokerScoreApi(APIView):
    @extend_schema(
        operation_id="assist_chinese_poker_score",
        request=PointsScoreInputSerializer,
        responses=ChinesePokerScoreOutputSerializer,
        summary="Chinese Poker: score a round, every seat against every other",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(PointsScoreInputSerializer, request)
        options = _engine_options(rule_set_id=data["rule_set"], game=rule_options.CHINESE_POKER)
        hands = {}
        for seat, rows in _seat_rows(data["seats"]).items():
            with _refused_as(f"seats.{seat}", _("Seat %(seat)s") % {"seat": seat}):
                hands[seat] = chinese_poker.Arrangement(*rows)
        with _refused_as("seats"):
            sheet = chinese_poker.score(hands, stakes=data["stakes_cents"], **options["score"])
        cents = sheet.totals_cents or {}
        answer = {
            "seats": [
                {"seat": seat, "points": points, "cents": cents.get(seat)} for seat, points in sheet.totals.items()
            ],
            "pairs": list(sheet.pairs.values()),
        }
        return Response(ChinesePokerScoreOutputSerializer(answer).data)


class ChinesePokerSuggestInputSerializer(serializers.Serializer[Any]):
    cards = StrictCharField(help_text="The 13 cards dealt, e.g. '2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c'.")
    top = StrictIntegerField(required=False, default=3, min_value=1, max_value=5)
    rule_set = RuleSetIdField()


class ChinesePokerSuggestionSerializer(serializers.Serializer[Any]):
    front = serializers.CharField()
    middle = serializers.CharField()
    back = serializers.CharField()
    front_value = serializers.CharField(help_text="The front in words, e.g. 'pair of queens'.")
    middle_value = serializers.CharField()
    back_value = serializers.CharField()
    score = serializers.FloatField(help_text="Expected points against one opponent, royalties included.")
    royalties = serializers.IntegerField(help_text="Royalties the arrangement earns from each opponent.")
    win_chances = serializers.ListField(
        child=serializers.FloatField(), help_text="The front's, middle's and back's chance to win its row."
    )


class ChinesePokerSuggestApi(APIView):
    @extend_schema(
        operation_id="assist_chinese_poker_suggest",
        request=ChinesePokerSuggestInputSerializer,
        responses=ChinesePokerSuggestionSerializer(many=True),
        summary="Chinese Poker: the best ways to set 13 cards, best first",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(ChinesePokerSuggestInputSerializer, request)
        options = _engine_options(rule_set_id=data["rule_set"], game=rule_options.CHINESE_POKER)
        with _refused_as("cards"):
            suggestions = chinese_poker.suggest(
                parse_cards(data["cards"]),
                top=data["top"],
                scoring=options["score"]["scoring"],
                royalties=options["score"]["royalties"],
            )
        answer = [
            {
                **{row: cards_text(getattr(s.arrangement, row)) for row in ROWS},
                **{f"{row}_value": value.describe() for row, value in zip(ROWS, s.values, strict=True)},
                "score": s.score,
                "royalties": s.royalties,
                "win_chances": list(s.win_chances),
            }
            for s in suggestions
        ]
        return Response(ChinesePokerSuggestionSerializer(answer, many=True).data)


class OfcSeatTotalSerializer(PointsSeatTotalSerializer):
    royalties = serializers.IntegerField(help_text="Royalties the board earns (none when fouled).")
    fouled = serializers.BooleanField()
    fantasyland = serializers.BooleanField(help_text="Qualifies for Fantasyland (only when the rules play it).")


class OfcPairScoreSerializer(serializers.Serializer[Any]):
    seat = serializers.CharField(source="player")
    opponent = serializers.CharField()
    rows = serializers.ListField(child=serializers.IntegerField(), help_text="Front, middle, back: +1, 0 or -1.")
    row_points = serializers.IntegerField()
    scoop = serializers.IntegerField(help_text="+3 or -3 for all three rows, else 0.")
    foul = serializers.IntegerField(help_text="The 6 points a fouled board pays, signed.")
    royalties = serializers.IntegerField()
    net = serializers.IntegerField(source="total", help_text="The seat's points from the opponent, every item summed.")


class OfcScoreOutputSerializer(serializers.Serializer[Any]):
    royalty_table = serializers.CharField()
    seats = OfcSeatTotalSerializer(many=True)
    pairs = OfcPairScoreSerializer(many=True, help_text="Every ordered pair of seats.")


class OfcScoreApi(APIView):
    @extend_schema(
        operation_id="assist_ofc_score",
        request=PointsScoreInputSerializer,
        responses=OfcScoreOutputSerializer,
        summary="Open-Face Chinese Poker: score finished boards, every seat against every other",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(PointsScoreInputSerializer, request)
        options = _engine_options(rule_set_id=data["rule_set"], game=rule_options.OFC)
        boards = {}
        for seat, rows in _seat_rows(data["seats"]).items():
            with _refused_as(f"seats.{seat}", _("Seat %(seat)s") % {"seat": seat}):
                boards[seat] = ofc.Board.from_rows(*rows)
        with _refused_as("seats"):
            sheet = ofc.score(boards, **options["score"])
        stakes = data["stakes_cents"]
        cents = sheet.totals_cents(stakes) if stakes is not None else {}
        answer = {
            "royalty_table": sheet.table,
            "seats": [
                {
                    "seat": seat,
                    "points": points,
                    "cents": cents.get(seat),
                    "royalties": sheet.royalties[seat],
                    "fouled": seat in sheet.fouls,
                    "fantasyland": seat in sheet.fantasyland,
                }
                for seat, points in sheet.totals.items()
            ],
            "pairs": list(sheet.pairs.values()),
        }
        return Response(OfcScoreOutputSerializer(answer).data)
