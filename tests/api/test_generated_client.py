"""The committed schema as an integrator meets it: a client generated from ``docs/api/openapi.yaml`` by
``openapi-python-client`` (pinned in requirements-dev.txt) with no warning, every module of it importable, and a
round, a buy-in and a player read played through it against the running server, with no hand-written HTTP.

The generated models read every answer (``from_dict``): an answer that lacks a field the schema requires, or holds
one of another type, fails here as it would in the integrator's code.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "api" / "openapi.yaml"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "tableside_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The client, generated once for the module into a temporary folder and imported from there."""
    where = tmp_path_factory.mktemp("client")
    config = where / "config.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n", encoding="utf-8")
    run = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(SCHEMA), "--meta", "none", "--config", str(config)],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "Warning" not in output, output
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_every_generated_module_imports(generated: Any) -> None:
    modules = [importlib.import_module(m.name) for m in pkgutil.walk_packages(generated.__path__, PACKAGE + ".")]
    operations = [m for m in modules if hasattr(m, "sync_detailed")]
    assert len(modules) > 250 and len(operations) > 100, (len(modules), len(operations))


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:400])
    return response.parsed


def _signed_in(generated: Any, live_server: Any, models: Any, auth: Any, username: str, password: str) -> Any:
    signed_in = _ok(
        auth.sync_detailed(
            client=generated.Client(base_url=live_server.url),
            body=models.SignInRequest(username=username, password=password),
        )
    )
    return generated.AuthenticatedClient(base_url=live_server.url, token=signed_in.token, prefix="Token")


def test_a_round_a_buy_in_a_fill_a_tournament_entry_and_a_player_through_the_generated_client(
    generated: Any, live_demo_floor: str, live_server: Any
) -> None:
    api = importlib.import_module(f"{PACKAGE}.api")
    models = importlib.import_module(f"{PACKAGE}.models")
    auth = importlib.import_module(f"{PACKAGE}.api.auth.auth_token_create")
    tables_list = importlib.import_module(f"{PACKAGE}.api.tables.tables_list")
    rounds = {
        name: importlib.import_module(f"{PACKAGE}.api.rounds.rounds_{name}")
        for name in ("wagers_create", "close_betting_create", "deal_create", "hands_create", "settle_create")
    }
    assert api is not None

    signed_in = _ok(
        auth.sync_detailed(
            client=generated.Client(base_url=live_server.url),
            body=models.SignInRequest(username="dealer", password=live_demo_floor),
        )
    )
    dealer = generated.AuthenticatedClient(base_url=live_server.url, token=signed_in.token, prefix="Token")

    tables = _ok(tables_list.sync_detailed(client=dealer))
    table = next(t for t in tables.results if t.name == "PGP-1")

    def key() -> str:
        return uuid.uuid4().hex

    open_round = importlib.import_module(f"{PACKAGE}.api.tables.tables_rounds_create")
    opened = _ok(open_round.sync_detailed(table.id, client=dealer, idempotency_key=key()), 201)
    round_id = opened.id
    _ok(
        rounds["wagers_create"].sync_detailed(
            round_id, client=dealer, body=models.WagerInputRequest(seat=3, amount_cents=2500), idempotency_key=key()
        ),
        201,
    )
    _ok(rounds["close_betting_create"].sync_detailed(round_id, client=dealer, idempotency_key=key()))
    _ok(
        rounds["deal_create"].sync_detailed(
            round_id, client=dealer, body=models.DealInputRequest(dice=[3, 5, 6]), idempotency_key=key()
        )
    )
    hands = models.HandsInputRequest.from_dict(
        {"banker": {"cards": "Qs Qd 8s 5d 3c Jh Jc"}, "seats": {"3": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}}}
    )
    _ok(rounds["hands_create"].sync_detailed(round_id, client=dealer, body=hands, idempotency_key=key()))
    settlement = _ok(rounds["settle_create"].sync_detailed(round_id, client=dealer, idempotency_key=key()))
    (seat,) = (line for line in settlement.seats if line.seat == 3)
    assert isinstance(seat, models.BankedSeatLine) and seat.outcome == models.BankedSeatLineOutcomeEnum.WIN
    assert settlement.house.total_cents == -seat.net_cents and settlement.table == table.id

    buy_in = importlib.import_module(f"{PACKAGE}.api.tables.tables_buy_ins_create")
    bought = _ok(
        buy_in.sync_detailed(
            table.id,
            client=dealer,
            body=models.BuyInInputRequest(seat=2, amount_cents=50000, medium=models.MediumEnum.CASH),
            idempotency_key=key(),
        ),
        201,
    )
    assert bought.amount_cents == 50000

    players = importlib.import_module(f"{PACKAGE}.api.players.players_create")
    enrolled = _ok(
        players.sync_detailed(
            client=dealer, body=models.PlayerCreateInputRequest(name="Mr Lee", tier="Gold"), idempotency_key=key()
        ),
        201,
    )
    read = importlib.import_module(f"{PACKAGE}.api.players.players_retrieve")
    player = _ok(read.sync_detailed(enrolled.id, client=dealer))
    assert (player.name, player.tier) == ("Mr Lee", "Gold")

    found = importlib.import_module(f"{PACKAGE}.api.players.players_list")
    first = _ok(found.sync_detailed(client=dealer, q="lee", page_size=1))
    assert [p.name for p in first.results] == ["Mr Lee"] and first.next_ is None

    # A fill: the dealer asks for it, the cage sees it in its queue (a page) and issues it.
    slip_request = importlib.import_module(f"{PACKAGE}.api.tables.tables_slips_create")
    asked = _ok(
        slip_request.sync_detailed(
            table.id,
            client=dealer,
            body=models.SlipRequestInputRequest.from_dict({"kind": "fill", "chips": {"2500": 4}}),
            idempotency_key=key(),
        ),
        201,
    )
    cage = _signed_in(generated, live_server, models, auth, "cage", live_demo_floor)
    queue = importlib.import_module(f"{PACKAGE}.api.slips.slips_list")
    waiting = _ok(queue.sync_detailed(client=cage, status=models.SlipsListStatus.REQUESTED))
    assert [s.id for s in waiting.results] == [asked.id]
    issue = importlib.import_module(f"{PACKAGE}.api.slips.slips_issue_create")
    issued = _ok(issue.sync_detailed(asked.id, client=cage, idempotency_key=key()))
    assert (issued.status, issued.total_cents) == ("issued", 10000)

    # A tournament entry: the director makes an event from a template and registers a player.
    director = _signed_in(generated, live_server, models, auth, "director", live_demo_floor)
    create = importlib.import_module(f"{PACKAGE}.api.tournaments.tournaments_create")
    event = _ok(
        create.sync_detailed(
            client=director,
            body=models.TournamentCreateInputRequest.from_dict(
                {"template": "msop_turbo", "buy_in_cents": 5000, "fee_cents": 1000}
            ),
        ),
        201,
    )
    register = importlib.import_module(f"{PACKAGE}.api.tournaments.tournaments_entries_create")
    entry = _ok(
        register.sync_detailed(
            event.id,
            client=director,
            body=models.EntryRegisterInputRequest.from_dict({"name": "Anna"}),
            idempotency_key=key(),
        ),
        201,
    )
    assert (entry.number, entry.name) == (1, "Anna")

    refused = rounds["settle_create"].sync_detailed(round_id, client=dealer, idempotency_key=key())
    assert refused.status_code == 409 and refused.parsed.message  # the Refusal model reads the refusal
