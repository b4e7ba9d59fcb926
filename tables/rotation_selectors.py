"""Dealer rotation's reads: the floor's strings as the pit's rotation page shows them (who is where, who is next,
who is on break and since when, overdue breaks), the relief line of a table's tablet, and a dealer's next post.

The rotation is worked out by ``tables.rotation_plan`` from each string's start and dealers; where a table's dealer
really is comes from the table itself, so a push not yet made shows as overdue. A string whose rotation cannot be
read (a pattern changed under it, a dealer gone) breaks only its own panel.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Count, F, Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.roles import Role
from tables.models import DealerClockIn, DealerPush, DealerString, StringDealer, StringTable, Table
from tables.rotation import TAP_IN_EARLY, string_pattern
from tables.rotation_plan import Rotation, RotationError, rotation_at

# A push not made this long after it was due is an alert on the rotation page.
OVERDUE_AFTER = dt.timedelta(minutes=5)


@dataclass(frozen=True)
class TableRow:
    """A table of a string: who deals it and since when, who the rotation has there now, who relieves and when."""

    table: Table
    dealer_name: str
    dealer_since: dt.datetime | None
    due_name: str  # whom the rotation has at the table now
    next_at: dt.datetime
    next_name: str
    waiting_name: str  # a push asked and waiting for the round's end: its dealer
    overdue: bool


@dataclass(frozen=True)
class BreakRow:
    """A dealer of a string on break (dealing no table), since when, and when and where they are back."""

    dealer_name: str
    since: dt.datetime
    back_at: dt.datetime
    back_table: str


@dataclass(frozen=True)
class StringView:
    string: DealerString
    pattern_text: str
    push_minutes: int
    tables: tuple[TableRow, ...] = ()
    breaks: tuple[BreakRow, ...] = ()
    dealer_names: tuple[str, ...] = ()
    alerts: tuple[str, ...] = ()
    problem: str = ""  # this string could not be read: why


@dataclass(frozen=True)
class ClockedIn:
    dealer: User
    since: dt.datetime
    where: str  # the table they deal, or ""


@dataclass(frozen=True)
class FloorRotation:
    strings: tuple[StringView, ...]
    clocked_in: tuple[ClockedIn, ...]
    clock_in_choices: tuple[User, ...]  # dealers not clocked in
    free_tables: tuple[Table, ...]  # tables in no string
    alerts: tuple[str, ...] = field(default=())


def pattern_text(string: DealerString) -> str:
    if string.off_minutes is None:
        return _("round robin, %(minutes)s min a table") % {"minutes": string.on_minutes}
    return _("%(on)s on / %(off)s off") % {"on": string.on_minutes, "off": string.off_minutes}


def _hm(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def _string_view(
    string: DealerString,
    places: list[StringTable],
    dealers: list[User],
    waiting: dict[int, str],
    last_off: dict[int, dt.datetime],
    at: dt.datetime,
) -> StringView:
    tables = [place.table for place in places]
    text = pattern_text(string)
    if string.started_at is None:
        try:
            push = int(string_pattern(string).push_every(len(tables)).total_seconds() // 60)
        except RotationError as exc:
            return StringView(string=string, pattern_text=text, push_minutes=0, problem=str(exc))
        return StringView(
            string=string,
            pattern_text=text,
            push_minutes=push,
            tables=tuple(
                TableRow(
                    table=t,
                    dealer_name=t.dealer.get_username() if t.dealer else "",
                    dealer_since=t.dealer_since,
                    due_name="",
                    next_at=at,
                    next_name="",
                    waiting_name=waiting.get(t.pk, ""),
                    overdue=False,
                )
                for t in tables
            ),
        )
    every = string_pattern(string).push_every(len(tables))
    rotation: Rotation[int, int] = rotation_at(
        tables=[t.pk for t in tables],
        dealers=[d.pk for d in dealers],
        started_at=string.started_at,
        push_every=every,
        at=at,
    )
    names = {d.pk: d.get_username() for d in dealers}
    by_pk = {t.pk: t for t in tables}
    alerts: list[str] = []
    rows = []
    dealing: set[int] = set()
    for table in tables:
        due = rotation.at_table(table.pk)
        nxt = rotation.next_at_table(table.pk)
        late = table.dealer_id != due.dealer and at - due.since >= OVERDUE_AFTER
        if table.dealer_id is not None:
            dealing.add(table.dealer_id)
        if late and table.dealer_id in names:
            post = rotation.post_of(table.dealer_id)
            minutes = int((at - due.since).total_seconds() // 60)
            if post.table is None:
                alerts.append(
                    _("%(dealer)s is overdue for a break: due at %(time)s, still dealing %(table)s (%(minutes)s min).")
                    % {
                        "dealer": names[table.dealer_id],
                        "time": _hm(due.since),
                        "table": table.name,
                        "minutes": minutes,
                    }
                )
            else:
                alerts.append(
                    _("The push at %(table)s is overdue: %(dealer)s was due at %(time)s (%(minutes)s min).")
                    % {"table": table.name, "dealer": names[due.dealer], "time": _hm(due.since), "minutes": minutes}
                )
        rows.append(
            TableRow(
                table=table,
                dealer_name=table.dealer.get_username() if table.dealer else "",
                dealer_since=table.dealer_since,
                due_name=names[due.dealer],
                next_at=nxt.since,
                next_name=names[nxt.dealer],
                waiting_name=waiting.get(table.pk, ""),
                overdue=late,
            )
        )
    breaks = []
    for post in rotation.posts():
        if post.dealer in dealing:
            continue
        since = max(last_off.get(post.dealer, string.started_at), string.started_at)
        if post.table is None:  # on break as the rotation has it: back on the first table when it ends
            back_at, back_table = post.until, by_pk[rotation.tables[0]].name
        else:  # due at a table already, and not there yet
            back_at, back_table = post.since, by_pk[post.table].name
        breaks.append(BreakRow(dealer_name=names[post.dealer], since=since, back_at=back_at, back_table=back_table))
    breaks.sort(key=lambda row: row.since)
    return StringView(
        string=string,
        pattern_text=text,
        push_minutes=int(every.total_seconds() // 60),
        tables=tuple(rows),
        breaks=tuple(breaks),
        dealer_names=tuple(names[d.pk] for d in dealers),
        alerts=tuple(alerts),
    )


def rotation_floor(*, at: dt.datetime) -> FloorRotation:
    """Every string with its tables, dealers, breaks and alerts at ``at``; the dealers clocked in; who may be
    clocked in; the tables in no string. A fixed number of queries, whatever the floor."""
    strings = list(DealerString.objects.order_by("name"))
    places: dict[int, list[StringTable]] = defaultdict(list)
    for place in StringTable.objects.select_related("table", "table__dealer").order_by("string_id", "position"):
        places[place.string_id].append(place)
    dealers: dict[int, list[User]] = defaultdict(list)
    for row in (
        StringDealer.objects.filter(generation=F("string__generation"))
        .select_related("dealer")
        .order_by("string_id", "position")
    ):
        dealers[row.string_id].append(row.dealer)
    waiting = {
        push.table_id: push.dealer_in.get_username()
        for push in DealerPush.objects.filter(done_at__isnull=True).select_related("dealer_in")
    }
    last_off = dict(
        DealerPush.objects.filter(done_at__isnull=False, dealer_out__isnull=False)
        .values_list("dealer_out_id")
        .annotate(last=Max("done_at"))
        .values_list("dealer_out_id", "last")
    )
    views = []
    for string in strings:
        try:
            views.append(_string_view(string, places[string.pk], dealers[string.pk], waiting, last_off, at))
        except (RotationError, KeyError, ValueError, IndexError) as exc:
            views.append(StringView(string=string, pattern_text=pattern_text(string), push_minutes=0, problem=str(exc)))
    tables_dealt = {
        dealer_id: name
        for dealer_id, name in Table.objects.filter(dealer__isnull=False).values_list("dealer_id", "name")
    }
    clocks = list(DealerClockIn.objects.filter(clocked_out_at__isnull=True).select_related("dealer"))
    clocked_ids = {clock.dealer_id for clock in clocks}
    choices = tuple(
        User.objects.filter(groups__name=Role.DEALER.value, is_active=True)
        .exclude(pk__in=clocked_ids)
        .order_by("username")
    )
    free_tables = tuple(Table.objects.filter(string_place__isnull=True).order_by("name"))
    return FloorRotation(
        strings=tuple(views),
        clocked_in=tuple(
            ClockedIn(dealer=c.dealer, since=c.clocked_in_at, where=tables_dealt.get(c.dealer_id, "")) for c in clocks
        ),
        clock_in_choices=choices,
        free_tables=free_tables,
        alerts=tuple(alert for view in views for alert in view.alerts),
    )


@dataclass(frozen=True)
class ReliefLine:
    """What a table's tablet says of its rotation: who relieves its dealer and when, and a push waiting."""

    at: dt.datetime
    dealer_name: str
    waiting_name: str


