"""``manage.py paigow_poker_tables``: set every Pai Gow Poker house way's flush memo once and keep it in
``VAR_DIR/paigow-poker``, so the tablet's advice is exact from its first tap (``rules.advice``)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from rules.advice import tables_directory
from rules.games.paigow_poker import HOUSE_WAYS
from rules.games.paigow_poker_batch import flush_memo_file, flush_memo_prepare
from rules.models import RuleSet
from rules.options import PAIGOW_POKER, engine_options


class Command(BaseCommand):
    help = (
        "Set each Pai Gow Poker house way's flush memo (a few seconds each) into VAR_DIR/paigow-poker, for the "
        "house rules' options and those of every Pai Gow Poker rule set: the tablet's advice is then exact."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        wanted: set[tuple[str, bool, bool]] = {(name, True, False) for name in HOUSE_WAYS}
        for rule_set in RuleSet.objects.filter(game=PAIGOW_POKER):
            house_way = engine_options(rule_set.snapshot())["house_way"]
            wanted.add((house_way["way"], house_way["wheel_second_highest"], house_way["joker_flush_as_ace"]))
        directory = tables_directory()
        for way, wheel, joker in sorted(wanted):
            started = time.perf_counter()
            read = flush_memo_prepare(way, wheel_second_highest=wheel, joker_flush_as_ace=joker, directory=directory)
            path = flush_memo_file(directory, way, (wheel, joker))
            said = "already there" if read else f"set in {time.perf_counter() - started:.1f} s"
            self.stdout.write(
                f"{way} (wheel second highest: {wheel}, joker in a flush an ace: {joker}): {said}, {path}"
            )
