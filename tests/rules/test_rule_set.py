"""A rule set holds every house-rule option of GAME_RULES.md for its game, validated, and freezes into snapshots."""

# ruff: noqa: E501  (BAD_VALUES is one case a line, each with the exact message a pit boss reads)

from __future__ import annotations

import importlib
import json

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from rules import options as rule_options
from rules.games import chinese_poker, commission, ofc, paigow_poker, paigow_tiles, poker
from rules.games.cards import parse_cards
from rules.games.tiles import parse_tiles
from rules.models import Game, RuleSet
from rules.services import rule_set_create, rule_set_default, rule_set_update

# GAME_RULES.md's defaults, written out by hand from the document (not from rules.options).
GAME_RULES_DEFAULTS = {
    "paigow_tiles": {
        "commission_rate_bp": 500,
        "commission_rounding": "cent_down",
        "commission_on_player_wins": False,
        "banking_mode": "house",
        "options": {
            "tiles_house_way": "foxwoods",
            "foul_policy": "forfeit",
            "gee_joon_single_rank": "seed",
            "zero_zero_copy": True,
            "mode": "bank",
            "gee_joon_as_zero": False,
            "peer_points": False,
        },
    },
    "paigow_poker": {
        "commission_rate_bp": 500,
        "commission_rounding": "cent_down",
        "commission_on_player_wins": True,
        "banking_mode": "house",
        "options": {
            "pgp_house_way": "golden_nugget",
            "foul_policy": "forfeit",
            "wheel_second_highest": True,
            "joker_flush_as_ace": False,
            "house_wager": True,
        },
    },
    "chinese_poker": {
        "commission_rate_bp": 0,
        "commission_rounding": "cent_down",
        "commission_on_player_wins": False,
        "banking_mode": "none",
        "options": {
            "cp_scoring": "2-4",
            "cp_royalties": "seed",
            "naturals": True,
            "natural_vs_natural": "higher",
            "surrender_allowed": False,
            "swap_allowed": False,
            "rake_bp": 0,
            "time_charge_cents": 0,
        },
    },
    "ofc": {
        "commission_rate_bp": 0,
        "commission_rounding": "cent_down",
        "commission_on_player_wins": False,
        "banking_mode": "none",
        "options": {"ofc_royalties": "mainz", "fantasyland": False, "rake_bp": 0, "time_charge_cents": 0},
    },
}


def test_the_options_know_exactly_the_four_games() -> None:
    assert set(rule_options.GAME_LABELS) == set(Game.values) == set(rule_options.GAME_OPTIONS)
    assert {game: str(label) for game, label in Game.choices} == dict(rule_options.GAME_LABELS)


@pytest.mark.parametrize("game", Game.values)
def test_a_new_rule_set_takes_game_rules_defaults_for_everything_not_given(pit_boss, game) -> None:
    rule_set = rule_set_create(actor=pit_boss, name=f"{game} plain", game=game)
    snapshot = rule_set.snapshot()
    assert {key: snapshot[key] for key in GAME_RULES_DEFAULTS[game]} == GAME_RULES_DEFAULTS[game]
    assert rule_options.defaults(game) == GAME_RULES_DEFAULTS[game]


def test_the_allowed_values_come_from_the_engines_registries() -> None:
    by_key = {(game, o.key): o for game, opts in rule_options.GAME_OPTIONS.items() for o in opts}
    assert by_key["paigow_poker", "pgp_house_way"].choices == tuple(paigow_poker.HOUSE_WAYS)
    assert by_key["paigow_poker", "foul_policy"].choices == paigow_poker.FOUL_POLICIES
    assert by_key["paigow_tiles", "tiles_house_way"].choices == tuple(paigow_tiles.HOUSE_WAYS)
    assert by_key["paigow_tiles", "gee_joon_single_rank"].choices == paigow_tiles.GEE_JOON_SINGLE_RANKS
    assert by_key["chinese_poker", "cp_scoring"].choices == tuple(chinese_poker.POINTS_SYSTEMS)
    assert by_key["chinese_poker", "cp_royalties"].choices == tuple(chinese_poker.ROYALTY_TABLES)
    assert by_key["ofc", "ofc_royalties"].choices == tuple(ofc.ROYALTY_TABLES)


