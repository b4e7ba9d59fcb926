"""The table's money per table and shift, read back beside the win the settlements computed: the confirmed opener
and closer, the fills and credits, the buy-ins, the drop box (the tables' rows and postings, ``tables.money``) and
the house's win from the settled rounds' postings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.db.models import Sum

from casino.models import Shift
from ledger.models import LedgerEntry
from rounds.selectors import entries_of_rounds, joined_round_value
from tables.drop import DropBox, drop_final
from tables.models import BuyIn, DropCount, Slip, Table, TrayCount
from tables.win import hold_bp, table_win_cents

User = get_user_model()


# The accounts whose sum over a table's settled rounds is the house's win there: its bank's result, the commission
# and the rake it collected (a reversal cancels what it undoes).
HOUSE_ACCOUNTS = (LedgerEntry.Account.HOUSE, LedgerEntry.Account.COMMISSION, LedgerEntry.Account.RAKE)


class SlipLine(TypedDict):
    """A slip of the shift as the Master Game Report lists it, with who requested, issued, signed or voided it and
    why (``pit.master_game.SLIP_COLUMNS``)."""

    kind: str
    number: int
    table: str
    status: str
    total_cents: int
    requested_by: str
    issued_by: str
    dealer_signed_by: str
    supervisor_signed_by: str
    voided_by: str
    void_reason: str


@dataclass
class TableShiftMoney:
    """A table's money in one shift: what was counted, beside what the settlements say it won.

    ``win_cents`` (the counted win, 9 NYCRR 5315.1(c)) needs the opener and the closer (confirmed) and the final
    drop; until then it is None and ``missing`` says what is not in. ``computed_win_cents`` is the house's win from
    the settlements (bank result + commission + rake). ``variance_cents`` = counted − (computed − promotional chips
    collected), which is ``drop_variance_cents`` (counted drop − buy-ins recorded) + ``tray_variance_cents``
    (closer − the closer the tray should hold: opener + fills − credits − chips sold at buy-ins + the house's win −
    the promotional chips lost, which the dealer drops into the box and which are not drop). A shift with no
    mistakes has every variance 0.
    """

    table_id: int
    table: str
    pit: str
    game: str
    shift_id: int
    opener_cents: int | None = None
    closer_cents: int | None = None
    fills_cents: int = 0
    credits_cents: int = 0
    buy_ins_cents: int = 0
    markers_cents: int = 0
    drop_cents: int | None = None
    promo_cents: int = 0
    drop_status: str = "not counted"
    house_cents: int = 0
    commission_cents: int = 0
    rake_cents: int = 0
    slips: list[SlipLine] = field(default_factory=list)
    counters: list[str] = field(default_factory=list)

    @property
    def computed_win_cents(self) -> int:
        return self.house_cents + self.commission_cents + self.rake_cents

    @property
    def pending_slips(self) -> int:
        return sum(1 for slip in self.slips if slip["status"] in (Slip.Status.REQUESTED, Slip.Status.ISSUED))

    @property
    def missing(self) -> list[str]:
        gaps = []
        if self.opener_cents is None:
            gaps.append("opener")
        if self.closer_cents is None:
            gaps.append("closer")
        if self.drop_cents is None:
            gaps.append("drop")
        return gaps

    @property
    def win_cents(self) -> int | None:
        if self.missing:
            return None
        return table_win_cents(
            drop_cents=self.drop_cents or 0,
            closer_cents=self.closer_cents or 0,
            credits_cents=self.credits_cents,
            opener_cents=self.opener_cents or 0,
            fills_cents=self.fills_cents,
        )

    @property
    def hold_bp(self) -> int | None:
        win = self.win_cents
        return None if win is None else hold_bp(win_cents=win, drop_cents=self.drop_cents or 0)

    @property
    def expected_closer_cents(self) -> int | None:
        if self.opener_cents is None:
            return None
        return (
            self.opener_cents
            + self.fills_cents
            - self.credits_cents
            - self.buy_ins_cents
            + self.computed_win_cents
            - self.promo_cents  # promotional chips lost go into the drop box, not the tray
        )

    @property
    def tray_variance_cents(self) -> int | None:
        expected = self.expected_closer_cents
        return None if expected is None or self.closer_cents is None else self.closer_cents - expected

    @property
    def drop_variance_cents(self) -> int | None:
        return None if self.drop_cents is None else self.drop_cents - self.buy_ins_cents

    @property
    def variance_cents(self) -> int | None:
        win = self.win_cents
        return None if win is None else win - (self.computed_win_cents - self.promo_cents)

    @property
    def box_line(self) -> str:
        """The drop-variance line of the box: ``missing`` (the table played, its box is not final), ``extra`` (a box
        counted for a table that recorded nothing else in the shift) or empty."""
        played = bool(self.opener_cents is not None or self.buy_ins_cents or self.computed_win_cents or self.slips)
        if played and self.drop_status != "final":
            return "missing"
        if not played and self.drop_status != "not counted":
            return "extra"
        return ""


def _name(user_id: int | None, names: dict[int, str]) -> str:
    return names.get(user_id, "") if user_id is not None else ""


def table_money_figures(*, shifts: Sequence[Shift], table_ids: Sequence[int] | None = None) -> list[TableShiftMoney]:
    """Every table's money in each of ``shifts`` (or only ``table_ids``), ordered by shift, pit and table: the
    confirmed opener and closer, the received fills and credits, the buy-ins, the drop box and the house's win from
    the settlements. A fixed number of queries (seven, and one for the names), whatever the number of tables."""
    shift_ids = [shift.pk for shift in shifts]
    rows: dict[tuple[int, int], dict[str, Any]] = defaultdict(dict)

    def scoped(queryset: Any) -> Any:
        queryset = queryset.filter(shift_id__in=shift_ids)
        return queryset if table_ids is None else queryset.filter(table_id__in=list(table_ids))

    for table_id, shift_id, kind, total in (
        scoped(TrayCount.objects.filter(status=TrayCount.Status.CONFIRMED))
        .order_by("counted_at", "pk")
        .values_list("table_id", "shift_id", "kind", "total_cents")
    ):
        # The shift's first confirmed opener and its last confirmed closer: a table closed and opened again within
        # the shift counts its tray in between, which is neither where it started nor where it ended.
        if kind == TrayCount.Kind.CLOSER or "opener_cents" not in rows[(table_id, shift_id)]:
            rows[(table_id, shift_id)][f"{kind}_cents"] = total
    user_ids: set[int] = set()
    slips = list(scoped(Slip.objects.all()).order_by("kind", "number"))
    for slip in slips:
        user_ids.update(
            pk
            for pk in (
                slip.requested_by_id,
                slip.issued_by_id,
                slip.dealer_signed_by_id,
                slip.supervisor_signed_by_id,
                slip.voided_by_id,
            )
            if pk is not None
        )
    for row in (
        scoped(BuyIn.objects.all())
        .values("table_id", "shift_id", "medium")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    ):
        figures = rows[(row["table_id"], row["shift_id"])]
        figures["buy_ins_cents"] = figures.get("buy_ins_cents", 0) + (row["total"] or 0)
        if row["medium"] == BuyIn.Medium.MARKER:
            figures["markers_cents"] = row["total"] or 0
    boxes: dict[tuple[int, int], list[DropCount]] = defaultdict(list)
    for count in scoped(DropCount.objects.all()).order_by("counted_at", "pk"):
        boxes[(count.table_id, count.shift_id)].append(count)
        user_ids.add(count.counted_by_id)
    for row in (
        entries_of_rounds(shifts=shift_ids, tables=None if table_ids is None else list(table_ids))
        .filter(account__in=HOUSE_ACCOUNTS)
        .values("account", table=joined_round_value("table_id"), shift=joined_round_value("shift_id"))
        .annotate(total=Sum("amount_cents"))
        .order_by()
    ):
        rows[(row["table"], row["shift"])][f"{row['account']}_cents"] = row["total"] or 0
    names = dict(User.objects.filter(pk__in=user_ids).values_list("pk", "username")) if user_ids else {}
    keys = set(rows) | set(boxes) | {(slip.table_id, slip.shift_id) for slip in slips}
    tables = {table.pk: table for table in Table.objects.filter(pk__in={key[0] for key in keys}).select_related("pit")}
    result: dict[tuple[int, int], TableShiftMoney] = {}
    for table_id, shift_id in keys:
        table = tables[table_id]
        result[(table_id, shift_id)] = TableShiftMoney(
            table_id=table_id,
            table=table.name,
            pit=table.pit.name,
            game=table.game,
            shift_id=shift_id,
            **rows.get((table_id, shift_id), {}),
        )
    for slip in slips:
        money = result[(slip.table_id, slip.shift_id)]
        money.slips.append(
            SlipLine(
                kind=slip.kind,
                number=slip.number,
                table=money.table,
                status=slip.status,
                total_cents=slip.total_cents,
                requested_by=_name(slip.requested_by_id, names),
                issued_by=_name(slip.issued_by_id, names),
                dealer_signed_by=_name(slip.dealer_signed_by_id, names),
                supervisor_signed_by=_name(slip.supervisor_signed_by_id, names),
                voided_by=_name(slip.voided_by_id, names),
                void_reason=slip.void_reason,
            )
        )
        if slip.status == Slip.Status.RECEIVED:
            if slip.kind == Slip.Kind.FILL:
                money.fills_cents += slip.total_cents
            else:
                money.credits_cents += slip.total_cents
    shift_by_id = {shift.pk: shift for shift in shifts}
    for (table_id, shift_id), counts in boxes.items():
        money = result[(table_id, shift_id)]
        box = DropBox(table=tables[table_id], shift=shift_by_id[shift_id], counts=counts, final=drop_final(counts))
        money.drop_status, money.drop_cents = box.status, box.drop_cents
        money.promo_cents = 0 if box.final is None else box.final.promo_cents
        money.counters = [_name(count.counted_by_id, names) for count in counts]
    order = {pk: i for i, pk in enumerate(shift_ids)}
    return sorted(result.values(), key=lambda money: (order[money.shift_id], money.pit, money.table))


@dataclass
class WinHold:
    """Win and hold summed over a group of table-shifts (a pit, a game, a shift, a day, the month, the year).

    Only table-shifts whose win is known count in ``win_cents`` and ``drop_cents`` (``incomplete`` counts the
    others); ``hold_bp`` is the group's win over its drop."""

    drop_cents: int = 0
    win_cents: int = 0
    computed_win_cents: int = 0
    variance_cents: int = 0
    table_shifts: int = 0
    incomplete: int = 0

    @property
    def hold_bp(self) -> int | None:
        return hold_bp(win_cents=self.win_cents, drop_cents=self.drop_cents)

    def add(self, money: TableShiftMoney) -> None:
        self.table_shifts += 1
        win = money.win_cents
        if win is None:
            self.incomplete += 1
            return
        self.win_cents += win
        self.drop_cents += money.drop_cents or 0
        self.computed_win_cents += money.computed_win_cents
        self.variance_cents += money.variance_cents or 0


def win_hold_by(rows: Sequence[TableShiftMoney], key: Callable[[TableShiftMoney], Any]) -> dict[Any, WinHold]:
    """``rows`` summed into groups by ``key`` (e.g. ``lambda m: m.pit``), in the order the groups first appear."""
    groups: dict[Any, WinHold] = {}
    for money in rows:
        groups.setdefault(key(money), WinHold()).add(money)
    return groups
