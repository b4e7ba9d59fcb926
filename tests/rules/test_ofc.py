"""Open-Face Chinese Poker, Mainz rules (GAME_RULES.md §4): placing street by street, fouls, royalties, scoring."""

from __future__ import annotations

import doctest
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games import ofc
from rules.games.cards import CARDS, JOKER, Card, parse_cards
from rules.games.errors import InvalidHand
from rules.games.ofc import Board, is_complete, is_foul, qualifies_for_fantasyland, royalties, royalties_by_row, score


def test_the_examples_in_the_module_docstrings_hold() -> None:
    assert doctest.testmod(ofc).failed == 0


# --- placing street by street -------------------------------------------------------------------


def test_a_board_is_built_five_cards_then_one_a_street_and_placed_cards_never_move() -> None:
    board = Board.empty()
    assert (board.street, board.next_street_size, is_complete(board)) == (0, 5, False)
    board = board.place({"front": "Ks", "middle": "7h 7d", "back": parse_cards("As Ad")})
    assert (board.street, board.next_street_size) == (1, 1)
    streets = [("Kd", "front"), ("2c", "front"), ("7c", "middle"), ("Ac", "back")]
    streets += [("9s", "middle"), ("9d", "middle"), ("3s", "back"), ("3d", "back")]
    for number, (card, row) in enumerate(streets, start=2):
        before = board
        board = board.place(card, row)
        assert board.street == number
        for name in ofc.ROWS:
            assert board.row(name)[: len(before.row(name))] == before.row(name)
    assert board == Board.from_rows("Ks Kd 2c", "7h 7d 7c 9s 9d", "As Ad Ac 3s 3d")
    assert (board.street, board.next_street_size, is_complete(board), board.complete) == (9, 0, True, True)
    assert str(board) == "front: Ks Kd 2c / middle: 7h 7d 7c 9s 9d / back: As Ad Ac 3s 3d"


def test_a_single_card_may_be_placed_through_a_mapping_of_one_row() -> None:
    board = Board.empty().place({"front": "Ks Kd", "middle": "7h 7d 2c"})
    assert board.place({"back": [Card("As")]}) == board.place(Card("As"), "back") == board.place("As", "back")


FIRST_STREET = {"front": "Ks", "middle": "7h 7d", "back": "As Ad"}
AFTER_FRONT_FULL = {"front": "Ks Kd 2c", "middle": "7h", "back": "As"}

BAD_PLACEMENTS: list[tuple[Mapping[str, str] | None, object, str | None, str, str]] = [
    # the board so far, the placement, its row, the dealer's words, the case
    (None, {"front": "Ks", "middle": "7h 7d", "back": "As"}, None, "the first street places 5 cards, got 4", "four"),
    (
        None,
        {"front": "Ks Kd", "middle": "7h 7d", "back": "As Ad"},
        None,
        "the first street places 5 cards, got 6",
        "six",
    ),
    (None, "As", "back", "the first street places 5 cards, got 1", "one card on an empty board"),
    (None, {"front": "Ks Kd 2c 3c", "back": "As"}, None, "the front has room for 3 more, got 4", "four in front"),
    (FIRST_STREET, {"front": "Kd", "back": "Ac"}, None, "street 2 places 1 card, got 2", "two on a later street"),
    (FIRST_STREET, {}, None, "street 2 places 1 card, got 0", "nothing on a later street"),
    (AFTER_FRONT_FULL, "Qs", "front", "the front is full: it holds 3 cards", "a full row"),
    (FIRST_STREET, "As", "middle", "A♠ is already on this board", "a card already placed"),
    (None, {"front": "Ks Ks", "middle": "7h 7d", "back": "As"}, None, "K♠ appears twice", "one card twice"),
    (FIRST_STREET, "Qs", "top", "no such row: 'top'", "an unknown row"),
    (FIRST_STREET, {"bottom": "Qs"}, None, "no such row: 'bottom'", "an unknown row in a mapping"),
    (FIRST_STREET, "Qs", None, "name the row the card goes to", "a card without its row"),
    (FIRST_STREET, {"back": "Qs"}, "back", "not both", "a mapping and a row"),
    (FIRST_STREET, JOKER, "back", "back: Open-Face Chinese Poker is played without the joker", "the joker"),
    (FIRST_STREET, {"back": ["Qs"]}, None, "back: cards expected, got 'Qs'", "text inside a list"),
    (FIRST_STREET, "Qx", "back", "'Qx' is not a card", "a card that does not exist"),
]


