"""On PostgreSQL, a round is paid once however the settle calls race, and the ledger stays square (service-backed).

* Two settle calls on one revealed round at the same moment: with different keys one
  pays and the other is refused; with the same key both answer the same settlement.
* A retried HTTP settle with the same ``Idempotency-Key`` answers the same body; a buy-in sent twice at once with
  one key is recorded once.
* A seeded random floor (every game, house and player banks, dice and system deals,
  rounds voided part-way) leaves a ledger that verifies and sums to zero.
"""

from __future__ import annotations

import random
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import connections
from django.db.models import Sum
from rest_framework.test import APIClient

from casino.errors import WrongState
from casino.roles import Role
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from rounds.models import Round
from rounds.selectors import seat_value
from rounds.services import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_open,
    round_placements_record,
    void_round,
    wager_place,
)
from rounds.services.house_wager import banker_last_bet, house_wager_cents
from rounds.states import RoundState
from rules import options as rule_options
from rules.games import chinese_poker, dealing, ofc, paigow_poker, paigow_tiles
from rules.games.cards import cards_text, deck, parse_cards
from rules.games.tiles import TILE_SET, parse_tiles, tiles_text
from rules.services import rule_set_create
from settlement.services import settle as settle_module
from settlement.services import settle_round
from tables.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("real_services")]


@pytest.fixture
def make_user(transactional_db: None) -> Callable[..., User]:
    """The personas' maker, making the role groups first: an earlier transactional test's flush removed them."""

    def make(username: str, *roles: Role, **extra: object) -> User:
        user = User.objects.create_user(username=username, password="s3cret-pass-word", **extra)
        for role in roles:
            user.groups.add(Group.objects.get_or_create(name=role.value)[0])
        return user

    return make


def _revealed(dealer: User, table: Table, *, seed: int) -> Round:
    """A house-banked Pai Gow Poker round with three wagers, dealt by the system and set by the house way."""
    round_ = round_open(actor=dealer, table=table)
    for seat in (1, 3, 5):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=1000 * seat + 5)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(seed))
    return round_hands_record(actor=dealer, round=round_, hands={})


def _race(calls: list[Callable[[], Any]]) -> list[tuple[str, Any]]:
    """Run ``calls`` in threads released together by a barrier; each answer is ("ok", value) or ("error", exc)."""
    start = threading.Barrier(len(calls))
    answers: list[tuple[str, Any]] = [("missing", None)] * len(calls)

    def run(i: int) -> None:
        try:
            start.wait()
            answers[i] = ("ok", calls[i]())
        except BaseException as exc:  # noqa: BLE001 - checked by the caller
            answers[i] = ("error", exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a settle call hung"
    return answers


def _settlements(round_: Round) -> list[Posting]:
    return list(Posting.objects.filter(round_id=round_.pk, kind=Posting.Kind.SETTLEMENT))


@pytest.fixture
def meet_at_the_lock(monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], AbstractContextManager[None]]:
    """``with meet_at_the_lock(True):`` two settle calls both pass the key check, then race for the round's lock.

    With ``False`` the start barrier alone releases the threads together, and the
    loser may instead find the winner's settlement committed before it locks.
    """
    real = settle_module.round_lock_reading
    gate: list[threading.Barrier | None] = [None]

    def round_lock_reading(round: Round, *then: Any) -> Any:
        if gate[0] is not None:
            gate[0].wait(timeout=30)
        return real(round, *then)

    # What ``settle_round`` calls to lock the round (an earlier version of this fixture patched
    # ``round_lock``, which the settle never calls, so the two calls were not held at the lock).
    monkeypatch.setattr(settle_module, "round_lock_reading", round_lock_reading)

    @contextmanager
    def meet(on: bool) -> Iterator[None]:
        gate[0] = threading.Barrier(2) if on else None
        try:
            yield
        finally:
            gate[0] = None

    return meet


# --- two settle calls at once ---------------------------------------------------------------------


