"""Chinese Poker: arrangements, fouls, royalties, naturals and pairwise scoring (GAME_RULES.md §3).

Each player sets 13 cards as a three-card front, a five-card middle and a
five-card back (an ``Arrangement``); the back must not rank below the middle
and the middle not below the front, on one scale for three- and five-card
hands where the wheel (5-4-3-2-A) is the lowest straight. ``score`` settles a
round every player against every other into a ``ScoreSheet`` whose totals sum
to zero.

This module scores (the points systems, the swap, ``score``); arrangements and
fouls are in ``rules.games.chinese_poker_arrangement``, royalties and naturals in
``rules.games.chinese_poker_bonuses``, and every name of theirs is offered here too.

Rule choices where §3 is silent (practice, each documented where it is coded):

* A natural is claimed automatically: pass a bare ``Arrangement`` and its 13
  cards are looked at; pass ``(arrangement, False)`` to play the hand out
  instead, ``(arrangement, True)`` to insist on one (an error if there is none).
  A claimed natural ignores how the cards were set, so a fouled setting of a
  natural still collects the natural.
* A surrendered player pays the surrender points (the 0-2 line of the points
  system) to every player who did not surrender, whatever that player's hand,
  foul or not; a natural against a surrenderer collects the natural's points
  instead. Surrender carries no royalties either way.
* A fouled hand is recorded as lost 0-3 ("as if scooped") and pays the
  opponent's royalties; a natural or a surrender decides a pair before any foul.
* A swap (three players only) costs 2 points to each other player whatever
  else happens in the round, surrender and naturals included.

>>> p1 = Arrangement.parse("8s 8h 8d", "Kh Qh Jd Th 9h", "7s 7h 7d Ts Td")
>>> p2 = Arrangement.parse("Ks Js 4s", "Kc Qc 8c 7c 5c", "Ad Qd 9d 6d 2d")
>>> p3 = Arrangement.parse("Qs Tc 5h", "Ah Ac 2h 2c 4d", "3s 3h 3d 3c 6h")
>>> natural(p2.cards)
Natural(name='three flushes', points=3)
>>> royalties(p1), royalties(p3)
(3, 3)
>>> sheet = score({1: p1, 2: p2, 3: p3})
>>> sheet.totals
{1: -1, 2: 6, 3: -5}
>>> sheet.pair(1, 3).won, sheet.pair(1, 3).lost, sheet.pair(1, 3).system, sheet.pair(1, 3).net
(2, 1, 2, 2)
>>> is_foul(Arrangement.parse("Kh Kd As", "Ks Kc Qd 7h 3s", "9s 9h 9c 2d 2h"))   # KK-A over KK-Q-7-3
True
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, TypeVar

from rules.games.cards import Card, check_distinct
from rules.games.chinese_poker_arrangement import _CARD_MASK, _check_row
from rules.games.chinese_poker_arrangement import Arrangement as Arrangement
from rules.games.chinese_poker_arrangement import Cards as Cards
from rules.games.chinese_poker_arrangement import is_foul as is_foul
from rules.games.chinese_poker_bonuses import _CATEGORY_SHIFT, _natural_of_key
from rules.games.chinese_poker_bonuses import NATURALS as NATURALS
from rules.games.chinese_poker_bonuses import ROYALTY_TABLES as ROYALTY_TABLES
from rules.games.chinese_poker_bonuses import SIX_PAIRS as SIX_PAIRS
from rules.games.chinese_poker_bonuses import THIRTEEN_CARD_ROYAL_FLUSH as THIRTEEN_CARD_ROYAL_FLUSH
from rules.games.chinese_poker_bonuses import THIRTEEN_CARD_STRAIGHT as THIRTEEN_CARD_STRAIGHT
from rules.games.chinese_poker_bonuses import THREE_FLUSHES as THREE_FLUSHES
from rules.games.chinese_poker_bonuses import THREE_STRAIGHTS as THREE_STRAIGHTS
from rules.games.chinese_poker_bonuses import Natural as Natural
from rules.games.chinese_poker_bonuses import RoyaltiesOption as RoyaltiesOption
from rules.games.chinese_poker_bonuses import RoyaltyTable as RoyaltyTable
from rules.games.chinese_poker_bonuses import natural as natural
from rules.games.chinese_poker_bonuses import natural_arrangement as natural_arrangement
from rules.games.chinese_poker_bonuses import royalties as royalties
from rules.games.chinese_poker_bonuses import royalty_table as royalty_table
from rules.games.errors import InvalidHand

P = TypeVar("P", bound=Hashable)


# --- points systems -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PointsSystem:
    """What a pair's rows won and lost are worth to the winner (§3, option ``cp_scoring``).

    ``points`` maps (rows won, rows lost), the winner's count first, to points;
    equal counts score nothing. ``surrender`` is the 0-2 line: what a surrendered
    player pays each opponent.
    """

    name: str
    points: Mapping[tuple[int, int], int]
    by_score: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        signed = [0] * 16
        for (won, lost), pts in self.points.items():
            signed[won * 4 + lost] = pts
            signed[lost * 4 + won] = -pts
        object.__setattr__(self, "by_score", tuple(signed))

    @property
    def scoop(self) -> int:
        """Points for winning all three rows: what a fouled hand pays."""
        return self.points[3, 0]

    @property
    def surrender(self) -> int:
        """Points a surrendered player pays: the 0-2 line."""
        return self.points[2, 0]


POINTS_SYSTEMS: Final[Mapping[str, PointsSystem]] = {
    # seed: a point a row net, plus one for winning more rows than the opponent
    "2-4": PointsSystem("2-4", {(3, 0): 4, (2, 1): 2, (2, 0): 3, (1, 0): 2}),
    # seed: a point a row net, plus three for winning all three
    "1-6": PointsSystem("1-6", {(3, 0): 6, (2, 1): 1, (2, 0): 2, (1, 0): 1}),
    # practice: a point a row net, plus one for winning all three
    "1-4": PointsSystem("1-4", {(3, 0): 4, (2, 1): 1, (2, 0): 2, (1, 0): 1}),
}


def points_system(scoring: str | PointsSystem) -> PointsSystem:
    """The system named ``scoring`` (``"2-4"``, ``"1-6"``, ``"1-4"``), or the system itself."""
    if isinstance(scoring, PointsSystem):
        return scoring
    try:
        return POINTS_SYSTEMS[scoring]
    except KeyError:
        raise InvalidHand(f"no points system {scoring!r}: choose one of {', '.join(POINTS_SYSTEMS)}") from None


# --- the swap (three players) -------------------------------------------------------------------------

SWAP_POINTS: Final = 2  # paid to each other player (§3, "Swap")


def swap(
    hand13: Sequence[Card], undealt13: Sequence[Card], give: Iterable[Card], take: Iterable[Card]
) -> tuple[Cards, Cards]:
    """Exchange ``give`` (from the hand) for ``take`` (from the 13 undealt cards) (§3, "Swap").

    Three players only: 39 cards are dealt and 13 stay undealt. Returns the new
    hand and the new undealt cards, each still 13; the next player to swap
    swaps against the new undealt cards. Charge the 2 points a player with
    ``score(..., swapped={player})``.

    >>> from rules.games.cards import cards_text, parse_cards
    >>> hand = parse_cards("2s 3h 5d 7c 8s 9h Jd Qc Ks 4h 6d Tc Ah")
    >>> undealt = parse_cards("2h 3d 5c 7s 8h 9d Jc Qs Kh 4d 6c Ts Ad")
    >>> new_hand, new_undealt = swap(hand, undealt, parse_cards("2s 3h"), parse_cards("Ad Kh"))
    >>> cards_text(new_hand)
    '5d 7c 8s 9h Jd Qc Ks 4h 6d Tc Ah Ad Kh'
    >>> swap(hand, undealt, parse_cards("2s"), parse_cards("As"))
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: A♠ is not among the undealt cards
    """
    hand = _check_row(hand13, "hand", 13)
    undealt = _check_row(undealt13, "undealt cards", 13)
    check_distinct(hand + undealt)
    given, taken = tuple(give), tuple(take)
    _check_row(given, "cards given", len(given))
    _check_row(taken, "cards taken", len(taken))
    check_distinct(given)
    check_distinct(taken)
    for card in given:
        if card not in hand:
            raise InvalidHand(f"{card.symbol} is not in the hand")
    for card in taken:
        if card not in undealt:
            raise InvalidHand(f"{card.symbol} is not among the undealt cards")
    if len(given) != len(taken):
        raise InvalidHand(f"{len(given)} cards given but {len(taken)} taken: a swap is card for card")
    new_hand = tuple(c for c in hand if c not in given) + taken
    new_undealt = tuple(c for c in undealt if c not in taken) + given
    return new_hand, new_undealt


# --- scoring ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairScore(Generic[P]):
    """What ``player`` won from ``opponent`` in a round, item by item; ``net`` is the sum (§3).

    ``won``, ``lost`` and ``ties`` count rows. They are 0-3 for a fouled hand
    (lost "as if scooped"), 0-2 for a surrender and 0-0 when a natural or two
    fouls decided the pair. Points are signed, positive to ``player``.
    """

    player: P
    opponent: P
    won: int
    lost: int
    ties: int
    system: int
    royalties: int
    natural: int
    surrender: int
    swap: int
    fouled: bool
    opponent_fouled: bool
    net: int


# (won, lost, ties, system, royalties, natural, surrender, swap, fouled, opponent fouled, net), player's side
_Raw = tuple[int, int, int, int, int, int, int, int, bool, bool, int]


@dataclass(frozen=True, slots=True)
class ScoreSheet(Generic[P]):
    """A round's scores: each ordered pair's ``PairScore``, each player's ``totals`` (zero-sum)
    and, when stakes were agreed, ``totals_cents``."""

    players: tuple[P, ...]
    totals: dict[P, int]
    totals_cents: dict[P, int] | None
    raw: Mapping[tuple[P, P], _Raw] = field(repr=False)

    def pair(self, player: P, opponent: P) -> PairScore[P]:
        """``player``'s score against ``opponent``."""
        try:
            raw = self.raw[player, opponent]
        except KeyError:
            raise KeyError(f"no pair {player!r} against {opponent!r} in this round") from None
        return PairScore(player, opponent, *raw)

    @property
    def pairs(self) -> dict[tuple[P, P], PairScore[P]]:
        """Every ordered pair of players to its ``PairScore``."""
        return {(a, b): PairScore(a, b, *raw) for (a, b), raw in self.raw.items()}