@pytest.mark.django_db
def test_the_migration_made_one_default_rule_set_per_game_at_the_defaults() -> None:
    migration = importlib.import_module("rules.migrations.0002_default_rule_sets")
    for values in migration.DEFAULT_RULE_SETS:
        game = values["game"]
        assert values["name"] == rule_options.DEFAULT_RULE_SET_NAMES[game]
        # Options added after the migration (``rule_options.OPTIONS_ADDED_LATER``) take their default when read.
        later = rule_options.OPTIONS_ADDED_LATER.get(game, ())
        defaults = GAME_RULES_DEFAULTS[game]
        at_migration = {**defaults, "options": {k: v for k, v in defaults["options"].items() if k not in later}}
        assert {k: v for k, v in values.items() if k not in ("name", "game")} == at_migration
    for game in Game.values:
        assert rule_set_default(game=game).settings() == GAME_RULES_DEFAULTS[game]


@pytest.mark.django_db
def test_the_default_rule_set_is_made_again_when_missing() -> None:
    RuleSet.objects.filter(game="ofc").delete()
    made = rule_set_default(game="ofc")
    assert made.name == "Open-Face Chinese Poker — house rules (Mainz)"
    assert AuditEvent.objects.get(event_type="rule_set.created").subject_id == str(made.pk)
    assert rule_set_default(game="ofc") == made