@pytest.mark.parametrize(
    ("so_far", "placement", "row", "message"),
    [row[:4] for row in BAD_PLACEMENTS],
    ids=[row[4] for row in BAD_PLACEMENTS],
)
def test_an_illegal_placement_is_refused_in_the_dealers_words(
    so_far: Mapping[str, str] | None, placement: object, row: str | None, message: str
) -> None:
    board = Board.empty() if so_far is None else Board.empty().place(so_far)
    with pytest.raises(InvalidHand, match=message):
        board.place(placement, row)  # type: ignore[arg-type]


def test_no_card_is_placed_after_the_thirteenth() -> None:
    board = Board.from_rows("Ks Kd 2c", "7h 7d 7c 9s 9d", "As Ad Ac 3s 3d")
    with pytest.raises(InvalidHand, match="the board is complete: all 13 cards are placed"):
        board.place("Qh", "front")


def test_a_refused_placement_leaves_the_board_as_it_was() -> None:
    board = Board.empty().place(FIRST_STREET)
    with pytest.raises(InvalidHand):
        board.place("As", "front")
    assert board == Board.empty().place(FIRST_STREET) and board.street == 1


BAD_FINISHED = [
    (("As Ad", "Kd Kc 2c 3c 4c", "Qs Qh Qd 9c 8h"), "a finished front holds 3 cards, got 2"),
    (("As Ad 2s", "Kd Kc 2c 3c", "Qs Qh Qd 9c 8h"), "a finished middle holds 5 cards, got 4"),
    (("As Ad 2s", "Kd Kc 2c 3c 4c", "Qs Qh Qd 9c 8h 7h"), "a finished back holds 5 cards, got 6"),
    (("As Ad 2s", "Kd Kc 2c 3c 4c", "Qs Qh Qd 9c As"), "A♠ appears twice"),
]


@pytest.mark.parametrize(("rows", "message"), BAD_FINISHED, ids=[row[1] for row in BAD_FINISHED])
def test_a_finished_board_must_hold_three_five_and_five_distinct_cards(
    rows: tuple[str, str, str], message: str
) -> None:
    with pytest.raises(InvalidHand, match=message):
        Board.from_rows(*rows)


def test_an_unfinished_board_has_no_foul_royalties_or_score_yet() -> None:
    board = Board.empty().place(FIRST_STREET)
    for check in (is_foul, royalties):
        with pytest.raises(InvalidHand, match="the board is not finished: 5 of 13 cards placed"):
            check(board)


# --- fouls --------------------------------------------------------------------------------------

FOULS = [
    (("Qs Qd 4c", "Jc Jh 7d 7s 2h", "Ac Ad Ah 3s 3d"), False, "queens, two pair, full house: ascending"),
    (("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s"), True, "kings in front over jack high in the middle"),
    (("2s 3d 4c", "Ac Ad Ah 3s 3h", "Tc Th 7d 7s 2h"), True, "a full house in the middle over two pair in back"),
    (("Qs Qd 4c", "Qc Qh 4d 3s 2h", "Ac Ad Ah 3c 3d"), False, "queens in front equal to queens in the middle"),
    (("Qs Qd 5c", "Qc Qh 4d 3s 2h", "Ac Ad Ah 3c 3d"), True, "the front's kicker decides: Q-Q-5 over Q-Q-4-3-2"),
    (("Qs Qd 4c", "Qc Qh 4d 3s 2h", "Kc Kd 4h 3c 2d"), False, "queens in the middle under kings in back"),
    (("7s 7d 7c", "As 2d 3c 4s 5d", "Kc Kd Ks 9h 9d"), False, "trips in front under the wheel, the lowest straight"),
    (("7s 7d 4c", "As 2d 3c 4s 5d", "Ac Kd Qs Jh Td"), False, "the wheel under the broadway straight"),
    (("7s 7d 4c", "6s 2d 3c 4s 5d", "As 2h 3s 4d 5c"), True, "six-high straight in the middle over the wheel in back"),
    (("Ks Qd Jc", "Ac 9h 7d 5s 3h", "As 8h 7c 6s 2h"), True, "ace-nine high in the middle over ace-eight in back"),
]