NaturalVsNatural = Literal["higher", "push"]
Stakes = int | Mapping[frozenset[P], int] | None


def score(
    hands_by_player: Mapping[P, Arrangement | tuple[Arrangement, bool]],
    *,
    scoring: str | PointsSystem = "2-4",
    royalties: RoyaltiesOption = "seed",
    surrender: Collection[P] = frozenset(),
    swapped: Collection[P] = frozenset(),
    stakes: Stakes[P] = None,
    natural_vs_natural: NaturalVsNatural = "higher",
    naturals: bool = True,
) -> ScoreSheet[P]:
    """Score a round of Chinese Poker, every player against every other (§3).

    ``hands_by_player`` maps each player (two to four) to an ``Arrangement``,
    whose natural is claimed automatically, or to ``(arrangement, claims)``:
    ``False`` plays a natural out as an ordinary hand, ``True`` insists on a
    natural. ``naturals=False`` turns naturals off for the table.

    A pair is decided by the first that applies:

    1. surrender: two surrendered players score nothing; a surrenderer pays the
       0-2 line to anyone else, or that player's natural when it has one;
    2. naturals: a natural wins its points; two naturals: the higher wins its
       value and equal values push (``natural_vs_natural="higher"``), or two
       naturals always push (``"push"``);
    3. fouls: a fouled hand pays the scoop and the opponent's royalties; two
       fouled hands score nothing;
    4. the showdown: rows compared front, middle, back under ``scoring``, plus
       the difference of the royalties.

    A player in ``swapped`` (three players only) also pays 2 points to each
    other player. ``stakes``, cents a point, either one number for every pair
    or one per pair keyed ``frozenset({a, b})``, gives ``totals_cents``.

    >>> ann = Arrangement.parse("2s 3h 4d", "Ks Kh Kd 8c 8d", "9s 9h 9d 9c 5c")
    >>> bob = Arrangement.parse("As Kc 7d", "Qs Qh Jc Js 2c", "8s 7h 6d 5s 4c")
    >>> sheet = score({"ann": ann, "bob": bob}, stakes=25)
    >>> bob_vs_ann = sheet.pair("bob", "ann")
    >>> bob_vs_ann.won, bob_vs_ann.lost, bob_vs_ann.system, bob_vs_ann.royalties, bob_vs_ann.net
    (1, 2, -2, -4, -6)
    >>> sheet.totals, sheet.totals_cents
    ({'ann': 6, 'bob': -6}, {'ann': 150, 'bob': -150})
    """
    system = points_system(scoring)
    table = royalty_table(royalties)
    by_score = system.by_score
    front_roy, middle_roy, back_roy = table.by_category
    shift = _CATEGORY_SHIFT
    if natural_vs_natural not in ("higher", "push"):
        raise InvalidHand(f"natural_vs_natural must be 'higher' or 'push', not {natural_vs_natural!r}")

    players = tuple(hands_by_player)
    if not 2 <= len(players) <= 4:
        raise InvalidHand(f"two to four players, got {len(players)}")
    for who, what in (("surrendered", surrender), ("swapped", swapped)):
        for player in what:
            if player not in hands_by_player:
                raise InvalidHand(f"{player!r} {who} but has no hand at the table")
    if swapped and len(players) != 3:
        raise InvalidHand(f"the swap is played with three players only, not {len(players)}")

    # One pass a player: row values, foul, royalties, natural.
    seats = []
    all_cards = 0
    for player in players:
        entry = hands_by_player[player]
        claims: bool | None = None
        if isinstance(entry, Arrangement):
            arrangement = entry
        else:
            arrangement, claims = entry
            if not isinstance(arrangement, Arrangement):
                raise InvalidHand(f"{player!r}: an arrangement expected, got {arrangement!r}")
        all_cards += arrangement.key & _CARD_MASK
        f, m, b = arrangement.values
        fouled = f > m or m > b
        roy = 0 if fouled else front_roy[f >> shift] + middle_roy[m >> shift] + back_roy[b >> shift]
        nat = 0
        if player in surrender:
            pass  # a surrendered hand is never shown: no natural, no royalties
        elif claims is None:
            found = _natural_of_key(arrangement.key) if naturals else None
            nat = found.points if found is not None else 0
        elif claims:
            found = _natural_of_key(arrangement.key)
            if not naturals or found is None:
                raise InvalidHand(f"{player!r} claims a natural but {'holds none' if naturals else 'naturals are off'}")
            nat = found.points
        seats.append((player, f, m, b, fouled, roy, nat, player in surrender, player in swapped))
    if all_cards.bit_count() != 13 * len(players):
        check_distinct(c for player in players for c in _arrangement(hands_by_player[player]).cards)

    surrender_points = system.surrender
    scoop = system.scoop
    raw: dict[tuple[P, P], _Raw] = {}
    totals = dict.fromkeys(players, 0)
    for i, (pa, fa, ma, ba, foul_a, roy_a, nat_a, sur_a, swp_a) in enumerate(seats):
        for pb, fb, mb, bb, foul_b, roy_b, nat_b, sur_b, swp_b in seats[i + 1 :]:
            won = lost = ties = pts = roy = nat = sur = 0
            if sur_a or sur_b:
                if sur_a and sur_b:
                    pass
                elif sur_b:
                    if nat_a:
                        nat = nat_a
                    else:
                        won, lost, sur = 2, 0, surrender_points
                elif nat_b:
                    nat = -nat_b
                else:
                    won, lost, sur = 0, 2, -surrender_points
            elif nat_a or nat_b:
                if not (nat_a and nat_b):
                    nat = nat_a - nat_b
                elif natural_vs_natural == "higher":
                    nat = nat_a if nat_a > nat_b else -nat_b if nat_b > nat_a else 0
            elif foul_a or foul_b:
                if not foul_b:
                    won, lost, pts, roy = 0, 3, -scoop, -roy_b
                elif not foul_a:
                    won, lost, pts, roy = 3, 0, scoop, roy_a
            else:
                won = (fa > fb) + (ma > mb) + (ba > bb)
                lost = (fa < fb) + (ma < mb) + (ba < bb)
                ties = 3 - won - lost
                pts = by_score[won * 4 + lost]
                roy = roy_a - roy_b
            swp = (SWAP_POINTS if swp_b else 0) - (SWAP_POINTS if swp_a else 0)
            net = pts + roy + nat + sur + swp
            raw[pa, pb] = (won, lost, ties, pts, roy, nat, sur, swp, foul_a, foul_b, net)
            raw[pb, pa] = (lost, won, ties, -pts, -roy, -nat, -sur, -swp, foul_b, foul_a, -net)
            totals[pa] += net
            totals[pb] -= net

    return ScoreSheet(players, totals, _cents(players, raw, stakes), raw)