def test_two_settles_with_different_keys_at_once_pay_once_and_refuse_the_other(
    dealer, shift, make_table, meet_at_the_lock
) -> None:
    table = make_table(name="PGP-R", game="paigow_poker", seat_count=6)
    for attempt in range(4):
        round_ = _revealed(dealer, table, seed=attempt)
        keys = [f"race-{attempt}-a", f"race-{attempt}-b"]
        with meet_at_the_lock(attempt < 2):
            answers = _race([partial(settle_round, round=round_, actor=dealer, idempotency_key=key) for key in keys])

        won = [value for kind, value in answers if kind == "ok"]
        refused = [value for kind, value in answers if kind == "error"]
        assert len(won) == 1 and len(refused) == 1, answers
        assert isinstance(refused[0], WrongState), repr(refused[0])
        assert "was already settled by" in refused[0].message
        (posting,) = _settlements(round_)
        assert posting.idempotency_key == won[0]["idempotency_key"]
        assert posting.pk == won[0]["settlement_id"]
        assert Round.objects.get(pk=round_.pk).state == RoundState.SETTLED
    report = ledger_verify()
    assert report.ok, report.problems
    assert report.rounds == 4


def test_two_settles_with_the_same_key_at_once_answer_the_same_settlement(
    dealer, shift, make_table, meet_at_the_lock
) -> None:
    table = make_table(name="PGP-S", game="paigow_poker", seat_count=6)
    for attempt in range(4):
        round_ = _revealed(dealer, table, seed=100 + attempt)
        key = f"same-{attempt}"
        with meet_at_the_lock(attempt < 2):
            answers = _race([partial(settle_round, round=round_, actor=dealer, idempotency_key=key)] * 2)

        assert [kind for kind, _ in answers] == ["ok", "ok"], answers
        first, second = (value for _, value in answers)
        assert first == second
        (posting,) = _settlements(round_)
        assert (first["settlement_id"], first["idempotency_key"]) == (posting.pk, key)
        assert Posting.objects.filter(idempotency_key=key).count() == 1
    report = ledger_verify()
    assert report.ok, report.problems


def test_a_retried_http_settle_with_the_same_key_answers_the_same_body(dealer, shift, make_table) -> None:
    table = make_table(name="PGP-H", game="paigow_poker", seat_count=6)
    round_ = _revealed(dealer, table, seed=7)
    client = APIClient()
    client.force_authenticate(dealer)
    url = f"/api/rounds/{round_.pk}/settle/"

    first = client.post(url, HTTP_IDEMPOTENCY_KEY="http-retry-1")
    retry = client.post(url, HTTP_IDEMPOTENCY_KEY="http-retry-1")

    assert (first.status_code, retry.status_code) == (200, 200), (first.content, retry.content)
    assert first.json() == retry.json()
    assert first.json()["idempotency_key"] == "http-retry-1"
    assert len(_settlements(round_)) == 1
    another = client.post(url, HTTP_IDEMPOTENCY_KEY="http-retry-2")
    assert another.status_code == 409
    assert "was already settled by" in another.json()["message"]
    assert len(_settlements(round_)) == 1
    assert ledger_verify().ok


