"""Every role × every action on the table's money ("Done when": "every role × action permission"), asked
of the services themselves, and the segregation of duties the regulators ask for.

The personas: Dana deals PGP-1 (the table of every action); Otto deals PGP-2; Fred is a Floor supervisor, Paula
the Pit boss, Alex an Auditor; Cora is a Cage cashier, Carl on the Count team; Nick holds no role. Each action
starts from what it needs, made by someone allowed (Ivan, another cashier, issues what is to be signed); a refused
action is a ``NotAllowed`` (a 403 in the API) and writes nothing: no row, no audit event, no posting, no change
to the count or the slip it was about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.errors import NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role, user_roles
from casino.services import shift_close
from ledger.models import LedgerEntry
from tables.drop import buy_in_record, drop_box, drop_count_record
from tables.models import BuyIn, DropCount, Slip, SlipSequence, TrayCount
from tables.services import table_assign_dealer
from tables.slips import slip_issue, slip_request, slip_sign, slip_void
from tables.tray import tray_count_confirm, tray_count_record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

TRAY = {2500: 20, 10000: 3}  # 800.00
FILL = {2500: 40}  # 1,000.00
CASH = {10000: 5, 2000: 10}  # 700.00

PERSONAS = (
    "dealer_of_this_table",
    "dealer_of_another_table",
    "floor_supervisor",
    "pit_boss",
    "auditor",
    "cage_cashier",
    "count_team",
    "tournament_director",
    "credit_manager",
    "no_role",
)
TABLE_STAFF = {"dealer_of_this_table", "floor_supervisor", "pit_boss"}
SUPERVISORS = {"floor_supervisor", "pit_boss"}


@pytest.fixture
def floor(shift: Any, make_table: Callable[..., Any], make_user: Callable[..., User], pit_boss: User) -> Any:
    """PGP-1 (Dana's) and PGP-2 (Otto's) in the open shift, and the people of the floor."""
    pgp = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    otto = make_user("otto_other_dealer", Role.DEALER)
    table_assign_dealer(actor=pit_boss, table=make_table(name="PGP-2", game="paigow_poker", seat_count=6), dealer=otto)
    return {
        "table": pgp,
        "shift": shift,
        "dealer_of_another_table": otto,
        "cage_cashier": make_user("cora_cage", Role.CAGE_CASHIER),
        "count_team": make_user("carl_count", Role.COUNT_TEAM),
        # The poker room's director runs tournaments and has no part in a table's money.
        "tournament_director": make_user("tessa_director", Role.TOURNAMENT_DIRECTOR),
        # The credit manager sets players' credit lines and has no part in a table's money either.
        "credit_manager": make_user("cleo_credit", Role.CREDIT_MANAGER),
        "no_role": make_user("nick_nobody"),
        "issuer": make_user("ivan_cage", Role.CAGE_CASHIER),
    }


@pytest.fixture
def people(floor: Any, dealer: User, floor_supervisor: User, pit_boss: User, auditor: User) -> dict[str, User]:
    return {
        "dealer_of_this_table": dealer,
        "dealer_of_another_table": floor["dealer_of_another_table"],
        "floor_supervisor": floor_supervisor,
        "pit_boss": pit_boss,
        "auditor": auditor,
        "cage_cashier": floor["cage_cashier"],
        "count_team": floor["count_team"],
        "tournament_director": floor["tournament_director"],
        "credit_manager": floor["credit_manager"],
        "no_role": floor["no_role"],
    }


def written() -> tuple[object, ...]:
    """Everything an action on the table's money may write."""
    return (
        list(TrayCount.objects.order_by("pk").values_list("pk", "status", "confirmed_by")),
        list(
            Slip.objects.order_by("pk").values_list(
                "pk", "status", "issued_by", "dealer_signed_by", "supervisor_signed_by", "voided_by"
            )
        ),
        list(SlipSequence.objects.order_by("kind").values_list("kind", "last_number")),
        BuyIn.objects.count(),
        DropCount.objects.count(),
        LedgerEntry.objects.count(),
        AuditEvent.objects.count(),
    )


# Each action: what it needs, made by someone allowed (returns what the action takes), and the action.
Setup = Callable[[Any, dict[str, User]], Any]
Act = Callable[[User, Any, Any], object]


def _nothing(floor: Any, people: dict[str, User]) -> None:
    return None


def _counted_by_the_dealer(floor: Any, people: dict[str, User]) -> TrayCount:
    return tray_count_record(actor=people["dealer_of_this_table"], table=floor["table"], kind="opener", counts=TRAY)


def _requested(floor: Any, people: dict[str, User]) -> Slip:
    return slip_request(actor=people["dealer_of_this_table"], table=floor["table"], kind="fill", chips=FILL)


def _issued(floor: Any, people: dict[str, User]) -> Slip:
    return slip_issue(actor=floor["issuer"], slip=_requested(floor, people))


def _shift_closed(floor: Any, people: dict[str, User]) -> None:
    shift_close(actor=people["pit_boss"], shift=floor["shift"])