@pytest.mark.parametrize(("rows", "fouled"), [row[:2] for row in FOULS], ids=[row[2] for row in FOULS])
def test_a_board_fouls_when_its_rows_do_not_ascend_with_the_wheel_lowest(
    rows: tuple[str, str, str], fouled: bool
) -> None:
    assert is_foul(Board.from_rows(*rows)) is fouled


# --- royalties ----------------------------------------------------------------------------------

# Middle cases sit under a royal flush in hearts in back, with 4-3-2 in hearts in front.
MIDDLE_ROYALTIES = [
    ("9s 8d 7c 6s 5d", 4, 4, "a straight"),
    ("As 2d 3c 4s 5d", 4, 4, "the wheel, a straight all the same"),
    ("Ks 9s 7s 4s 2s", 8, 8, "a flush"),
    ("7s 7d 7c 2s 2d", 12, 12, "a full house"),
    ("9s 9d 9c 9h 2s", 16, 20, "four of a kind"),
    ("9d 8d 7d 6d 5d", 20, 30, "a straight flush"),
    ("As Ks Qs Js Ts", 40, 50, "a royal flush"),
    ("7s 7d 7c Ks 2d", 0, 2, "three of a kind: standard only"),
    ("7s 7d 6c 6s 2d", 0, 0, "two pair: nothing"),
]


@pytest.mark.parametrize(
    ("middle", "mainz", "standard"), [row[:3] for row in MIDDLE_ROYALTIES], ids=[row[3] for row in MIDDLE_ROYALTIES]
)
def test_the_middle_earns_the_tables_royalty_line(middle: str, mainz: int, standard: int) -> None:
    board = Board.from_rows("2h 3h 4h", middle, "Ah Kh Qh Jh Th")
    assert royalties_by_row(board)[:2] == (0, mainz)
    assert royalties_by_row(board, "mainz")[1] == mainz
    assert royalties_by_row(board, "standard")[:2] == (0, standard)


# Back cases sit over 7-5-4-3-2 in the middle and 4-3-2 in hearts in front.
BACK_ROYALTIES = [
    ("Ts 9d 8c 7s 6d", 2, 2, "a straight"),
    ("Ks 9s 8s 6s 3s", 4, 4, "a flush"),
    ("Ks Kd Kc 9s 9d", 6, 6, "a full house"),
    ("Qs Qd Qc Qh 9s", 8, 10, "four of a kind"),
    ("Jc Tc 9c 8c 7c", 10, 15, "a straight flush"),
    ("As Ks Qs Js Ts", 20, 25, "a royal flush"),
    ("Ks Kd Kc 9s 8d", 0, 0, "three of a kind: nothing"),
]


@pytest.mark.parametrize(
    ("back", "mainz", "standard"), [row[:3] for row in BACK_ROYALTIES], ids=[row[3] for row in BACK_ROYALTIES]
)
def test_the_back_earns_the_tables_royalty_line(back: str, mainz: int, standard: int) -> None:
    board = Board.from_rows("2h 3h 4h", "2d 3c 4s 5d 7d", back)
    assert royalties_by_row(board) == (0, 0, mainz)
    assert royalties_by_row(board, "standard") == (0, 0, standard)
    assert royalties(board) == mainz and royalties(board, table="standard") == standard


def _front_board(front: str) -> Board:
    """The front under a straight flush in hearts (5-9) and a royal flush in diamonds."""
    return Board.from_rows(front, "9h 8h 7h 6h 5h", "Ad Kd Qd Jd Td")


# The seed's ladder: 66 -> 1 ... AA -> 9, then 222 -> 10 ... AAA -> 22; lower pairs earn nothing.
FRONT_LADDER = [
    *[(f"{r}s {r}c {'3' if r == '2' else '2'}d", 0) for r in "2345"],
    *[(f"{r}s {r}c 2d", points) for r, points in zip("6789TJQKA", range(1, 10), strict=True)],
    *[
        (f"{r}s {r}c {r}{'d' if r in '56789' else 'h'}", points)
        for r, points in zip("23456789TJQKA", range(10, 23), strict=True)
    ],
]