def _arrangement(entry: Arrangement | tuple[Arrangement, bool]) -> Arrangement:
    return entry if isinstance(entry, Arrangement) else entry[0]


def _cents(players: tuple[P, ...], raw: Mapping[tuple[P, P], _Raw], stakes: Stakes[P]) -> dict[P, int] | None:
    """Each player's total in cents at each pair's own value a point (§3, "Money")."""
    if stakes is None:
        return None
    cents = dict.fromkeys(players, 0)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if isinstance(stakes, int):
                stake = stakes
            else:
                try:
                    stake = stakes[frozenset((a, b))]
                except KeyError:
                    raise InvalidHand(f"no value a point agreed between {a!r} and {b!r}") from None
            if stake < 0:
                raise InvalidHand(f"the value a point between {a!r} and {b!r} is negative: {stake}")
            amount = raw[a, b][-1] * stake
            cents[a] += amount
            cents[b] -= amount
    return cents


def suggest(cards13: Sequence[Card], *, top: int = 3, **rules: Any) -> tuple[Any, ...]:
    """The ``top`` best legal arrangements of 13 cards: ``rules.games.chinese_poker_suggest.suggest``.

    Kept in its own module (it brings NumPy and its tables); imported on first use.
    """
    from rules.games.chinese_poker_suggest import suggest as _suggest

    return _suggest(cards13, top=top, **rules)
