"""Every existing table plays by its game's default rule set (made by rules 0002)."""

from django.db import migrations

DEFAULT_RULE_SET_NAMES = {
    "paigow_tiles": "Pai Gow (tiles) — house rules (Foxwoods)",
    "paigow_poker": "Pai Gow Poker — house rules (Golden Nugget)",
    "chinese_poker": "Chinese Poker — house rules (2-4, seed royalties)",
    "ofc": "Open-Face Chinese Poker — house rules (Mainz)",
}


def assign(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    RuleSet = apps.get_model("rules", "RuleSet")
    for game, name in DEFAULT_RULE_SET_NAMES.items():
        rule_set = RuleSet.objects.get(name=name, game=game)
        Table.objects.filter(game=game, rule_set__isnull=True).update(rule_set=rule_set)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0002_table_rule_set"),
        ("rules", "0002_default_rule_sets"),
    ]

    operations = [migrations.RunPython(assign, migrations.RunPython.noop)]
