"""What ``verify_ledger`` holds of the rounds and of every posting: every round comes back to zero on the layout,
every reversal and void undoes what it undoes, and every posting and wager is what its audit event recorded.

``rounds_ledger_check`` is registered with the ledger's verifier (``ledger.verify``) by ``settlement.apps``.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Sum

from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.records import subject_type
from ledger.lines import lines_text
from ledger.models import LedgerEntry, Posting
from ledger.verify import Findings
from rounds.models import HouseWager, Round, Wager
from rounds.snapshots import round_snapshot
from rounds.states import RoundState
from rules import options as rule_options
from tables.models import Seat


def _key(entry: Mapping[str, Any]) -> tuple[str, int | None, int]:
    return (entry["account"], entry["seat_id"], entry["amount_cents"])


def rounds_ledger_check(rounds: Collection[int] | None) -> Findings:
    """Hold the rounds' postings to the rounds and to each other; say what does not hold.

    * every reversal (and every void) matches the entries it undoes, line for line, negated;
    * a round's chips on the layout (``wagers``) equal its wagers while it is in play and
      are back to zero once it is settled or voided;
    * a settled round has exactly one settlement in force (not reversed), a voided or
      unfinished round none, and every wager of a banked round was posted;
    * every posting and every wager is the one the audit event that caused it recorded, line for line
      (``ledger_audit_check``);
    * every round is as the chain of its audit events left it (``round_audit_check``).
    """
    problems: list[str] = []
    postings = Posting.objects.all()
    if rounds is not None:
        postings = postings.filter(round_id__in=list(rounds))
    kinds = list(postings.values_list("pk", "round_id", "kind", "reverses_id").order_by("pk"))
    entries = LedgerEntry.objects.all() if rounds is None else LedgerEntry.objects.filter(round_id__in=list(rounds))
    by_posting: dict[int, Counter[tuple[str, int | None, int]]] = defaultdict(Counter)
    for entry in entries.values("posting_id", "account", "seat_id", "amount_cents"):
        by_posting[entry["posting_id"]][_key(entry)] += 1
    wager_postings = defaultdict(list)
    for pk, round_id, kind, _reverses in kinds:
        if kind == Posting.Kind.WAGER:
            wager_postings[round_id].append(pk)
    for pk, round_id, kind, reverses_id in kinds:
        if kind == Posting.Kind.REVERSAL:
            undone = [reverses_id]
        elif kind == Posting.Kind.VOID:
            undone = wager_postings[round_id]
        else:
            continue
        expected: Counter[tuple[str, int | None, int]] = Counter()
        for original in undone:
            for (account, seat, amount), count in by_posting[original].items():
                expected[(account, seat, -amount)] += count
        if by_posting[pk] != expected:
            problems.append(
                f"{kind.capitalize()} posting {pk} on round id {round_id} "
                f"does not undo posting(s) {', '.join(map(str, undone))} line for line."
            )
    round_rows = Round.objects.all() if rounds is None else Round.objects.filter(pk__in=list(rounds))
    layouts: dict[int | None, int] = dict(
        entries.filter(account="wagers")
        .values("round_id")
        .annotate(total=Sum("amount_cents"))
        .order_by()
        .values_list("round_id", "total")
    )
    round_rows = round_rows.select_related("table").order_by("pk")
    in_force = Counter(
        postings.filter(kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True).values_list("round_id", flat=True)
    )
    voids = Counter(postings.filter(kind=Posting.Kind.VOID).values_list("round_id", flat=True))
    staked = dict(
        Round.objects.filter(pk__in=[r.pk for r in round_rows])
        .annotate(staked=Sum("wagers__amount_cents"))
        .values_list("pk", "staked")
    )
    # The house's wager against a player bank is on the layout with the seats'.
    house_wagers = HouseWager.objects.all() if rounds is None else HouseWager.objects.filter(round_id__in=list(rounds))
    for round_id, amount in house_wagers.values_list("round_id", "amount_cents"):
        staked[round_id] = (staked.get(round_id) or 0) + amount
    counted = 0
    for round_ in round_rows:
        counted += 1
        name = f"Round {round_.number} at table {round_.table.name}"
        layout = layouts.get(round_.pk) or 0
        frozen = round_.rule_set_snapshot if isinstance(round_.rule_set_snapshot, Mapping) else {}
        banked = frozen.get("banking_mode") != "none"
        if round_.state in (RoundState.SETTLED, RoundState.VOIDED):
            if layout != 0:
                problems.append(f"{name} is {round_.state} but {layout} cents are still on the layout.")
        elif banked and layout != (staked.get(round_.pk) or 0):
            problems.append(
                f"{name} holds {staked.get(round_.pk) or 0} cents of wagers but {layout} cents on the layout."
            )
        settled = in_force[round_.pk]
        if round_.state == RoundState.SETTLED and settled != 1:
            problems.append(f"{name} is settled but has {settled} settlements in force (one expected).")
        if round_.state != RoundState.SETTLED and settled:
            problems.append(f"{name} is {round_.state} but has a settlement in force.")
        if round_.state == RoundState.VOIDED and banked and staked.get(round_.pk) and voids[round_.pk] != 1:
            problems.append(f"{name} is voided but its wagers were not returned by one void posting.")
    problems.extend(ledger_audit_check(rounds=rounds))
    problems.extend(round_audit_check(rounds=rounds))
    return Findings(problems=tuple(problems), counted={"rounds": counted})


# The events that move money, each naming the postings it wrote (``posting_record``).
MONEY_EVENTS = (
    AuditEventType.WAGER_PLACED,
    AuditEventType.HOUSE_WAGER_PLACED,
    AuditEventType.ROUND_SETTLED,
    AuditEventType.ROUND_VOIDED,
    AuditEventType.SETTLEMENT_CORRECTED,
    # The table's money: a slip's second signature (received), a buy-in, the count that makes a box final.
    AuditEventType.SLIP_SIGNED,
    AuditEventType.BUY_IN_RECORDED,
    AuditEventType.BUY_IN_VOIDED,
    AuditEventType.DROP_COUNTED,
    # The poker room: a payment, a player out (a prize, a bounty), a bust undone, the pool made final.
    AuditEventType.TOURNAMENT_PURCHASE,
    AuditEventType.TOURNAMENT_ELIMINATION,
    AuditEventType.TOURNAMENT_ELIMINATION_UNDONE,
    AuditEventType.TOURNAMENT_POOL_LOCKED,
    # Credit at the table: a marker counted into the receivable, redeemed, its cheque returned.
    AuditEventType.MARKER_COUNTED,
    AuditEventType.MARKER_REDEEMED,
    AuditEventType.MARKER_CHEQUE_RETURNED,
)

_Lines = Counter[tuple[str, int | None, int, str]]


@dataclass(frozen=True)
class _Recorded:
    """A posting as its audit event recorded it."""

    seq: int
    actor_id: int | None
    kind: str
    lines: _Lines
    hands: Any  # a settlement's: the hands the event recorded it settling


@dataclass(frozen=True)
class _WagerRecorded:
    seq: int
    actor_id: int | None
    amount: Any
    round_id: Any
    seat: Any


def _line(line: Any) -> tuple[str, int | None, int, str]:
    """One recorded line, checked: (account, seat number or None, cents, kind); ValueError if it is not one."""
    if not isinstance(line, list | tuple) or len(line) != 4:
        raise ValueError(f"a line is [account, seat, cents, kind], not {line!r}")
    account, seat, amount, kind = line
    if not (isinstance(account, str) and isinstance(kind, str) and type(amount) is int):
        raise ValueError(f"a line is [account, seat, cents, kind], not {line!r}")
    if seat is not None and type(seat) is not int:
        raise ValueError(f"a line's seat is a number, not {seat!r}")
    return account, seat, amount, kind


def _postings_recorded(after: Any) -> list[tuple[int, str, _Lines]]:
    """The postings a money event recorded (``posting_record``), checked; ValueError if they are not so written."""
    if not isinstance(after, Mapping):
        return []
    found = after.get("postings")
    if found is None:
        money = after.get("money")
        if money is not None and not isinstance(money, Mapping):
            raise ValueError("its money is not a record")
        found = (money or {}).get("postings")
    if found is None:
        return []
    if not isinstance(found, list):
        raise ValueError("its postings are not a list")
    postings = []
    for posting in found:
        if (
            not isinstance(posting, Mapping)
            or type(posting.get("id")) is not int
            or not isinstance(posting.get("lines"), list)
        ):
            raise ValueError(f"a posting is recorded as {{id, kind, lines}}, not {posting!r}")
        postings.append((posting["id"], str(posting.get("kind")), Counter(_line(line) for line in posting["lines"])))
    return postings


def _as_recorded(event: _Recorded, kind: str, lines: _Lines, actor_id: int | None, hands: Any) -> bool:
    """Whether a stored posting is what its event recorded (its kind, lines, actor and a settlement's hands)."""
    return (
        event.kind == kind
        and event.lines == lines
        and event.actor_id == actor_id
        and (event.hands is None or event.hands == hands)
    )


def _gone(
    recorded: Mapping[int, Any], seen: set[int], model: type[Posting] | type[Wager], *, scoped: bool
) -> list[int]:
    """The ids events recorded that the rows read did not hold: gone from the ledger (when only some rounds were
    read, those the table still holds elsewhere are not gone)."""
    missing = [pk for pk in recorded if pk not in seen]
    if scoped and missing:
        missing = list(set(missing) - set(model.objects.filter(pk__in=missing).values_list("pk", flat=True)))
    return sorted(missing)


def ledger_audit_began() -> tuple[int, int]:
    """The last posting id and wager id written before money movements were audited, as the
    chain recorded them when the upgrade ran (``AuditEventType.LEDGER_AUDIT_BEGAN``): (0, 0) on a floor that
    was audited from its first posting. Only rows with ids from 1 up to these may lack an event."""
    after = (
        AuditEvent.objects.filter(event_type=AuditEventType.LEDGER_AUDIT_BEGAN)
        .order_by("seq")
        .values_list("after", flat=True)
        .first()
    )
    if not isinstance(after, Mapping):
        return 0, 0
    postings, wagers = after.get("postings_before"), after.get("wagers_before")
    return (postings if type(postings) is int else 0), (wagers if type(wagers) is int else 0)


def ledger_audit_check(*, rounds: Iterable[int] | None = None) -> list[str]:
    """Hold the ledger and the wagers to the audit events that wrote them; say what differs.

    Each money event (``MONEY_EVENTS``) records the postings it wrote, line for line, and a wager's event
    its amount, round and seat; the event's actor is the posting's and the wager's. A posting or a wager with
    no event, an event whose posting or wager is gone, and entries, hands, an amount, a round, a seat or an
    actor that are not what the event recorded are each named, and so is an event whose money is not written
    as Tableside writes it. Only postings and wagers written before money was audited (``ledger_audit_began``)
    may lack an event.
    """
    round_ids = None if rounds is None else set(rounds)
    problems: list[str] = []
    recorded: dict[int, _Recorded] = {}
    wager_events: dict[int, _WagerRecorded] = {}
    for seq, event_type, subject_id, actor_id, after in (
        AuditEvent.objects.filter(event_type__in=[e.value for e in MONEY_EVENTS])
        .order_by("seq")
        .values_list("seq", "event_type", "subject_id", "actor_id", "after")
        .iterator(chunk_size=5000)
    ):
        try:
            postings = _postings_recorded(after)
        except ValueError as exc:
            problems.append(
                f"Audit event #{seq} ({event_type}) does not record its money as Tableside writes it: {exc}."
            )
            continue
        if event_type == AuditEventType.WAGER_PLACED:
            if not (isinstance(after, Mapping) and subject_id.isdigit()):
                problems.append(f"Audit event #{seq} (wager.placed) does not name its wager and amount.")
                continue
            wager_events[int(subject_id)] = _WagerRecorded(
                seq, actor_id, after.get("amount_cents"), after.get("round"), after.get("seat")
            )
        # A settlement's event records the hands it settled (the round's, or the correction's): the replay
        # recomputes the settlement from the posting's own copy, which must be the same.
        settled_hands = after.get("hands") if isinstance(after, Mapping) else None
        for posting_id, kind, lines in postings:
            hands = settled_hands if kind == Posting.Kind.SETTLEMENT else None
            recorded[posting_id] = _Recorded(seq, actor_id, kind, lines, hands)
    postings_before, wagers_before = ledger_audit_began()
    numbers = dict(Seat.objects.values_list("pk", "number"))
    postings_rows, entries, wagers = Posting.objects.all(), LedgerEntry.objects.all(), Wager.objects.all()
    if round_ids is not None:
        postings_rows, entries, wagers = (
            postings_rows.filter(round_id__in=round_ids),
            entries.filter(round_id__in=round_ids),
            wagers.filter(round_id__in=round_ids),
        )
    found: dict[int, _Lines] = defaultdict(Counter)
    for posting_id, account, seat_id, amount, kind in entries.values_list(
        "posting_id", "account", "seat_id", "amount_cents", "kind"
    ).iterator(chunk_size=5000):
        found[posting_id][(account, numbers.get(seat_id) if seat_id else None, amount, kind)] += 1
    seen: set[int] = set()
    for pk, kind_stored, round_id, hands, actor_id in (
        postings_rows.order_by("pk")
        .values_list("pk", "kind", "round_id", "hands", "actor_id")
        .iterator(chunk_size=2000)
    ):
        seen.add(pk)
        event = recorded.get(pk)
        if event is None:
            if not 0 < pk <= postings_before:
                problems.append(f"{_posting_name(pk, kind_stored, round_id)} has no audit event: it was not written "
                                "by Tableside's services.")  # fmt: skip
            continue
        name = (
            _posting_name(pk, kind_stored, round_id)
            if not _as_recorded(event, kind_stored, found[pk], actor_id, hands)
            else ""
        )
        if event.kind != kind_stored:
            problems.append(f"{name} is recorded as a {event.kind} posting by audit event #{event.seq}.")
        if found[pk] != event.lines:
            problems.append(
                f"{name} does not hold the entries audit event #{event.seq} recorded: "
                f"recorded {lines_text(event.lines - found[pk])}, found {lines_text(found[pk] - event.lines)}."
            )
        if event.actor_id != actor_id:
            problems.append(f"{name} names another actor than audit event #{event.seq}, which recorded it.")
        if event.hands is not None and event.hands != hands:
            problems.append(
                f"{name} does not hold the hands audit event #{event.seq} recorded settling: they were changed "
                "after the settlement."
            )
    for posting_id in _gone(recorded, seen, Posting, scoped=round_ids is not None):
        event = recorded[posting_id]
        problems.append(
            f"Audit event #{event.seq} recorded {event.kind} posting {posting_id}, which the ledger no longer holds."
        )
    seen_wagers: set[int] = set()
    for pk, amount_stored, round_id, seat_id, placed_by in (
        wagers.order_by("pk")
        .values_list("pk", "amount_cents", "round_id", "seat_id", "placed_by_id")
        .iterator(chunk_size=5000)
    ):
        seen_wagers.add(pk)
        seat = numbers.get(seat_id)
        wager_event = wager_events.get(pk)
        if wager_event is None:
            if not 0 < pk <= wagers_before:
                problems.append(f"{_wager_name(pk, round_id, seat)} has no audit event: it was not taken by "
                                "Tableside's services.")  # fmt: skip
            continue
        if wager_event.amount != amount_stored:
            problems.append(
                f"{_wager_name(pk, round_id, seat)} holds {amount_stored} cents, but audit event "
                f"#{wager_event.seq} recorded {wager_event.amount} cents taken."
            )
        if (wager_event.round_id, wager_event.seat) != (round_id, seat):
            problems.append(
                f"{_wager_name(pk, round_id, seat)} is not where audit event #{wager_event.seq} recorded it taken: "
                f"seat {wager_event.seat} of round id {wager_event.round_id}."
            )
        if wager_event.actor_id != placed_by:
            problems.append(
                f"{_wager_name(pk, round_id, seat)} names another dealer than audit event #{wager_event.seq}."
            )
    for pk in _gone(wager_events, seen_wagers, Wager, scoped=round_ids is not None):
        problems.append(
            f"Audit event #{wager_events[pk].seq} recorded wager id {pk} taken, which the ledger no longer holds."
        )
    return problems


def _differing(recorded: Any, stored: Mapping[str, Any]) -> list[str]:
    """The fields a round's recorded state and another state of it disagree on (those both hold; not the money)."""
    if not isinstance(recorded, Mapping):
        return ["the whole record (the event does not hold a round's state)"]
    return sorted(k for k in recorded.keys() & stored.keys() if k != "money" and recorded[k] != stored[k])


def round_audit_check(*, rounds: Iterable[int] | None = None, chunk_size: int = 2000) -> list[str]:
    """Hold every round to the chain of its audit events; say where a round was changed outside the services.

    ``round_transition`` records a round's state before and after each change: each event's ``before``
    must be the previous event's ``after``, and the round as stored must be its last event's ``after``
    (``rounds.snapshots.round_snapshot``). A change made in the database between two events, or after
    the last (hands swapped before the settle, a round voided or moved to another shift by SQL), shows as the
    fields that differ. Rounds are read a chunk at a time, with their events.
    """
    problems: list[str] = []
    subject = subject_type(Round)
    audited_rules = _rules_audited()
    rows = Round.objects.select_related("table", "bank_seat").order_by("pk")
    if rounds is not None:
        rows = rows.filter(pk__in=list(rounds))
    last_pk = 0
    while True:
        chunk = list(rows.filter(pk__gt=last_pk)[:chunk_size])
        if not chunk:
            return problems
        last_pk = chunk[-1].pk
        last: dict[str, tuple[int, Any]] = {}
        for seq, subject_id, before, after in (
            AuditEvent.objects.filter(subject_type=subject, subject_id__in=[str(r.pk) for r in chunk])
            .order_by("seq")
            .values_list("seq", "subject_id", "before", "after")
        ):
            previous = last.get(subject_id)
            if previous is not None and before is not None:
                changed = _differing(previous[1], before) if isinstance(before, Mapping) else ["the whole record"]
                if changed:
                    problems.append(
                        f"Round id {subject_id} was changed outside Tableside's services between audit events "
                        f"#{previous[0]} and #{seq}: {', '.join(changed)}."
                    )
            last[subject_id] = (seq, after)
        for round_ in chunk:
            name = round_label(round_)
            recorded = last.get(str(round_.pk))
            if recorded is None:
                problems.append(f"{name} has no audit event: it was not opened by Tableside's services.")
                continue
            try:
                stored = round_snapshot(round_)
            except (KeyError, TypeError):
                problems.append(f"{name} holds a frozen rule set that is not one (no version).")
                continue
            changed = _differing(recorded[1], stored)
            if changed:
                problems.append(
                    f"{name} is not as its last audit event #{recorded[0]} left it: {', '.join(changed)} differ."
                )
            problem = _rules_problem(round_.rule_set_snapshot, audited_rules)
            if problem:
                problems.append(f"{name} was played under {problem}")


def _rules_audited() -> tuple[set[tuple[Any, Any]], set[Any]]:
    """The (rule set id, version) pairs the chain recorded a rule set holding (its creations and changes,
    before and after), and the rule sets it never recorded created (the defaults a migration made)."""
    pairs: set[tuple[Any, Any]] = set()
    created: set[Any] = set()
    for event_type, before, after in AuditEvent.objects.filter(
        event_type__in=[AuditEventType.RULE_SET_CREATED, AuditEventType.RULE_SET_UPDATED]
    ).values_list("event_type", "before", "after"):
        for state in (before, after):
            if isinstance(state, Mapping):
                pairs.add((state.get("rule_set_id"), state.get("version")))
        if event_type == AuditEventType.RULE_SET_CREATED and isinstance(after, Mapping):
            created.add(after.get("rule_set_id"))
    return pairs, created


@functools.cache
def _default_rules_versions(game: str) -> frozenset[str]:
    """The versions of a game's rules at their defaults (what the migration's default rule sets hold): today's, and
    the defaults before the options added since (``rules.options.OPTIONS_ADDED_LATER``), which rounds played
    before those options existed froze."""
    settings = rule_options.rule_set_validate(game=game, common={}, options={})
    later = rule_options.OPTIONS_ADDED_LATER.get(game, ())
    before = {**settings, "options": {k: v for k, v in settings["options"].items() if k not in later}}
    return frozenset(
        str(rule_options.snapshot_build(rule_set_id=None, name="", game=game, settings=s)["version"])
        for s in (settings, before)
    )


def _rules_problem(snapshot: Any, audited: tuple[set[tuple[Any, Any]], set[Any]]) -> str:
    """What is wrong with the rules a round was played under ("" if nothing): they must be what their version
    says, and a version of their rule set the chain recorded (or, for a rule set made by a migration, its
    defaults)."""
    pairs, created = audited
    try:
        settings = {**{f: snapshot[f] for f in rule_options.COMMON_FIELDS}, "options": snapshot["options"]}
        rebuilt = rule_options.snapshot_build(
            rule_set_id=snapshot["rule_set_id"], name=snapshot["name"], game=snapshot["game"], settings=settings
        )
        default_versions = _default_rules_versions(snapshot["game"])
    except (LookupError, TypeError, ValueError, AttributeError):
        return "frozen rules that are not a rule set's snapshot."
    version, rule_set = snapshot["version"], snapshot["rule_set_id"]
    if rebuilt["version"] != version:
        return f"frozen rules whose content is not their version {str(version)[:12]}…: they were altered."
    if (rule_set, version) in pairs or (rule_set not in created and version in default_versions):
        return ""
    return (
        f"rules no audit event recorded (rule set id {rule_set}, version {str(version)[:12]}…): the rule set "
        "was changed outside Tableside's services."
    )


def round_label(round_: Round) -> str:
    """How the checks name a round: ``Round 3 at table PGP-1 (round id 42)``."""
    return f"Round {round_.number} at table {round_.table.name} (round id {round_.pk})"


def _round_name(round_id: int) -> str:
    found = Round.objects.filter(pk=round_id).values_list("number", "table__name").first()
    return f"round {found[0]} at table {found[1]}" if found else "a round that no longer exists"


def _posting_name(pk: int, kind: str, round_id: int | None) -> str:
    """How a problem names a posting (read only for the postings that have one)."""
    if round_id is None:
        return f"{Posting.Kind(kind).label.capitalize()} posting {pk} of the table's money"
    return f"{Posting.Kind(kind).label.capitalize()} posting {pk} on {_round_name(round_id)} (round id {round_id})"


def _wager_name(pk: int, round_id: int, seat: int | None) -> str:
    return f"The wager on seat {seat} of {_round_name(round_id)} (wager id {pk})"
