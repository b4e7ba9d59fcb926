"""``manage.py shift_report``: build a closed shift's report (if needed) and write its PDF, CSV or HTML.

    python manage.py shift_report --shift 3 --kind shift --pdf shift-3.pdf --csv shift-3.csv --html shift-3.html

``--demo`` makes the sample of docs/samples/ on a seeded demo floor (``make demo``, or ``manage.py migrate`` and
``manage.py seed_demo``): it plays a handful of rounds of every game on the open shift (the system deals and sets
the hands by the house way, the services settle them), closes the shift and writes its end-of-shift report to
docs/samples/shift-report.pdf (and the chart beside it, shift-report-chart.png), unless ``--pdf`` says where.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from casino.models import Shift
from casino.services import shift_close
from pit.report_pdf import hourly_chart_png
from pit.services import shift_report_build
from rounds.models import Round
from rounds.services import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_open,
    round_placements_record,
    wager_place,
)
from rules.games import chinese_poker, registry
from rules.games.cards import cards_text, parse_cards
from rules.hands import dealt_bank_position, dealt_hands_set
from settlement.models import ShiftReport
from settlement.services import settle_round
from tables.models import Table

DEMO_ROUNDS = 4  # per table
DEMO_SEED = 8  # the demo's deals, so the sample is the same on every run of a fresh demo floor


class Command(BaseCommand):
    help = "Build a closed shift's report if needed and write its PDF, CSV or HTML (or --demo: the docs sample)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--shift", type=int, help="the shift's id")
        parser.add_argument("--kind", default="shift", choices=ShiftReport.Kind.values)
        parser.add_argument("--pdf", type=Path, help="write the PDF here")
        parser.add_argument("--csv", type=Path, help="write the CSV here")
        parser.add_argument("--html", type=Path, help="write the HTML here")
        parser.add_argument(
            "--demo",
            action="store_true",
            help="play rounds of every game on the seeded demo floor's open shift, close it, write the sample PDF",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["demo"]:
            shift = self._demo()
            options["pdf"] = options["pdf"] or Path(settings.BASE_DIR) / "docs" / "samples" / "shift-report.pdf"
        elif options["shift"] is None:
            raise CommandError("Say which shift (--shift ID), or --demo.")
        else:
            found = Shift.objects.filter(pk=options["shift"]).first()
            if found is None:
                raise CommandError(f"There is no shift {options['shift']}.")
            shift = found
        report = shift_report_build(shift=shift, kind=options["kind"])
        for option, content in (("pdf", bytes(report.pdf)), ("csv", report.csv), ("html", report.html)):
            path = options[option]
            if path is None:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
            self.stdout.write(f"Wrote {path}")
        hours = (report.data or {}).get("hours")
        if options["demo"] and hours:
            chart = options["pdf"].with_name(options["pdf"].stem + "-chart.png")
            chart.write_bytes(hourly_chart_png(hours))
            self.stdout.write(f"Wrote {chart}")
        self.stdout.write(self.style.SUCCESS(f"{report} · content hash {report.content_hash}"))

    # --- the demo -------------------------------------------------------------------------------

    def _demo(self) -> Shift:
        shift = Shift.objects.filter(closed_at__isnull=True).first()
        User = get_user_model()
        dealer = User.objects.filter(username="dealer").first()
        boss = User.objects.filter(username="pitboss").first()
        if shift is None or dealer is None or boss is None:
            raise CommandError("No open shift on a seeded demo floor: run `manage.py seed_demo` (or `make demo`).")
        rng = random.Random(DEMO_SEED)
        tables = Table.objects.filter(dealer=dealer, status=Table.Status.OPEN).order_by("pit__name", "name")
        for table in tables:
            for number in range(DEMO_ROUNDS):
                self._play(table, dealer, rng, key=f"demo-{shift.pk}-{table.pk}-{number}")
        self.stdout.write(f"Played {DEMO_ROUNDS} rounds at each of {len(tables)} tables.")
        return shift_close(actor=boss, shift=shift)

    def _play(self, table: Table, dealer: Any, rng: random.Random, *, key: str) -> None:
        round_ = round_open(actor=dealer, table=table)
        steps = max(1, table.min_wager_cents)
        for seat in range(1, min(table.seat_count, 4) + 1):
            amount = table.min_wager_cents + steps * rng.randrange(0, 5)
            wager_place(actor=dealer, round=round_, seat=seat, amount_cents=min(amount, table.max_wager_cents))
        round_close_betting(actor=dealer, round=round_)
        round_ = round_deal(actor=dealer, round=round_, auto=True, rng=rng)
        dealt: dict[str, str] | None = round_.dealt
        if dealt is None:
            raise CommandError(f"Round {round_.number} at table {table.name} was dealt no cards.")
        wagers = {w.seat.number: w.amount_cents for w in round_.wagers.select_related("seat")}
        if registry.game(table.game).placed_by_street:
            round_ = self._place_ofc(round_, dealer, wagers, dealt)
        else:
            hands = dealt_hands_set(
                game=table.game,
                snapshot=round_.rule_set_snapshot,
                dealt=dealt,
                bank_position=dealt_bank_position(round_),
            )
            hands["seats"] = {seat: hand for seat, hand in hands["seats"].items() if int(seat) in wagers}
            round_ = round_hands_record(actor=dealer, round=round_, hands=hands)
        settle_round(round=round_, actor=dealer, idempotency_key=key)

    def _place_ofc(self, round_: Round, dealer: Any, wagers: dict[int, int], dealt_cards: dict[str, str]) -> Round:
        """Place each seat's cards street by street (five, then one at a time) where the best arrangement of its
        13 cards puts them: a demo's shortcut, as a player who could see the whole deal would."""
        spec = registry.game(round_.table.game)
        rows: dict[str, dict[str, str]] = {}
        dealt: dict[str, list[str]] = {}
        for number in wagers:
            seat_cards = parse_cards(dealt_cards[str(number)])
            arrangement = chinese_poker.suggest(seat_cards, top=1)[0].arrangement
            rows[str(number)] = {
                card: row for row in spec.part_names for card in cards_text(getattr(arrangement, row)).split()
            }
            dealt[str(number)] = dealt_cards[str(number)].split()
        placed = 0
        while placed < spec.hand_size:
            size = 5 if placed == 0 else 1
            street: dict[str, dict[str, str]] = {}
            for seat, cards in dealt.items():
                board: dict[str, list[str]] = {}
                for card in cards[placed : placed + size]:
                    board.setdefault(rows[seat][card], []).append(card)
                street[seat] = {row: " ".join(cards) for row, cards in board.items()}
            round_ = round_placements_record(actor=dealer, round=round_, placements={"seats": street})
            placed += size
        return round_