def test_one_buy_in_sent_twice_at_once_with_one_key_is_recorded_once_and_both_get_its_answer(
    dealer, shift, make_table
) -> None:
    """The second request waits on the key its twin holds, then replays the first answer: a tablet that sent again
    before the first answer came back never records a buy-in twice."""
    from tables.models import BuyIn

    table = make_table(name="PGP-K", game="paigow_poker", seat_count=6)

    def send(key: str) -> Any:
        client = APIClient()
        client.force_authenticate(dealer)
        body = {"seat": 2, "medium": "cash", "amount_cents": 50_000}
        return client.post(f"/api/tables/{table.pk}/buy-ins/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    for attempt in range(1, 4):
        answers = _race([partial(send, f"twice-{attempt}")] * 2)
        assert [kind for kind, _ in answers] == ["ok", "ok"], answers
        first, second = (value for _, value in answers)
        assert (first.status_code, second.status_code) == (201, 201), (first.content, second.content)
        assert first.json() == second.json()
        assert sorted([first.get("Idempotent-Replayed"), second.get("Idempotent-Replayed")], key=str) == [None, "true"]
        assert BuyIn.objects.filter(table=table).count() == attempt


# --- a random floor -------------------------------------------------------------------------------

ROUNDS = 240
# Where a round stops when the supervisor voids it (about one round in eight is voided).
VOID_POINTS = ("open", "betting_closed", "dealt", "revealed")


class Floor:
    """Plays seeded random rounds at the tables through the services, the way a dealer would."""

    def __init__(self, rng: random.Random, dealer: User, supervisor: User) -> None:
        self.rng = rng
        self.dealer = dealer
        self.supervisor = supervisor
        # Player-bank rotation per table: (seat, rounds in a row) of the last round not voided.
        self.last_bank: dict[int, tuple[int | None, int]] = {}
        self.played: dict[str, int] = defaultdict(int)

    # --- choosing ----------------------------------------------------------------------------------

    def _banker(self, table: Table) -> tuple[int | None, int | None]:
        """Who banks the next round at a player-rotation table, and what the bank puts up (None: the house)."""
        seat, in_a_row = self.last_bank.get(table.pk, (None, 0))
        if seat is None:
            choices: list[int | None] = [None, *range(1, table.seat_count + 1)]
        else:
            right = seat - 1 if seat > 1 else table.seat_count
            choices = [None, right] + ([seat] if in_a_row < 2 else [])
        banker = self.rng.choice(choices)
        if banker is None:
            return None, None
        bank = self.rng.randint(table.min_wager_cents, 3 * table.max_wager_cents)
        # The bank covers at least the house's wager of the banker's last bet (GAME_RULES.md §2).
        previous = table.rounds.order_by("-number").first()  # the floor plays one shift: its shift
        if previous is None:
            return banker, bank
        last = banker_last_bet(table=table, seat=table.seats.get(number=banker), shift_id=previous.shift_id)
        return banker, max(bank, last.amount_cents) if last is not None else bank

    def _wagers(self, table: Table, round_: Round) -> dict[int, int]:
        seats = [s for s in range(1, table.seat_count + 1) if s != (round_.bank_seat.number if round_.bank_seat else 0)]
        least = 1 if table.game in rule_options.BANKED_GAMES else 2
        chosen = self.rng.sample(seats, self.rng.randint(least, len(seats)))
        high = table.max_wager_cents
        if round_.bank_cents is not None:
            high = min(high, round_.bank_cents)
        return {seat: self.rng.randint(table.min_wager_cents, high) for seat in sorted(chosen)}

    # --- the hands ----------------------------------------------------------------------------------

    def _setting(self, items: tuple[Any, ...], high_size: int, text: Callable[..., str]) -> dict[str, str]:
        """A random setting of the hand (it may foul: a dealer enters what the player set)."""
        low = set(self.rng.sample(range(len(items)), len(items) - high_size))
        return {
            "high": text(item for i, item in enumerate(items) if i not in low),
            "low": text(items[i] for i in sorted(low)),
        }

    def _banked_hands(self, table: Table, round_: Round, seats: list[int], dealt: dict[str, str] | None) -> dict:
        tiles = table.game == rule_options.PAIGOW_TILES
        parse, text, size = (parse_tiles, tiles_text, 4) if tiles else (parse_cards, cards_text, 7)
        house_way = paigow_tiles.house_way if tiles else paigow_poker.house_way
        bank_position = str(round_.bank_seat.number) if round_.bank_seat is not None else "0"
        house_plays = house_wager_cents(round_) is not None  # the house's wager against a player bank
        if dealt is None:  # dice: the cards or tiles are on the layout, not in the system
            pool = dealing.shuffled(TILE_SET if tiles else deck(joker=True), self.rng)
            positions = [bank_position, *map(str, seats), *(["0"] if house_plays else [])]
            dealt = {p: text(pool[size * i : size * (i + 1)]) for i, p in enumerate(positions)}
            everyone = True
        else:
            everyone = False  # the system dealt: a hand left out is set by the house way
        hands: dict[str, Any] = {"seats": {}}
        for seat in seats:
            items = parse(dealt[str(seat)])
            how = self.rng.random()
            if how < 0.25:
                hands["seats"][str(seat)] = self._setting(items, 2 if tiles else 5, text)
            elif how < 0.6 or everyone:
                setting = house_way(items)
                hands["seats"][str(seat)] = {"high": text(setting.high), "low": text(setting.low)}
        bank = parse(dealt[bank_position])
        if round_.bank_seat is None:
            if everyone or self.rng.random() < 0.5:
                hands["banker"] = {("tiles" if tiles else "cards"): text(bank)}
        elif everyone or self.rng.random() < 0.5:
            setting = house_way(bank)
            hands["banker"] = {"high": text(setting.high), "low": text(setting.low)}
        if house_plays and (everyone or self.rng.random() < 0.5):  # else the system's deal of position 0
            hands["house"] = {("tiles" if tiles else "cards"): dealt["0"]}
        return hands

    def _chinese_poker_hands(self, seats: list[int], dealt: dict[str, str] | None) -> dict:
        if dealt is None:
            pool = dealing.shuffled(deck(joker=False), self.rng)
            dealt = {str(s): cards_text(pool[13 * i : 13 * (i + 1)]) for i, s in enumerate(seats)}
        hands: dict[str, Any] = {"seats": {}}
        for seat in seats:
            cards = parse_cards(dealt[str(seat)])
            if self.rng.random() < 0.5:
                best = chinese_poker.suggest(cards, top=1)[0].arrangement
                rows = (best.front, best.middle, best.back)
            else:  # as they came: often a foul
                rows = (cards[:3], cards[3:8], cards[8:])
            hands["seats"][str(seat)] = dict(zip(("front", "middle", "back"), map(cards_text, rows), strict=True))
        return hands

    def _ofc_streets(self, seats: list[int], dealt: dict[str, str] | None) -> list[dict]:
        """The nine streets of every board: the cards in the order dealt, each into a row with room."""
        if dealt is None:
            pool = dealing.shuffled(deck(joker=False), self.rng)
            dealt = {str(s): cards_text(pool[13 * i : 13 * (i + 1)]) for i, s in enumerate(seats)}
        streets: list[dict] = [{"seats": {}} for _ in range(9)]
        for seat in seats:
            cards = parse_cards(dealt[str(seat)])
            room = dict(ofc.ROW_SIZES)
            rows: list[str] = []
            for _ in cards:
                row = self.rng.choice([name for name, left in room.items() if left])
                room[row] -= 1
                rows.append(row)
            first: dict[str, list] = defaultdict(list)
            for card, row in zip(cards[:5], rows[:5], strict=True):
                first[row].append(card)
            streets[0]["seats"][str(seat)] = {row: cards_text(placed) for row, placed in first.items()}
            for street, (card, row) in enumerate(zip(cards[5:], rows[5:], strict=True), start=1):
                streets[street]["seats"][str(seat)] = {row: cards_text([card])}
        return streets

    # --- a round ------------------------------------------------------------------------------------

    def play(self, table: Table, number: int) -> Round:
        rng, dealer = self.rng, self.dealer
        rotation = table.rule_set.banking_mode == rule_options.PLAYER_ROTATION
        banker, bank_cents = self._banker(table) if rotation else (None, None)
        round_ = round_open(actor=dealer, table=table, banker_seat=banker, bank_cents=bank_cents)
        void_at = rng.choice(VOID_POINTS) if rng.random() < 0.12 else None
        wagers = self._wagers(table, round_)
        for seat, amount in wagers.items():
            wager_place(actor=dealer, round=round_, seat=seat, amount_cents=amount)
        seats = sorted(wagers)
        if void_at != "open":
            round_close_betting(actor=dealer, round=round_)
        if void_at not in ("open", "betting_closed"):
            auto = rng.random() < 0.5
            if auto:
                round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(rng.getrandbits(32)))
            else:
                round_deal(actor=dealer, round=round_, dice=[rng.randint(1, 6) for _ in range(3)])
            dealt = Round.objects.get(pk=round_.pk).dealt
            if table.game == rule_options.OFC:
                streets = self._ofc_streets(seats, dealt)
                stop = 9 if void_at is None else rng.randint(0, 9)
                for street in streets[:stop]:
                    round_placements_record(actor=dealer, round=round_, placements=street)
            elif void_at != "dealt":
                if table.game == rule_options.CHINESE_POKER:
                    hands = self._chinese_poker_hands(seats, dealt)
                else:
                    hands = self._banked_hands(table, round_, seats, dealt)
                round_hands_record(actor=dealer, round=round_, hands=hands)
        if void_at is not None:
            void_round(actor=self.supervisor, round=round_, reason=f"random floor: stopped at {void_at}")
            self.played["voided"] += 1
        else:
            settle_round(round=round_, actor=dealer, idempotency_key=f"floor-{table.pk}-{number}")
            self.played[table.game] += 1
            if rotation:
                seat, in_a_row = self.last_bank.get(table.pk, (None, 0))
                self.last_bank[table.pk] = (banker, in_a_row + 1 if banker is not None and banker == seat else 1)
        return round_