ACTIONS: dict[str, tuple[Setup, Act, set[str]]] = {
    "record an opener": (
        _nothing,
        lambda who, floor, _: tray_count_record(actor=who, table=floor["table"], kind="opener", counts=TRAY),
        TABLE_STAFF,
    ),
    "record a closer": (
        _nothing,
        lambda who, floor, _: tray_count_record(actor=who, table=floor["table"], kind="closer", counts=TRAY),
        TABLE_STAFF,
    ),
    "confirm a count": (
        _counted_by_the_dealer,
        lambda who, floor, count: tray_count_confirm(actor=who, count=count),
        SUPERVISORS,
    ),
    "request a fill": (
        _nothing,
        lambda who, floor, _: slip_request(actor=who, table=floor["table"], kind="fill", chips=FILL),
        TABLE_STAFF,
    ),
    "request a credit": (
        _nothing,
        lambda who, floor, _: slip_request(actor=who, table=floor["table"], kind="credit", chips=FILL),
        TABLE_STAFF,
    ),
    "issue a slip": (_requested, lambda who, floor, slip: slip_issue(actor=who, slip=slip), {"cage_cashier"}),
    "sign a slip": (_issued, lambda who, floor, slip: slip_sign(actor=who, slip=slip), TABLE_STAFF),
    "void a slip": (
        _requested,
        lambda who, floor, slip: slip_void(actor=who, slip=slip, reason="Misdialled"),
        SUPERVISORS,
    ),
    "record a buy-in": (
        _nothing,
        lambda who, floor, _: buy_in_record(actor=who, table=floor["table"], seat=2, medium="cash", amount_cents=5000),
        TABLE_STAFF,
    ),
    "count a drop box": (
        _shift_closed,
        lambda who, floor, _: drop_count_record(
            actor=who, table=floor["table"], shift=floor["shift"], cash=CASH, markers_cents=0, promo_cents=0
        ),
        {"count_team"},
    ),
}


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_each_role_may_do_only_its_own_part(floor: Any, people: dict[str, User], action: str, persona: str) -> None:
    setup, act, allowed = ACTIONS[action]
    subject = setup(floor, people)
    before = written()
    if persona in allowed:
        act(people[persona], floor, subject)
        assert written() != before, f"{persona} may {action}, and it is written"
    else:
        with pytest.raises(NotAllowed) as refused:
            act(people[persona], floor, subject)
        assert refused.value.status_code == 403
        assert refused.value.message
        assert written() == before, f"{persona} may not {action}, and nothing is written"


def test_the_personas_hold_every_role_and_one_holds_none(people: dict[str, User]) -> None:
    held = {persona: user_roles(user) for persona, user in people.items()}
    assert set().union(*held.values()) == set(Role)
    assert held["no_role"] == frozenset()
    assert set(people) == set(PERSONAS)


# --- segregation of duties ------------------------------------------------------------------------


def test_whoever_requested_a_fill_cannot_issue_it_even_holding_the_cage_role(
    floor: Any, make_user: Callable[..., User]
) -> None:
    both = make_user("sam_floor_and_cage", Role.FLOOR_SUPERVISOR, Role.CAGE_CASHIER)
    slip = slip_request(actor=both, table=floor["table"], kind="fill", chips=FILL)
    before = written()
    with pytest.raises(NotAllowed, match="^You asked for fill slip 1: another person issues it.$"):
        slip_issue(actor=both, slip=slip)
    assert written() == before
    assert slip_issue(actor=floor["cage_cashier"], slip=slip).status == "issued"


def test_a_cage_cashier_cannot_sign_at_the_table_even_holding_a_supervisors_role(
    floor: Any, people: dict[str, User], make_user: Callable[..., User]
) -> None:
    slip = _issued(floor, people)
    both = make_user("sue_floor_and_cage", Role.FLOOR_SUPERVISOR, Role.CAGE_CASHIER)
    before = written()
    for cashier in (floor["issuer"], floor["cage_cashier"], both):
        with pytest.raises(NotAllowed, match="A Cage cashier does not sign at the table"):
            slip_sign(actor=cashier, slip=slip)
    assert written() == before


def test_whoever_counted_a_tray_cannot_confirm_it(floor: Any, floor_supervisor: User, pit_boss: User) -> None:
    count = tray_count_record(actor=floor_supervisor, table=floor["table"], kind="closer", counts=TRAY)
    before = written()
    with pytest.raises(NotAllowed, match="^You counted this tray: a second person confirms the count.$"):
        tray_count_confirm(actor=floor_supervisor, count=count)
    assert written() == before
    assert tray_count_confirm(actor=pit_boss, count=count).confirmed_by == pit_boss


def test_one_person_cannot_sign_a_slip_twice(floor: Any, people: dict[str, User], floor_supervisor: User) -> None:
    slip = slip_sign(actor=floor_supervisor, slip=_issued(floor, people))
    before = written()
    with pytest.raises(WrongState, match="^You already signed fill slip 1: a second person signs.$"):
        slip_sign(actor=floor_supervisor, slip=slip)
    assert written() == before


def test_the_second_signature_is_a_supervisors(floor: Any, people: dict[str, User], pit_boss: User) -> None:
    slip = slip_sign(actor=pit_boss, slip=_issued(floor, people))  # a supervisor stands in for the dealer
    before = written()
    with pytest.raises(NotAllowed, match="waits for a supervisor's signature"):
        slip_sign(actor=people["dealer_of_this_table"], slip=slip)
    assert written() == before
    assert slip_sign(actor=people["floor_supervisor"], slip=slip).status == "received"


def test_one_person_cannot_count_a_drop_box_twice(
    floor: Any, people: dict[str, User], make_user: Callable[..., User]
) -> None:
    _shift_closed(floor, people)
    carl = people["count_team"]
    count = {"table": floor["table"], "shift": floor["shift"], "cash": CASH, "markers_cents": 0, "promo_cents": 0}
    drop_count_record(actor=carl, **count)
    before = written()
    with pytest.raises(NotAllowed, match="a second, independent count is another person's"):
        drop_count_record(actor=carl, **count)
    assert written() == before
    drop_count_record(actor=make_user("cleo_count", Role.COUNT_TEAM), **count)
    assert drop_box(table=floor["table"], shift=floor["shift"]).status == "final"