PGP, TILES, CP = "paigow_poker", "paigow_tiles", "chinese_poker"
BAD_VALUES = [
    (PGP, {"pgp_house_way": "caesars"}, "Unknown house way 'caesars' for Pai Gow Poker: choose golden_nugget, trump_plaza, foxwoods or trump_plaza_literal."),
    (PGP, {"foul_policy": "push"}, "Unknown foul policy 'push' for Pai Gow Poker: choose forfeit or house_way."),
    (PGP, {"wheel_second_highest": "yes"}, "The wheel (5-4-3-2-A) second-highest straight (wheel_second_highest) for Pai Gow Poker is on or off (true or false), not 'yes'."),
    (PGP, {"joker_flush_as_ace": 1}, "The joker in a flush is always an ace (joker_flush_as_ace) for Pai Gow Poker is on or off (true or false), not 1."),
    (PGP, {"cp_scoring": "2-4"}, "Pai Gow Poker has no option 'cp_scoring': its options are pgp_house_way, foul_policy, wheel_second_highest, joker_flush_as_ace or house_wager."),
    (PGP, {"commission_rate_bp": 10_001}, "The commission rate is in basis points, 0 to 10000 (500 is 5%), not 10001."),
    (PGP, {"commission_rate_bp": -1}, "The commission rate is in basis points, 0 to 10000 (500 is 5%), not -1."),
    (PGP, {"commission_rate_bp": "500"}, "The commission rate is in basis points, 0 to 10000 (500 is 5%), not '500'."),
    (PGP, {"commission_rounding": "nearest"}, "Unknown commission rounding 'nearest': choose cent_down, cent_up, quarter_down, quarter_up or whole_unit."),
    (PGP, {"commission_on_player_wins": "no"}, "Commission on player wins is on or off (true or false), not 'no'."),
    (PGP, {"banking_mode": "none"}, "Pai Gow Poker cannot be banked 'none': choose house, player_rotation or co_banking."),
    (PGP, {"banking_mode": "casino"}, "Unknown banking mode 'casino': choose house, player_rotation or co_banking for Pai Gow Poker."),
    (TILES, {"tiles_house_way": "taj_mahal"}, "Unknown house way 'taj_mahal' for Pai Gow (tiles): choose foxwoods."),
    (TILES, {"foul_policy": "redeal"}, "Unknown foul policy 'redeal' for Pai Gow (tiles): choose forfeit or house_way."),
    (TILES, {"gee_joon_single_rank": "highest"}, "Unknown Gee Joon single rank 'highest' for Pai Gow (tiles): choose seed or lowest."),
    (TILES, {"zero_zero_copy": None}, "The zero against zero is a copy (zero_zero_copy) for Pai Gow (tiles) is on or off (true or false), not None."),
    (TILES, {"mode": "tournament"}, "Unknown mode 'tournament' for Pai Gow (tiles): choose bank or peer."),
    (TILES, {"banking_mode": "co_banking"}, "Pai Gow (tiles) cannot be banked 'co_banking': choose house, player_rotation or none."),
    (TILES, {"gee_joon_as_zero": True}, "gee_joon_as_zero is a rule of the peer variant only: set mode to 'peer' to use it."),
    (TILES, {"peer_points": True}, "peer_points is a rule of the peer variant only: set mode to 'peer' to use it."),
    (TILES, {"mode": "peer"}, "The peer variant has no banker: set the banking mode to 'none' and commission on player wins off."),
    (TILES, {"banking_mode": "none"}, "Banked Pai Gow needs a banker: choose 'house' or 'player_rotation', or set mode to 'peer' for the game without one."),
    (CP, {"cp_scoring": "3-6"}, "Unknown points system '3-6' for Chinese Poker: choose 2-4, 1-6 or 1-4."),
    (CP, {"cp_royalties": "mainz"}, "Unknown royalty table 'mainz' for Chinese Poker: choose seed or none."),
    (CP, {"natural_vs_natural": "split"}, "Unknown natural against natural 'split' for Chinese Poker: choose higher or push."),
    (CP, {"naturals": False, "natural_vs_natural": "push"}, "Natural against natural has no meaning with naturals off."),
    (CP, {"surrender_allowed": "sometimes"}, "The surrender (surrender_allowed) for Chinese Poker is on or off (true or false), not 'sometimes'."),
    (CP, {"swap_allowed": 0}, "The swap (swap_allowed) for Chinese Poker is on or off (true or false), not 0."),
    (CP, {"rake_bp": 10_001}, "The rake (basis points of a player's net win) (rake_bp) for Chinese Poker is a whole number from 0 to 10000, not 10001."),
    (CP, {"rake_bp": True}, "The rake (basis points of a player's net win) (rake_bp) for Chinese Poker is a whole number from 0 to 10000, not True."),
    (CP, {"time_charge_cents": -5}, "The time charge (cents a seat each half hour) (time_charge_cents) for Chinese Poker is a whole number from 0 to 100000, not -5."),
    (CP, {"rake_bp": 500, "time_charge_cents": 300}, "The house takes a rake or a time charge, not both: set one of them to 0."),
    (CP, {"banking_mode": "house"}, "Chinese Poker has no bank: its banking mode is 'none', not 'house'."),
    (CP, {"commission_rate_bp": 500}, "Chinese Poker has no bank and takes no commission (set the rate to 0 and commission on player wins off): the house takes a rake or a time charge instead."),
    ("ofc", {"ofc_royalties": "seed"}, "Unknown royalty table 'seed' for Open-Face Chinese Poker: choose mainz or standard."),
    ("ofc", {"fantasyland": "QQ"}, "The Fantasyland (fantasyland) for Open-Face Chinese Poker is on or off (true or false), not 'QQ'."),
    ("ofc", {"surrender_allowed": True}, "Open-Face Chinese Poker has no option 'surrender_allowed': its options are ofc_royalties, fantasyland, rake_bp or time_charge_cents."),
    ("baccarat", {}, "Unknown game 'baccarat': choose paigow_tiles, paigow_poker, chinese_poker or ofc."),
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "values", "message"), BAD_VALUES)
def test_a_bad_option_is_refused_in_a_pit_boss_words_and_nothing_is_written(pit_boss, game, values, message) -> None:
    rule_sets, events = RuleSet.objects.count(), AuditEvent.objects.count()
    with pytest.raises(ApplicationError) as refused:
        rule_set_create(actor=pit_boss, name="Bad rules", game=game, **values)
    assert refused.value.message == message
    assert (RuleSet.objects.count(), AuditEvent.objects.count()) == (rule_sets, events)


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "values", "message"), [row for row in BAD_VALUES if row[0] != "baccarat"])
def test_a_bad_change_is_refused_the_same_way_and_the_rule_set_is_unchanged(pit_boss, game, values, message) -> None:
    rule_set = rule_set_default(game=game)
    before, events = rule_set.snapshot(), AuditEvent.objects.count()
    with pytest.raises(ApplicationError) as refused:
        rule_set_update(actor=pit_boss, rule_set=rule_set, **values)
    assert refused.value.message == message
    rule_set.refresh_from_db()
    assert rule_set.snapshot() == before
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_a_rule_set_name_is_needed_and_unique(pit_boss) -> None:
    with pytest.raises(ApplicationError, match="A rule set needs a name"):
        rule_set_create(actor=pit_boss, name="  ", game="ofc")
    rule_set_create(actor=pit_boss, name="OFC standard", game="ofc", ofc_royalties="standard")
    with pytest.raises(ApplicationError, match="There is already a rule set called 'ofc STANDARD'"):
        rule_set_create(actor=pit_boss, name="ofc STANDARD", game="ofc")