def table_relief(*, table: Table, at: dt.datetime) -> ReliefLine | None:
    """The relief line of ``table``'s tablet ("relief at 14:40: Lee"), or None outside a started string: one
    query."""
    waiting = DealerPush.objects.filter(table_id=OuterRef("string__string_tables__table_id"), done_at__isnull=True)
    count = StringTable.objects.filter(string_id=OuterRef("string_id")).values("string_id")
    rows = list(
        StringDealer.objects.filter(
            string__string_tables__table=table, string__started_at__isnull=False, generation=F("string__generation")
        )
        .select_related("dealer", "string")
        .annotate(
            place=F("string__string_tables__position"),
            tables=Subquery(count.annotate(n=Count("pk")).values("n")[:1]),
            waiting=Subquery(waiting.values("dealer_in__username")[:1]),
        )
        .order_by("position")
    )
    if not rows:
        return None
    first = rows[0]
    string = first.string
    assert string.started_at is not None
    n = first.tables
    try:
        rotation = rotation_at(
            tables=list(range(1, n + 1)),
            dealers=[row.dealer for row in rows],
            started_at=string.started_at,
            push_every=string_pattern(string).push_every(n),
            at=at,
        )
        nxt = rotation.next_at_table(first.place)
    except (RotationError, ValueError):
        return None
    return ReliefLine(at=nxt.since, dealer_name=nxt.dealer.get_username(), waiting_name=first.waiting or "")


