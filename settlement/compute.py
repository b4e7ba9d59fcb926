"""What a round pays: the engines' outcomes turned into ledger lines and the answer the dealer sees.

Pure functions, no database: ``settlement.services.settle_round`` feeds them the round's
frozen rules, its checked hands, its wagers and its action order, and posts the lines
they return. Amounts are integer cents; a line's amount is what its account receives,
and the lines of one settlement sum to zero.

The banked games (GAME_RULES.md §1 "Settling against the banker", §2):

* Each wager is settled against the bank: a win is paid even money by the bank, a
  loss goes to the bank, a push returns the stake. The stake itself comes back from
  the layout (``wagers``) on a win or a push.
* The house banks, or a player does (``banker``), or, co-banking, the player and the
  house each take half of every result (the odd cent is the house's).
* A player bank covers at most what it put up (twice that when co-banking: the house
  covers as much again). Wagers are settled in action order while the bank can cover
  the next one in full; from the first it cannot cover, every wager is "no action"
  and goes back to its player.
* Commission: 5% (the rule set's rate and rounding) of each player win when the rule
  set charges player wins; a player banker pays it on the bank's net win of the round.
* The house's wager against a player bank (Pai Gow Poker): the dealer's position
  (0) wagers the banker's last bet with a hand set by the house way and is settled like a
  seat, in its place in the action order, from and to the ``house`` account: a win is paid
  by the bank (less the commission a player pays on a win, to ``commission``), a loss or a
  copy goes to the bank and counts in the bank's net win. It is ``house_wager`` in the
  answer, beside the seats; the house's totals count it (``wager_won_cents``).

The points games (Chinese Poker, OFC) and the tiles' peer variant: every pair of
players plays at the smaller of their two values (their "wagers"); what one loses
the other wins. The house takes its rake (``rake_bp`` of each net win) from the winners.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.lines import Line
from ledger.models import Account
from rounds.results import (
    BankedResult,
    BankedSeatLine,
    BankLine,
    HouseLine,
    PairLine,
    PairScore,
    PointsResult,
    PointsSeatLine,
    SeatMarks,
    SettlementResult,
)
from rules import engines
from rules import options as rule_options
from rules.games import banking, chinese_poker, ofc, registry
from rules.games.commission import commission_cents
from rules.hands import DEALER, RoundHands

# The accounts a round's settlement moves money between, as the ledger names them (``ledger.models.Account``).
PLAYER, WAGERS, HOUSE, BANKER, COMMISSION, RAKE = (
    account.value
    for account in (Account.PLAYER, Account.WAGERS, Account.HOUSE, Account.BANKER, Account.COMMISSION, Account.RAKE)
)
NO_ACTION = "no_action"


@dataclass(frozen=True)
class Computed:
    lines: tuple[Line, ...]
    result: SettlementResult


def _transfer(
    lines: list[Line], source: tuple[str, int | None], target: tuple[str, int | None], amount: int, kind: str
) -> None:
    """Move ``amount`` cents from ``source`` to ``target`` (account, seat): two lines that sum to zero."""
    if amount:
        lines.append(Line(source[0], source[1], -amount, kind))
        lines.append(Line(target[0], target[1], amount, kind))


def _half(amount: int) -> int:
    """The player banker's half when co-banking: rounded down, the odd cent going to the house."""
    return amount // 2