@pytest.mark.django_db
def test_the_peer_variant_is_a_valid_tiles_rule_set_without_a_bank(pit_boss) -> None:
    rule_set = rule_set_create(
        actor=pit_boss,
        name="Czech peer tiles",
        game="paigow_tiles",
        mode="peer",
        banking_mode="none",
        gee_joon_as_zero=True,
        peer_points=True,
    )
    assert rule_set.snapshot()["options"]["gee_joon_as_zero"] is True
    results = paigow_tiles.peer_results(
        {
            1: paigow_tiles.Setting.parse("4-2 6-3", "6-6 5-1"),
            2: paigow_tiles.Setting.parse("1-1 2-2", "5-5 6-4"),
        },
        **rule_set.engine_options()["peer_results"],
    )
    assert set(results) == {(1, 2), (2, 1)}


@pytest.mark.django_db
def test_a_snapshot_is_complete_json_and_feeds_every_pai_gow_poker_engine_call(pit_boss) -> None:
    rule_set = rule_set_create(
        actor=pit_boss,
        name="PGP Foxwoods",
        game="paigow_poker",
        pgp_house_way="foxwoods",
        wheel_second_highest=False,
        foul_policy="house_way",
        commission_rounding="quarter_up",
    )
    snapshot = rule_set.snapshot()
    assert json.loads(json.dumps(snapshot)) == snapshot
    assert set(snapshot["options"]) == {o.key for o in rule_options.GAME_OPTIONS["paigow_poker"]}
    assert {"name", "game", "version", "rule_set_id", *rule_options.COMMON_FIELDS} <= set(snapshot)
    assert len(snapshot["version"]) == 64

    opts = rule_options.engine_options(snapshot)
    cards = parse_cards("9s 9h 9d 2c 2d Ah Kc")
    banker = paigow_poker.house_way(cards, **opts["house_way"])
    assert str(banker) == str(paigow_poker.house_way(cards, "foxwoods", wheel_second_highest=False))
    fouled = paigow_poker.Setting.parse("Ks Qd 7s 4d 3c", "As Ac")
    reset = paigow_poker.house_way(fouled.cards, **opts["house_way"])
    expected = paigow_poker.outcome(reset, banker, **opts["outcome"])
    assert paigow_poker.outcome(fouled, banker, **opts["outcome"]) is expected  # foul_policy house_way: re-set
    assert paigow_poker.outcome(fouled, banker, foul_policy="forfeit") is paigow_poker.Outcome.LOSS
    assert poker.high_hand(parse_cards("5s 4d 3c 2h As"), **opts["hand"]) < poker.high_hand(
        parse_cards("6s 5d 4c 3h 2s"), **opts["hand"]
    )  # the wheel is the lowest straight here
    assert commission.commission_cents(2_700, **opts["commission"]) == 150


@pytest.mark.django_db
def test_the_other_games_snapshots_feed_their_engines(pit_boss) -> None:
    tiles = rule_options.engine_options(rule_set_default(game="paigow_tiles").snapshot())
    four = parse_tiles("6-3 5-4 6-6 5-5")
    banker = paigow_tiles.house_way(four, **tiles["house_way"])
    player = paigow_tiles.house_way(parse_tiles("1-1 3-1 2-2 4-4"), **tiles["house_way"])
    assert paigow_tiles.outcome(player, banker, **tiles["outcome"]) in paigow_tiles.Outcome
    assert paigow_tiles.hand_value(parse_tiles("1-1 4-4"), **tiles["hand"]).describe() == "Day gong"

    cp_rules = rule_set_create(actor=pit_boss, name="CP 1-6", game="chinese_poker", cp_scoring="1-6", rake_bp=500)
    cp = cp_rules.engine_options()
    ann = chinese_poker.Arrangement.parse("2s 3h 4d", "Ks Kh Kd 8c 8d", "9s 9h 9d 9c 5c")
    bob = chinese_poker.Arrangement.parse("As Kc 7d", "Qs Qh Jc Js 2c", "8s 7h 6d 5s 4c")
    assert chinese_poker.score({"ann": ann, "bob": bob}, **cp["score"]).totals == {"ann": 5, "bob": -5}
    assert chinese_poker.royalties(ann, **cp["royalties"]) == 4
    assert commission.commission_cents(1_000, **cp["rake"]) == 50

    of = rule_options.engine_options(rule_set_default(game="ofc").snapshot())
    a = ofc.Board.from_rows("2s 3d 4c", "Tc Th 7d 7s 2h", "Ac Ad Ah 3s 3h")
    b = ofc.Board.from_rows("5s 6d 8c", "9c 9h Jd Qs 2d", "Kc Kd Kh Js Jc")
    assert ofc.score({"ann": a, "bob": b}, **of["score"]).pairs["ann", "bob"].total == 1
    assert ofc.royalties(a, **of["royalties"]) == 6


