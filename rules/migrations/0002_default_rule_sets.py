"""One rule set per game at GAME_RULES.md's defaults, so every table can play by one.

The values are written out here (not read from rules.options) because a migration
must give the same result whenever it runs; tests/rules/test_rule_set.py checks
that they equal rules.options' defaults today.
"""

from django.db import migrations

DEFAULT_RULE_SETS = [
    {
        "name": "Pai Gow (tiles) — house rules (Foxwoods)",
        "game": "paigow_tiles",
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
    {
        "name": "Pai Gow Poker — house rules (Golden Nugget)",
        "game": "paigow_poker",
        "commission_rate_bp": 500,
        "commission_rounding": "cent_down",
        "commission_on_player_wins": True,
        "banking_mode": "house",
        "options": {
            "pgp_house_way": "golden_nugget",
            "foul_policy": "forfeit",
            "wheel_second_highest": True,
            "joker_flush_as_ace": False,
        },
    },
    {
        "name": "Chinese Poker — house rules (2-4, seed royalties)",
        "game": "chinese_poker",
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
    {
        "name": "Open-Face Chinese Poker — house rules (Mainz)",
        "game": "ofc",
        "commission_rate_bp": 0,
        "commission_rounding": "cent_down",
        "commission_on_player_wins": False,
        "banking_mode": "none",
        "options": {
            "ofc_royalties": "mainz",
            "fantasyland": False,
            "rake_bp": 0,
            "time_charge_cents": 0,
        },
    },
]


def create_defaults(apps, schema_editor):
    RuleSet = apps.get_model("rules", "RuleSet")
    for values in DEFAULT_RULE_SETS:
        if not RuleSet.objects.filter(name=values["name"]).exists():
            RuleSet.objects.create(**values)


def remove_defaults(apps, schema_editor):
    RuleSet = apps.get_model("rules", "RuleSet")
    RuleSet.objects.filter(name__in=[v["name"] for v in DEFAULT_RULE_SETS]).delete()


class Migration(migrations.Migration):
    dependencies = [("rules", "0001_initial")]

    operations = [migrations.RunPython(create_defaults, remove_defaults)]