def test_a_random_floor_of_every_game_leaves_a_ledger_that_verifies(
    dealer, floor_supervisor, pit_boss, shift, make_table
) -> None:
    rotation = rule_set_create(
        actor=pit_boss, name="PGP player bank", game="paigow_poker", banking_mode="player_rotation"
    )
    tables = [
        make_table(name="PGP-1", game="paigow_poker", seat_count=6),
        make_table(name="PGP-2", game="paigow_poker", seat_count=4, min_wager_cents=500, max_wager_cents=10000),
        make_table(name="PGP-B", game="paigow_poker", seat_count=6, rule_set=rotation),
        make_table(name="TILES-1", game="paigow_tiles", seat_count=5),
        make_table(name="CP-1", game="chinese_poker", seat_count=4, min_wager_cents=100, max_wager_cents=2500),
        make_table(name="OFC-1", game="ofc", seat_count=3, min_wager_cents=100, max_wager_cents=2500),
    ]
    rng = random.Random(20261121)
    floor = Floor(rng, dealer, floor_supervisor)
    for number in range(ROUNDS):
        floor.play(rng.choice(tables), number)

    assert set(floor.played) == {*rule_options.GAME_LABELS, "voided"}, dict(floor.played)
    rounds = Round.objects.all()
    assert rounds.count() == ROUNDS
    assert rounds.filter(state=RoundState.SETTLED).count() == ROUNDS - floor.played["voided"]
    assert rounds.filter(state=RoundState.VOIDED).count() == floor.played["voided"]
    assert rounds.filter(bank_seat__isnull=False, state=RoundState.SETTLED).exists()

    report = ledger_verify()
    assert report.ok, report.problems
    assert report.rounds == ROUNDS
    call_command("verify_ledger")
    assert LedgerEntry.objects.aggregate(total=Sum("amount_cents"))["total"] == 0

    by_round: dict[int, dict[tuple[str, int | None], int]] = defaultdict(lambda: defaultdict(int))
    for round_id, account, seat, amount in LedgerEntry.objects.annotate(seat_number=seat_value()).values_list(
        "round_id", "account", "seat_number", "amount_cents"
    ):
        by_round[round_id][(account, seat)] += amount
    rounds = {round_.pk: round_ for round_ in Round.objects.all()}
    for posting in Posting.objects.filter(kind=Posting.Kind.SETTLEMENT):
        round_ = rounds[posting.round_id]
        accounts = by_round[round_.pk]
        result = posting.result
        assert sum(amount for (account, _), amount in accounts.items() if account == "wagers") == 0
        assert sum(accounts.values()) == 0
        nets = {line["seat"]: line["net_cents"] for line in result["seats"]}
        players = {seat: amount for (account, seat), amount in accounts.items() if account == "player" and amount}
        assert players == {seat: net for seat, net in nets.items() if net}, round_
        house = result["house"]
        bank_net = result["bank"]["net_cents"] if result["bank"] else 0
        assert sum(nets.values()) + bank_net + house["total_cents"] == 0, round_
        if round_.rule_set_snapshot["banking_mode"] != rule_options.NO_BANK:
            assert (
                accounts.get(("house", None), 0)
                + sum(amount for (account, _), amount in accounts.items() if account == "banker")
                + accounts.get(("commission", None), 0)
                + sum(players.values())
                == 0
            ), round_
            assert accounts.get(("house", None), 0) == house["bank_won_cents"] + house.get("wager_won_cents", 0)
            assert accounts.get(("commission", None), 0) == house["commission_cents"]
            assert sum(a for (account, _), a in accounts.items() if account == "banker") == bank_net
        else:
            assert accounts.get(("rake", None), 0) == house["rake_cents"]
    for round_ in Round.objects.filter(state=RoundState.VOIDED):  # every account of a voided round is back to zero
        assert not any(by_round[round_.pk].values()), round_