def settle_banked(
    *,
    snapshot: Mapping[str, Any],
    hands: RoundHands,
    wagers: Mapping[int, int],
    order: Sequence[int],
    bank_seat: int | None,
    bank_cents: int | None,
    house_cents: int | None = None,
) -> Computed:
    """Settle every wager of a banked Pai Gow Poker or Pai Gow tiles round (see the module's docstring).

    ``house_cents`` is the house's wager against the player bank (position 0, its hand ``hands.house``)."""
    game = snapshot["game"]
    engine = rule_options.engine_options(snapshot)
    outcome = engines.banked(game).outcome
    money = engine["commission"]
    players_pay = bool(snapshot["commission_on_player_wins"])
    co_banking = snapshot["banking_mode"] == rule_options.CO_BANKING and bank_seat is not None
    capacity = None if bank_seat is None else banking.bank_covers(bank_cents or 0, co_banking=co_banking)
    left = capacity
    lines: list[Line] = []
    house_won = banker_won = commission_total = 0
    seats: list[BankedSeatLine] = []
    covering = True
    stakes = dict(wagers)
    if house_cents and bank_seat is not None:
        stakes[DEALER] = house_cents
    house_line: BankedSeatLine | None = None
    in_order = [position for position in order if position in stakes]
    in_order += sorted(seat for seat in stakes if seat not in in_order)
    for place, seat in enumerate(in_order, start=1):
        amount = stakes[seat]
        player = (HOUSE, None) if seat == DEALER else (PLAYER, seat)
        if covering and left is not None and amount > left:
            covering = False
        if not covering:
            _transfer(lines, (WAGERS, None), player, amount, "payout")
            line = _seat_line(seat, place, amount, NO_ACTION, 0, 0, seat in hands.fouled)
            if seat == DEALER:
                house_line = line
            else:
                seats.append(line)
            continue
        hand = hands.house if seat == DEALER else hands.seats[seat]
        result = outcome(hand, hands.bank, **engine["outcome"]).value
        commission = 0
        if result == "loss":
            won = -amount
            banker_share = _half(amount) if co_banking else (amount if bank_seat is not None else 0)
            house_share = amount - banker_share
            _transfer(lines, (WAGERS, None), (BANKER, bank_seat), banker_share, "bank")
            _transfer(lines, (WAGERS, None), (HOUSE, None), house_share, "bank")
            banker_won += banker_share
            house_won += house_share
            if left is not None:
                left += amount
        else:
            _transfer(lines, (WAGERS, None), player, amount, "payout")
            won = 0
            if result == "win":
                won = amount
                banker_share = _half(amount) if co_banking else (amount if bank_seat is not None else 0)
                house_share = amount - banker_share
                _transfer(lines, (BANKER, bank_seat), player, banker_share, "payout")
                _transfer(lines, (HOUSE, None), player, house_share, "payout")
                banker_won -= banker_share
                house_won -= house_share
                if left is not None:
                    left -= amount
                if players_pay and seat != DEALER:  # the house pays no commission to itself on its own wager
                    commission = commission_cents(amount, **money)
                    _transfer(lines, player, (COMMISSION, None), commission, "commission")
                    commission_total += commission
        line = _seat_line(seat, place, amount, result, won, commission, seat in hands.fouled)
        if seat == DEALER:
            house_line = line
        else:
            seats.append(line)
    bank: BankLine | None = None
    if bank_seat is not None:
        bank_commission = commission_cents(banker_won, **money) if banker_won > 0 else 0
        _transfer(lines, (BANKER, bank_seat), (COMMISSION, None), bank_commission, "commission")
        commission_total += bank_commission
        bank = {
            "seat": bank_seat,
            "bank_cents": bank_cents,
            "covers_cents": capacity,
            "co_banking": co_banking,
            "won_cents": banker_won,
            "commission_cents": bank_commission,
            "net_cents": banker_won - bank_commission,
        }
    house: HouseLine = {
        "bank_won_cents": house_won,
        "commission_cents": commission_total,
        "rake_cents": 0,
        "total_cents": house_won + commission_total,
    }
    answer: BankedResult = {"seats": seats, "bank": bank, "house": house}
    if house_line is not None:
        # The house's own wager: what it won, its commission on a win counted in the commission already.
        house["wager_won_cents"] = house_line["won_cents"]
        house["total_cents"] += house_line["net_cents"]
        answer["house_wager"] = house_line
    return Computed(tuple(lines), answer)


def _seat_line(
    seat: int, place: int, amount: int, outcome: str, won: int, commission: int, fouled: bool
) -> BankedSeatLine:
    return {
        "seat": seat,
        "action_place": place,
        "wager_cents": amount,
        "outcome": outcome,
        "won_cents": won,
        "commission_cents": commission,
        "net_cents": won - commission,
        "fouled": fouled,
    }


def _pair_stake(wagers: Mapping[int, int], a: int, b: int) -> int:
    return min(wagers[a], wagers[b])


Sheet = tuple[list[PairScore], dict[int, int]]  # the pairs (the lower seat first), each seat's royalties


def _chinese_poker_sheet(hands: RoundHands, engine: Mapping[str, Any], game: str) -> Sheet:
    pairs: list[PairScore] = []
    sheet = chinese_poker.score(hands.seats, **engine["score"], surrender=hands.surrendered, swapped=hands.swapped)
    for (a, b), pair in sheet.pairs.items():
        if a < b:
            score: PairScore = {
                "seat": a,
                "opponent": b,
                "points": pair.net,
                "rows_won": pair.won,
                "rows_lost": pair.lost,
                "natural": pair.natural,
                "fouled": pair.fouled and a not in hands.surrendered,
                "opponent_fouled": pair.opponent_fouled and b not in hands.surrendered,
            }
            if pair.surrender:  # a surrender's and a swap's points (§3), written only when there are any
                score["surrender"] = pair.surrender
            if pair.swap:
                score["swap"] = pair.swap
            pairs.append(score)
    no_royalties = hands.fouled | hands.surrendered  # a surrendered hand is never shown
    royalties = {
        s: chinese_poker.royalties(hands.seats[s], engine["royalties"]["table"]) if s not in no_royalties else 0
        for s in sorted(hands.seats)
    }
    return pairs, royalties