@dataclass(frozen=True)
class DealerNext:
    """A dealer's post in their string's rotation, as their tablet's home shows it."""

    string_name: str
    dealing: str  # the table they deal now, or ""
    tap_in: Table | None  # the table they may tap in at now
    next_table: str  # where the rotation puts them next
    next_at: dt.datetime
    on_break_until: dt.datetime | None


def dealer_next(*, dealer: User, at: dt.datetime) -> DealerNext | None:
    """Where ``dealer`` is due in their string (a started one, its latest start), or None outside every string."""
    mine = (
        StringDealer.objects.filter(dealer=dealer, generation=F("string__generation"), string__started_at__isnull=False)
        .select_related("string")
        .first()
    )
    if mine is None:
        return None
    string = mine.string
    assert string.started_at is not None
    tables = [p.table for p in string.string_tables.select_related("table").order_by("position")]
    dealers = [d.dealer_id for d in string.string_dealers.filter(generation=string.generation).order_by("position")]
    try:
        rotation = rotation_at(
            tables=[t.pk for t in tables],
            dealers=dealers,
            started_at=string.started_at,
            push_every=string_pattern(string).push_every(len(tables)),
            at=at,
        )
    except RotationError:
        return None
    by_pk = {t.pk: t for t in tables}
    dealing = next((t for t in tables if t.dealer_id == dealer.pk), None)
    now = rotation.post_of(dealer.pk)
    upcoming = rotation.next_post_of(dealer.pk)
    tap_in = None
    if dealing is None:
        # Where the rotation has them now, unless their relief there already took over (early); else where it has
        # them next, from a few minutes before.
        if now.table is not None and by_pk[now.table].dealer_id != rotation.next_at_table(now.table).dealer:
            tap_in = by_pk[now.table]
        elif upcoming.table is not None and at >= upcoming.since - TAP_IN_EARLY:
            tap_in = by_pk[upcoming.table]
    elif now.table is not None and now.table != dealing.pk:
        tap_in = None  # relieved at their table first
    if tap_in is not None:
        target = now if tap_in.pk == now.table else upcoming
    elif dealing is not None and now.table is not None and now.table != dealing.pk:
        target = now  # due at another table already: their relief is late
    else:
        target = upcoming
    next_table = by_pk[target.table].name if target.table is not None else ""
    return DealerNext(
        string_name=string.name,
        dealing=dealing.name if dealing is not None else "",
        tap_in=tap_in,
        next_table=next_table,
        next_at=target.since if target.table is not None else target.until,
        on_break_until=now.until if now.table is None and dealing is None else None,
    )
