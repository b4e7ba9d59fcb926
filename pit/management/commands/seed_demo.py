"""``manage.py seed_demo``: a demo floor with one user per role.

Two pits, at least one table of each game (each playing by its game's default
rule set, the house rules at GAME_RULES.md's defaults), an open gaming day and shift, and
the users dealer, floor, pitboss and auditor (plus the superuser admin), and in the poker room a
tournament from the seed's templates (Mainzer Poker Masters) with twelve players registered, waiting for its director
to start it. The
passwords are random unless ``--password`` is given; they are printed and kept
in ``var/demo-logins.txt`` so a second run (``make demo`` again) prints them again.
Running it on a seeded floor changes nothing.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from casino.models import AuditEvent, Pit
from casino.roles import Role
from casino.services import gaming_day_open, pit_create, shift_open
from poker_room.tournaments.entries import entry_register
from poker_room.tournaments.services import tournament_create
from rules.models import Game
from rules.options import PLAYER_ROTATION
from rules.services import rule_set_create, rule_set_default
from tables.models import Table
from tables.services import table_assign_dealer, table_create, table_open
from tables.tray import tray_count_confirm, tray_count_record

DEMO_USERS: list[tuple[str, Role | None]] = [
    ("dealer", Role.DEALER),
    ("floor", Role.FLOOR_SUPERVISOR),
    ("pitboss", Role.PIT_BOSS),
    ("auditor", Role.AUDITOR),
    ("cage", Role.CAGE_CASHIER),
    ("count1", Role.COUNT_TEAM),
    ("count2", Role.COUNT_TEAM),
    # A third member: when two counts of a box disagree, the count room asks a third (tables.drop).
    ("count3", Role.COUNT_TEAM),
    ("director", Role.TOURNAMENT_DIRECTOR),
    ("credit", Role.CREDIT_MANAGER),
    ("admin", None),
]

# The demo tournament's first twelve players.
DEMO_ENTRANTS = (
    "Anna Becker",
    "Ben Schulz",
    "Chen Wei",
    "Dario Rossi",
    "Eva Novak",
    "Farid Haddad",
    "Greta Lind",
    "Hugo Martin",
    "Ines Costa",
    "Jonas Weber",
    "Kemal Aydin",
    "Lena Vogel",
)

# The tables that play by a rule set of their own, not their game's default: PGP-3 lets a player bank in turn.
DEMO_RULE_SETS = {"PGP-3": ("Pai Gow Poker — player banking in turn", {"banking_mode": PLAYER_ROTATION})}

# Each demo table's opening tray: 2,000.00 in 100s, 1,000.00 in 25s, 200.00 in 5s, 100.00 in 1s.
DEMO_TRAY = {10000: 20, 2500: 40, 500: 40, 100: 100}  # chips by value (cents): how many

DEMO_PITS: dict[str, list[tuple[str, str, int, int, int]]] = {
    "Pit 1 · Asian games": [
        ("PG-1", Game.PAIGOW_TILES, 2500, 500000, 7),
        ("PGP-1", Game.PAIGOW_POKER, 1000, 200000, 6),
        ("PGP-2", Game.PAIGOW_POKER, 2500, 500000, 6),
        ("PGP-3", Game.PAIGOW_POKER, 2500, 500000, 6),
    ],
    "Pit 2 · Poker room": [
        ("CP-1", Game.CHINESE_POKER, 100, 10000, 4),
        ("OFC-1", Game.OFC, 100, 10000, 3),
    ],
}


class Command(BaseCommand):
    help = "Create a demo floor (two pits, a table of each game) and one user per role."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--password", help="one password for every demo user (default: random ones)")

    def _checkpoints_of_an_older_database_aside(self) -> None:
        """A demo database made afresh has an empty audit chain: a checkpoint file left by an earlier one would
        read as a chain cut short (``verify_audit``), so it is renamed, not deleted."""
        path = Path(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE) if settings.TABLESIDE_AUDIT_CHECKPOINT_FILE else None
        if path is None or not path.is_file() or AuditEvent.objects.exists():
            return
        aside = path.with_name(f"{path.name}.before-{timezone.now():%Y%m%d-%H%M%S}")
        path.rename(aside)
        self.stdout.write(f"The audit checkpoints of an earlier database were moved aside to {aside}.")

    def handle(self, *args: Any, **options: Any) -> None:
        logins_file = settings.VAR_DIR / "demo-logins.txt"
        if Pit.objects.filter(name__in=DEMO_PITS).exists():
            self.stdout.write("The demo floor is already seeded.")
            if logins_file.is_file():
                self.stdout.write(logins_file.read_text())
            return

        self._checkpoints_of_an_older_database_aside()
        User = get_user_model()
        lines = ["Demo logins (username / password / role):"]
        with transaction.atomic():
            users = {}
            for username, role in DEMO_USERS:
                password = options["password"] or secrets.token_urlsafe(9)
                user = User.objects.filter(username=username).first() or User(username=username)
                user.set_password(password)
                user.is_staff = role in (Role.PIT_BOSS, None)
                user.is_superuser = role is None
                user.save()
                if role is not None:
                    user.groups.add(Group.objects.get(name=role.value))
                users[username] = user
                lines.append(f"  {username:<8} {password:<14} {role.value if role else 'superuser'}")

            boss = users["pitboss"]
            for pit_name, tables in DEMO_PITS.items():
                pit = pit_create(actor=boss, name=pit_name)
                for name, game, min_cents, max_cents, seats in tables:
                    if name in DEMO_RULE_SETS:
                        rule_set_name, options = DEMO_RULE_SETS[name]
                        rule_set = rule_set_create(actor=boss, name=rule_set_name, game=game, **options)
                    else:
                        rule_set = rule_set_default(game=game)
                    table = table_create(
                        actor=boss,
                        pit=pit,
                        name=name,
                        game=game,
                        min_wager_cents=min_cents,
                        max_wager_cents=max_cents,
                        seat_count=seats,
                        rule_set=rule_set,
                    )
                    table = table_assign_dealer(actor=boss, table=table, dealer=users["dealer"])
                    table_open(actor=boss, table=table)
            gaming_day_open(actor=boss, business_date=timezone.localdate())
            shift_open(actor=boss, name="Day")
            # Every table opens with its tray counted by the dealer and confirmed by the floor supervisor.
            for table in Table.objects.filter(pit__name__in=DEMO_PITS):
                opener = tray_count_record(actor=users["dealer"], table=table, kind="opener", counts=DEMO_TRAY)
                tray_count_confirm(actor=users["floor"], count=opener)
            # The poker room: tonight's tournament, registration open (buy-in 100.00 to the pool, 10.00 fee).
            director = users["director"]
            tournament = tournament_create(
                actor=director, template_key="mainzer_poker_masters", buy_in_cents=10000, fee_cents=1000, tables=2
            )
            for name in DEMO_ENTRANTS:
                entry_register(actor=director, tournament=tournament, name=name)

        text = "\n".join(lines) + "\n"
        settings.VAR_DIR.mkdir(exist_ok=True)
        logins_file.write_text(text)
        logins_file.chmod(0o600)
        self.stdout.write(
            self.style.SUCCESS(
                "Demo floor seeded: 2 pits, 6 tables (PGP-3 with player banking), an open Day shift, a tournament "
                "in the poker room."
            )
        )
        self.stdout.write(text)
