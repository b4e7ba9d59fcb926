"""Every API operation answers as the OpenAPI schema says: schemathesis generates requests from the
schema itself, sends them to the WSGI application as a signed-in Pit boss, and runs every check it has on each
answer: no server error, a status the schema lists, the content type, the headers and the body as the schema
describes them, auth not ignored.

Every check runs but one: ``positive_data_acceptance`` (a request the schema allows must succeed) cannot hold for
a dealer's API, whose inputs are hands in a notation, dice and states no schema can describe: "rake_bp" is a
string but no card. Schema-invalid requests (the negative mode) must still be refused with a 4xx, when sent as JSON: a
form cannot say null as JSON does, and a case invalid as JSON may arrive as a valid form (``negative_data_rejection``
is left out for form bodies only).

The pass is bounded so ``make test`` stays fast: a few examples an operation, no shrinking, hypothesis
derandomized (the same requests on every run, so a failure is reproducible) and without its example database.
The ids in the paths are the seeded floor's (a table, rounds in each state, a pending request, the open shift, a
tray count and a slip waiting) as often as random ones, so the operations get past 404 to the services.
``TABLESIDE_SCHEMATHESIS_EXAMPLES`` sets the examples an operation (more for a deeper local run),
``TABLESIDE_SKIP_SCHEMATHESIS=1`` skips the pass.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from config.wsgi import application
from poker_room.tournaments import services as tournaments
from rounds import services as round_services
from rounds.models import Adjustment
from settlement import services
from tables.slips import slip_request
from tables.tray import tray_count_record

pytestmark = pytest.mark.skipif(
    os.environ.get("TABLESIDE_SKIP_SCHEMATHESIS") == "1", reason="TABLESIDE_SKIP_SCHEMATHESIS=1"
)

EXAMPLES = int(os.environ.get("TABLESIDE_SCHEMATHESIS_EXAMPLES", "12"))
BUDGET_SECONDS = 150  # the bound is 3 minutes for the whole pass

PGP_HANDS = {
    "banker": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"},
    "seats": {"1": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}},
}


def _keep_the_connection() -> None:
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)


@pytest.fixture
def wsgi_in_test_transaction() -> Iterator[Callable[[], None]]:
    """The WSGI handler closes the database connection around each request (on PostgreSQL, one in a transaction
    is closed as unusable); the test's transaction (and its seeded floor) must survive it, as Django's own test
    client arranges. Call the fixture again after using the test client: it connects the closing again when its
    request ends."""
    _keep_the_connection()
    yield _keep_the_connection
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def seeded_floor(make_table: Callable[..., Any], shift: Any, pit_boss: User) -> dict[str, list[int]]:
    """A floor with something at every id the paths name: rounds settled, revealed, open (with a void asked
    for) and dealt (OFC), a table with no round, the open shift, a tournament planned and one running."""

    def to_revealed(table: Any) -> Any:
        round_ = round_services.round_open(actor=pit_boss, table=table)
        round_services.wager_place(actor=pit_boss, round=round_, seat=1, amount_cents=2500)
        round_services.round_close_betting(actor=pit_boss, round=round_)
        round_services.round_deal(actor=pit_boss, round=round_, dice=[3, 5, 6])
        return round_services.round_hands_record(actor=pit_boss, round=round_, hands=PGP_HANDS)

    pgp = make_table(name="PGP A", game="paigow_poker", seat_count=6)
    settled = to_revealed(pgp)
    services.settle_round(round=settled, actor=pit_boss, idempotency_key="seeded")
    revealed = to_revealed(pgp)

    betting = round_services.round_open(
        actor=pit_boss, table=make_table(name="PGP B", game="paigow_poker", seat_count=6)
    )
    round_services.wager_place(actor=pit_boss, round=betting, seat=2, amount_cents=1000)
    services.adjustment_request(actor=pit_boss, round=betting, kind="void", reason="Misdeal")

    ofc = round_services.round_open(actor=pit_boss, table=make_table(name="OFC A", game="ofc", seat_count=2))
    for seat in (1, 2):
        round_services.wager_place(actor=pit_boss, round=ofc, seat=seat, amount_cents=1000)
    round_services.round_close_betting(actor=pit_boss, round=ofc)
    round_services.round_deal(actor=pit_boss, round=ofc, dice=[3, 5, 6])

    idle = make_table(name="PGP C", game="paigow_poker", seat_count=6)
    # The table's money: a tray count waiting for its confirmation, a fill waiting for the cage.
    count = tray_count_record(actor=pit_boss, table=idle, kind="opener", counts={"2500": 20})
    fill = slip_request(actor=pit_boss, table=pgp, kind="fill", chips={"2500": 40})
    # The poker room: a tournament planned with two entries, one running with a bust.
    planned = tournaments.tournament_create(actor=pit_boss, template_key="msop_turbo", buy_in_cents=2000, fee_cents=500)
    running = tournaments.tournament_create(
        actor=pit_boss, template_key="msop_main_event", buy_in_cents=9000, fee_cents=1000
    )
    for tournament, players in ((planned, 2), (running, 8)):
        for number in range(1, players + 1):
            tournaments.entry_register(actor=pit_boss, tournament=tournament, name=f"Player {number}")
    tournaments.tournament_start(actor=pit_boss, tournament=running)
    bust = tournaments.entry_eliminate(actor=pit_boss, tournament=running, entry=running.entries.get(number=8))
    return {
        "round_id": [settled.pk, revealed.pk, betting.pk, ofc.pk],
        "table_id": [pgp.pk, idle.pk],
        "adjustment_id": list(Adjustment.objects.values_list("pk", flat=True)),
        "shift_id": [shift.pk],
        "tray_count_id": [count.pk],
        "slip_id": [fill.pk],
        "tournament_id": [planned.pk, running.pk],
        "entry_number": [1, 2, 8],
        "elimination_id": [bust.pk],
        "table_number": [1, 2],
    }


def _last(label: str) -> bool:
    """Operations that end what the others need (the shift, the gaming day, the token) run last."""
    path = label.split(" ", 1)[1]
    return path.endswith(("/close/", "/revoke/"))


@pytest.mark.django_db
def test_every_operation_answers_as_the_schema_says(
    seeded_floor: dict[str, list[int]], pit_boss: User, wsgi_in_test_transaction: Callable[[], None]
) -> None:
    reader = APIClient()
    reader.force_authenticate(pit_boss)
    schema = schemathesis.openapi.from_dict(reader.get("/api/schema/", {"format": "json"}).json())
    wsgi_in_test_transaction()  # the test client connected the closing again as its request ended
    schema.app = application
    operations = sorted((result.ok() for result in schema.get_all_operations()), key=lambda op: _last(op.label))
    assert len(operations) >= 25

    key = Token.objects.create(user=pit_boss).key

    @schema.auth(refresh_interval=None)
    class PitBossToken:
        """The Pit boss's token, made again should an operation (signing out) have ended it."""

        def get(self, case: Any, context: Any) -> str:
            Token.objects.get_or_create(user=pit_boss, defaults={"key": key})
            return key

        def set(self, case: Any, data: str, context: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": f"Token {data}"}

    failures: list[str] = []
    started = time.monotonic()
    for operation in operations:
        names = {parameter.name for parameter in operation.path_parameters}
        known = [name for name in names if name in seeded_floor]
        strategies = []
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies.append(operation.as_strategy(mode, auth_storage=schema.auth))
            if known:
                ids = st.fixed_dictionaries({name: st.sampled_from(seeded_floor[name]) for name in known})
                strategies.append(
                    ids.flatmap(
                        lambda fixed, mode=mode, operation=operation: operation.as_strategy(
                            mode, auth_storage=schema.auth, path_parameters=fixed
                        )
                    )
                )

        @hypothesis.given(case=st.one_of(strategies))
        @hypothesis.settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def call(case: Any) -> None:
            # A form cannot say null, a number or a list as JSON does: a schema-invalid case sent as a form (a null
            # dropped in the encoding) may arrive a valid form. The refusal of invalid data is held on JSON bodies.
            excluded = [positive_data_acceptance]
            if case.media_type not in (None, "application/json"):
                excluded.append(negative_data_rejection)
            case.call_and_validate(excluded_checks=excluded)

        try:
            call()
        except (Exception, BaseExceptionGroup) as exc:  # every operation runs; the failures are reported together
            failures.append(f"--- {operation.label}\n{exc}")
    elapsed = time.monotonic() - started

    assert not failures, f"{len(failures)} operation(s) failed:\n" + "\n".join(failures)[:20000]
    assert elapsed < BUDGET_SECONDS, f"the pass took {elapsed:.0f} s"