@pytest.mark.parametrize(("front", "points"), FRONT_LADDER, ids=[row[0] for row in FRONT_LADDER])
def test_the_front_earns_the_pairs_and_trips_ladder_in_both_tables(front: str, points: int) -> None:
    board = _front_board(front)
    assert not is_foul(board)
    assert royalties_by_row(board)[0] == points
    assert royalties_by_row(board, "standard")[0] == points


def test_the_ladder_reads_as_the_seed_prints_it() -> None:
    assert [royalties_by_row(_front_board(f"{r}s {r}c 2d"))[0] for r in "6789TJQKA"] == list(range(1, 10))
    assert royalties_by_row(_front_board("Qs Qc 2d"))[0] == 7  # the seed's blank row, from the sequence
    assert royalties_by_row(_front_board("2s 2c 2h"))[0] == 10
    assert royalties_by_row(_front_board("As Ac Ah"))[0] == 22


def test_a_high_card_front_earns_nothing() -> None:
    assert royalties_by_row(_front_board("As Kc Qh"))[0] == 0


def test_a_fouled_board_earns_no_royalties_however_strong_its_rows() -> None:
    board = Board.from_rows("As Ac Ah", "Ks Qs Js Ts 9s", "2d 3d 4d 5d 6d")  # trips, then K-high SF over 6-high SF
    assert is_foul(board)
    assert royalties(board) == royalties(board, "standard") == 0
    assert royalties_by_row(board) == (0, 0, 0)


def test_an_unknown_royalty_table_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown royalty table 'vegas': choose one of mainz, standard"):
        royalties(_front_board("As Kc Qh"), "vegas")


# --- scoring ------------------------------------------------------------------------------------

# Per row, a pair of rows (player A's, player B's) where A wins or ties. Ranks differ between rows, so
# any mix is a legal pair of boards; none earns a royalty and none fouls.
ROW_CARDS = {
    "front": {"W": ("4s 4h 2s", "3s 3h 2h"), "T": ("4s 3s 2s", "4h 3h 2h")},
    "middle": {"W": ("9s 9h 8s 6h 5s", "8d 8c 9d 6c 5d"), "T": ("9s 9h 8s 6h 5s", "9d 9c 8d 6c 5d")},
    "back": {"W": ("As Ah Ks Kh Qs", "Qd Qc Jd Jc Ts"), "T": ("As Ah Ks Kh Qs", "Ad Ac Kd Kc Qh")},
}


def _boards(outcomes: str) -> tuple[Board, Board]:
    """A's and B's boards where A wins (W), ties (T) or loses (L) each row, front first."""
    a_rows, b_rows = [], []
    for row, outcome in zip(ofc.ROWS, outcomes, strict=True):
        mine, theirs = ROW_CARDS[row]["T" if outcome == "T" else "W"]
        if outcome == "L":
            mine, theirs = theirs, mine
        a_rows.append(mine)
        b_rows.append(theirs)
    return Board.from_rows(*a_rows), Board.from_rows(*b_rows)


SCORES = [
    ("WWW", 6, "all three rows better: a scoop, +6"),
    ("WWL", 1, "two better: +1"),
    ("LWL", -1, "two worse: -1"),
    ("LLL", -6, "all three worse: scooped, -6"),
    ("WWT", 2, "two better and a tie: +2, no scoop"),
    ("TWT", 1, "one better, two ties: +1"),
    ("TTT", 0, "three ties: nothing"),
    ("WLT", 0, "one each and a tie: nothing"),
    ("LTL", -2, "two worse and a tie: -2"),
]


@pytest.mark.parametrize(("outcomes", "points"), [row[:2] for row in SCORES], ids=[row[2] for row in SCORES])
def test_each_pair_scores_a_point_a_row_and_three_more_for_a_scoop(outcomes: str, points: int) -> None:
    a, b = _boards(outcomes)
    assert not is_foul(a) and not is_foul(b)
    sheet = score({"ann": a, "bob": b})
    pair = sheet.pairs["ann", "bob"]
    expected_rows = tuple({"W": 1, "T": 0, "L": -1}[o] for o in outcomes)
    assert pair.rows == expected_rows
    assert pair.total == points and pair.royalties == 0 and pair.foul == 0
    assert sheet.totals == {"ann": points, "bob": -points}
    assert sheet.pairs["bob", "ann"].total == -points