def _ofc_sheet(hands: RoundHands, engine: Mapping[str, Any], game: str) -> Sheet:
    pairs: list[PairScore] = []
    ofc_sheet = ofc.score({str(s): board for s, board in hands.seats.items()}, **engine["score"])
    for (a, b), ofc_pair in ofc_sheet.pairs.items():
        if int(a) < int(b):
            pairs.append({"seat": int(a), "opponent": int(b), "points": ofc_pair.total, "rows": list(ofc_pair.rows)})
    return pairs, {int(s): r for s, r in ofc_sheet.royalties.items()}


def _peer_sheet(hands: RoundHands, engine: Mapping[str, Any], game: str) -> Sheet:
    """A banked game played without a bank (the tiles' peer variant): each pair wins, loses or pushes one point."""
    peer_results = engines.banked(game).peer_results
    assert peer_results is not None, f"{registry.game(game).name} has no variant without a bank"
    pairs: list[PairScore] = []
    for (a, b), peer in peer_results(hands.seats, **engine["peer_results"]).items():
        if a < b:
            value = {"win": 1, "loss": -1, "push": 0}[peer.value]
            pairs.append({"seat": a, "opponent": b, "points": value, "outcome": peer.value})
    return pairs, {}


# Each points game's score sheet, by game (the engine that scores it); a banked game without a bank
# (the tiles' peer variant) is scored by ``_peer_sheet``.
_POINTS_SHEETS: Mapping[str, Callable[[RoundHands, Mapping[str, Any], str], Sheet]] = {
    registry.CHINESE_POKER: _chinese_poker_sheet,
    registry.OFC: _ofc_sheet,
}


def settle_points(*, snapshot: Mapping[str, Any], hands: RoundHands, wagers: Mapping[int, int]) -> Computed:
    """Settle a Chinese Poker, OFC or peer-tiles round: each pair at the smaller value, the rake from the winners."""
    game = snapshot["game"]
    engine = rule_options.engine_options(snapshot)
    seats = sorted(hands.seats)
    points: dict[int, int] = dict.fromkeys(seats, 0)
    cents: dict[int, int] = dict.fromkeys(seats, 0)
    sheet = _peer_sheet if registry.game(game).bankable else _POINTS_SHEETS[game]
    scores, royalties = sheet(hands, engine, game)
    pairs: list[PairLine] = []
    for score in scores:
        a, b = score["seat"], score["opponent"]
        stake = _pair_stake(wagers, a, b)
        pair = PairLine(**score, stake_cents=stake, cents=score["points"] * stake)
        pairs.append(pair)
        points[a] += pair["points"]
        points[b] -= pair["points"]
        cents[a] += pair["cents"]
        cents[b] -= pair["cents"]
    lines: list[Line] = []
    for seat in seats:
        if cents[seat]:
            lines.append(Line(PLAYER, seat, cents[seat], "payout"))
    rake_rate = engine.get("rake", {"rate_bp": 0, "rounding": snapshot["commission_rounding"]})
    rake_total = 0
    lines_out: list[PointsSeatLine] = []
    for seat in seats:
        rake = commission_cents(cents[seat], **rake_rate) if cents[seat] > 0 and rake_rate["rate_bp"] else 0
        _transfer(lines, (PLAYER, seat), (RAKE, None), rake, "rake")
        rake_total += rake
        marks: SeatMarks = {}
        if seat in hands.surrendered:
            marks["surrendered"] = True
        if seat in hands.swapped:
            marks["swapped"] = True
        lines_out.append(
            {
                "seat": seat,
                "stake_cents": wagers[seat],
                "points": points[seat],
                "royalties": royalties.get(seat, 0),
                "fouled": seat in hands.fouled,
                **marks,
                "won_cents": cents[seat],
                "rake_cents": rake,
                "net_cents": cents[seat] - rake,
            }
        )
    result: PointsResult = {
        "seats": lines_out,
        "pairs": pairs,
        "bank": None,
        "house": {"bank_won_cents": 0, "commission_cents": 0, "rake_cents": rake_total, "total_cents": rake_total},
    }
    return Computed(tuple(lines), result)


def settle(
    *,
    snapshot: Mapping[str, Any],
    hands: RoundHands,
    wagers: Mapping[int, int],
    order: Sequence[int],
    bank_seat: int | None,
    bank_cents: int | None,
    house_cents: int | None = None,
) -> Computed:
    """Settle a round of any game by its frozen rules (``snapshot``); the lines sum to zero. ``house_cents``: the
    house's wager against a player bank, if it wagers."""
    if snapshot["banking_mode"] == rule_options.NO_BANK:
        computed = settle_points(snapshot=snapshot, hands=hands, wagers=wagers)
    else:
        computed = settle_banked(
            snapshot=snapshot,
            hands=hands,
            wagers=wagers,
            order=order,
            bank_seat=bank_seat,
            bank_cents=bank_cents,
            house_cents=house_cents,
        )
    assert sum(line.amount for line in computed.lines) == 0, "a settlement's lines must balance"
    return computed