@pytest.mark.django_db
def test_editing_a_rule_set_never_changes_a_snapshot_taken_before(pit_boss) -> None:
    rule_set = rule_set_create(actor=pit_boss, name="PGP high limit", game="paigow_poker")
    frozen = rule_set.snapshot()
    kept = json.dumps(frozen, sort_keys=True)
    rule_set_update(actor=pit_boss, rule_set=rule_set, pgp_house_way="trump_plaza", commission_rate_bp=400)
    rule_set.refresh_from_db()
    assert json.dumps(frozen, sort_keys=True) == kept
    assert rule_options.engine_options(frozen)["house_way"]["way"] == "golden_nugget"
    assert rule_set.snapshot()["options"]["pgp_house_way"] == "trump_plaza"
    assert rule_set.snapshot()["version"] != frozen["version"]


@pytest.mark.django_db
def test_the_version_hash_follows_the_rules_not_the_name(pit_boss) -> None:
    one = rule_set_create(actor=pit_boss, name="A", game="ofc")
    two = rule_set_create(actor=pit_boss, name="B", game="ofc")
    assert one.snapshot()["version"] == two.snapshot()["version"]
    rule_set_update(actor=pit_boss, rule_set=two, fantasyland=True)
    two.refresh_from_db()
    assert one.snapshot()["version"] != two.snapshot()["version"]


@pytest.mark.django_db
def test_creating_and_editing_write_audit_events_with_before_and_after(floor_supervisor) -> None:
    rule_set = rule_set_create(actor=floor_supervisor, name="Tiles, lowest Gee Joon", game="paigow_tiles")
    created = AuditEvent.objects.get(event_type="rule_set.created", subject_id=str(rule_set.pk))
    assert created.subject_type == "rules.ruleset"
    assert created.before is None and created.after == rule_set.snapshot()
    assert created.actor == floor_supervisor
    old = rule_set.snapshot()
    rule_set = rule_set_update(actor=floor_supervisor, rule_set=rule_set, gee_joon_single_rank="lowest", name="T2")
    updated = AuditEvent.objects.get(event_type="rule_set.updated")
    assert updated.before == old
    assert updated.after == rule_set.snapshot()
    assert (updated.before["options"]["gee_joon_single_rank"], updated.after["options"]["gee_joon_single_rank"]) == (
        "seed",
        "lowest",
    )
    assert updated.after["name"] == "T2"


@pytest.mark.django_db
def test_an_edit_that_changes_nothing_is_refused(pit_boss) -> None:
    rule_set = rule_set_default(game="paigow_poker")
    with pytest.raises(WrongState, match="already has these rules"):
        rule_set_update(actor=pit_boss, rule_set=rule_set, pgp_house_way="golden_nugget")


@pytest.mark.django_db
def test_a_rule_sets_game_cannot_change(pit_boss) -> None:
    rule_set = rule_set_default(game="paigow_poker")
    with pytest.raises(ApplicationError, match="its game cannot change"):
        rule_set_update(actor=pit_boss, rule_set=rule_set, game="paigow_tiles")


@pytest.mark.django_db
def test_a_dealer_cannot_create_or_edit_a_rule_set(dealer, auditor) -> None:
    rule_set = rule_set_default(game="paigow_poker")
    events = AuditEvent.objects.count()
    for persona in (dealer, auditor):
        with pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may create a rule set"):
            rule_set_create(actor=persona, name="Mine", game="ofc")
        with pytest.raises(NotAllowed, match="may edit a rule set"):
            rule_set_update(actor=persona, rule_set=rule_set, commission_rate_bp=0)
    rule_set.refresh_from_db()
    assert rule_set.commission_rate_bp == 500
    assert not RuleSet.objects.filter(name="Mine").exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_the_admin_form_refuses_bad_options_with_the_same_words(pit_boss) -> None:
    from rules.admin import RuleSetForm

    form = RuleSetForm(data={"name": "Admin PGP", "game": "paigow_poker", "options": '{"pgp_house_way": "caesars"}'})
    assert not form.is_valid()
    assert form.errors["pgp_house_way" if "pgp_house_way" in form.errors else "options"] == [
        "Unknown house way 'caesars' for Pai Gow Poker: choose golden_nugget, trump_plaza, foxwoods or trump_plaza_literal."
    ]
    good = RuleSetForm(data={"name": "Admin CP", "game": "chinese_poker", "options": '{"cp_scoring": "1-6"}'})
    assert good.is_valid(), good.errors
    assert good.validated_settings["commission_rate_bp"] == 0
    assert good.validated_settings["options"]["cp_scoring"] == "1-6"