ANN = Board.from_rows("Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d")  # QQ 7 + full house 6 = 13 (mainz)
BOB = Board.from_rows("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s")  # kings over jack high: fouled
CAT = Board.from_rows("Jd 8c 5d", "Kh Kc Ts Td Js", "Tc 9s 8s 7h 6s")  # two pair, then a straight in back: 2


def test_a_fouled_board_pays_six_and_the_opponents_royalties_and_claims_none() -> None:
    assert is_foul(BOB) and royalties(ANN) == 13
    sheet = score({"ann": ANN, "bob": BOB})
    assert sheet.pairs["ann", "bob"].total == 6 + 13
    assert sheet.pairs["bob", "ann"].foul == -6 and sheet.pairs["bob", "ann"].royalties == -13
    assert sheet.totals == {"ann": 19, "bob": -19}
    assert sheet.fouls == frozenset({"bob"})


def test_two_fouled_boards_score_nothing_against_each_other() -> None:
    other_foul = Board.from_rows("Ah Ac 2c", "Kh Qc Js 8s 3h", "Tc 9s 8c 7h 5s")  # aces over king high
    assert is_foul(BOB) and is_foul(other_foul)
    sheet = score({"bob": BOB, "eve": other_foul})
    assert sheet.pairs["bob", "eve"].total == 0 == sheet.pairs["eve", "bob"].total
    assert sheet.totals == {"bob": 0, "eve": 0}


def test_a_three_player_table_settles_each_pair_and_sums_to_zero() -> None:
    assert (royalties(ANN), royalties(CAT), is_foul(CAT)) == (13, 2, False)
    sheet = score({"ann": ANN, "bob": BOB, "cat": CAT})
    # ann v cat: front QQ beats J-8-5, middle 9s-7s loses to kings-tens, back full house beats the straight: 2-1,
    # +1, then royalties 13 - 2.
    assert sheet.pairs["ann", "cat"].rows == (1, -1, 1)
    assert sheet.pairs["ann", "cat"].total == 1 + 11
    assert sheet.pairs["bob", "cat"].total == -(6 + 2)
    assert sheet.totals == {"ann": 12 + 19, "bob": -19 - 8, "cat": -12 + 8}
    assert sum(sheet.totals.values()) == 0
    assert sheet.royalties == {"ann": 13, "bob": 0, "cat": 2}


def test_royalties_are_paid_as_the_difference_between_the_two_boards() -> None:
    sheet = score({"ann": ANN, "cat": CAT}, royalties="standard")
    assert sheet.pairs["ann", "cat"].royalties == 13 - 2 and sheet.table == "standard"


def test_points_are_money_in_integer_cents_at_the_tables_value() -> None:
    assert score({"ann": ANN, "bob": BOB}).totals_cents(25) == {"ann": 475, "bob": -475}


BAD_TABLES = [
    ({"ann": ANN}, "two to four players expected, got 1"),
    ({"ann": ANN, "bob": Board.empty().place(FIRST_STREET)}, "the board is not finished: 5 of 13 cards placed"),
    ({"ann": ANN, "eve": Board.from_rows("Qh Qc 4h", "9s 9d 7h 7c 2s", "Ac Kd Kh 3h 3c")}, "A♣ is on two boards"),
]


@pytest.mark.parametrize(("boards", "message"), BAD_TABLES, ids=[row[1] for row in BAD_TABLES])
def test_a_table_that_cannot_be_scored_is_refused(boards: dict[str, Board], message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        score(boards)


# --- fantasyland --------------------------------------------------------------------------------

FANTASYLAND = [
    ("Qs Qc 2d", True, "queens"),
    ("Ks Kc 2d", True, "kings"),
    ("2s 2c 2h", True, "any trips"),
    ("Js Jc As", False, "jacks, however good the kicker"),
    ("As Kc Qh", False, "ace high"),
]


@pytest.mark.parametrize(("front", "qualifies"), [r[:2] for r in FANTASYLAND], ids=[r[2] for r in FANTASYLAND])
def test_queens_or_better_in_front_qualify_for_fantasyland(front: str, qualifies: bool) -> None:
    board = _front_board(front)
    assert qualifies_for_fantasyland(board) is qualifies
    other = Board.from_rows("4s 5c 3s", "3c 4c 6c 7c 8s", "Tc Th 9c 9s 4h")
    sheet = score({"ann": board, "bob": other}, fantasyland=True)
    assert sheet.fantasyland == (frozenset({"ann"}) if qualifies else frozenset())


def test_a_fouled_board_never_qualifies_and_the_option_off_reports_no_one() -> None:
    fouled = Board.from_rows("Ks Kc Kh", "Js Ts 8s 6s 5s", "2c 3c 4h 5d 7c")  # a flush over seven high
    assert is_foul(fouled) and not qualifies_for_fantasyland(fouled)
    assert score({"ann": ANN, "bob": fouled}, fantasyland=True).fantasyland == frozenset({"ann"})
    assert score({"ann": ANN, "bob": fouled}).fantasyland == frozenset()


# --- invariants ---------------------------------------------------------------------------------


def _deal(cards: list[Card], players: int) -> dict[str, Board]:
    return {
        f"p{i}": Board.from_rows(
            cards[13 * i : 13 * i + 3], cards[13 * i + 3 : 13 * i + 8], cards[13 * i + 8 : 13 * i + 13]
        )
        for i in range(players)
    }


tables = st.tuples(st.permutations(CARDS), st.integers(min_value=2, max_value=4))


@settings(max_examples=300, deadline=None)
@given(table=tables, royalty_table=st.sampled_from(["mainz", "standard"]))
def test_every_sheet_sums_to_zero_and_each_pair_is_the_negation_of_its_reverse(
    table: tuple[list[Card], int], royalty_table: str
) -> None:
    boards = _deal(*table)
    sheet = score(boards, royalties=royalty_table)
    assert sum(sheet.totals.values()) == 0
    for (a, b), pair in sheet.pairs.items():
        reverse = sheet.pairs[b, a]
        assert pair.total == -reverse.total and pair.rows == tuple(-r for r in reverse.rows)
        assert pair.total == pair.row_points + pair.scoop + pair.foul + pair.royalties
    for player in boards:
        assert sheet.totals[player] == sum(p.total for (a, _), p in sheet.pairs.items() if a == player)


@settings(max_examples=300, deadline=None)
@given(table=tables)
def test_swapping_two_players_boards_negates_their_pair_score(table: tuple[list[Card], int]) -> None:
    boards = _deal(*table)
    swapped = {**boards, "p0": boards["p1"], "p1": boards["p0"]}
    before, after = score(boards), score(swapped)
    assert after.pairs["p0", "p1"].total == -before.pairs["p0", "p1"].total
    assert after.totals["p0"] == before.totals["p1"] and after.totals["p1"] == before.totals["p0"]


@settings(max_examples=200, deadline=None)
@given(cards=st.permutations(CARDS), choices=st.lists(st.integers(min_value=0, max_value=2), min_size=13, max_size=13))
def test_any_legal_street_by_street_play_ends_in_a_finished_board_of_its_cards(
    cards: list[Card], choices: list[int]
) -> None:
    def room(rows: dict[str, int], choice: int) -> str:
        open_rows = [r for r in ofc.ROWS if rows[r] < ofc.ROW_SIZES[r]]
        return open_rows[choice % len(open_rows)]

    filled: dict[str, int] = dict.fromkeys(ofc.ROWS, 0)
    first: dict[str, list[Card]] = {}
    for card, choice in zip(cards[:5], choices[:5], strict=True):
        row = room(filled, choice)
        first.setdefault(row, []).append(card)
        filled[row] += 1
    board = Board.empty().place(first)
    for card, choice in zip(cards[5:13], choices[5:], strict=True):
        before = board
        board = board.place(card, room({str(r): len(board.row(r)) for r in ofc.ROWS}, choice))
        assert all(board.row(r)[: len(before.row(r))] == before.row(r) for r in ofc.ROWS)
    assert board.complete and board.street == 9 and sorted(board.cards) == sorted(cards[:13])
    assert Board.from_rows(board.front, board.middle, board.back) == board
