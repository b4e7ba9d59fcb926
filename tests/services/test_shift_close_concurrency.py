"""On PostgreSQL, a shift close and a round's write never cross (service-backed): a write under way
holds its shift's row shared, so the close waits for it, and a write that comes during a close waits for the
close and finds the shift closed. No money can post after its shift's report was built.

Paula, the Pit boss, corrects a settled round (one-supervisor room, so at once) while Fred, a Floor supervisor,
closes the shift.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from casino.errors import WrongState
from casino.models import Shift
from casino.services import shift_close
from ledger.models import Posting
from rounds.models import Round
from settlement.services import correct_round, settle_round
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS, pgp_table, play_to_hands  # noqa: F401  (fixtures)


@pytest.fixture
def settled(shift, dealer, pgp_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]  # noqa: F811
    round_ = play_to_hands(
        pgp_table, wagers={1: 2500, 2: 1000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
    )
    settle_round(round=round_, actor=dealer, idempotency_key="settle-1")
    return Round.objects.get(pk=round_.pk)


@pytest.mark.usefixtures("real_services")
def test_a_shift_close_waits_for_a_correction_under_way_and_lands_after_it(
    transactional_db, settings, settled, shift, pit_boss, floor_supervisor
) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_FOUR_EYES = False
    corrected, release = threading.Event(), threading.Event()
    closed_at: list[float] = []
    errors: list[BaseException] = []

    def correct() -> None:
        try:
            with transaction.atomic():
                correct_round(
                    actor=pit_boss,
                    round=settled,
                    hands={"banker": BANK, "seats": {"1": WINS, "2": PUSHES}},
                    reason="Seat 2 misread",
                    idempotency_key="fix-1",
                )
                corrected.set()
                release.wait(10)  # the correction's transaction stays open, its locks held
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    def close() -> None:
        try:
            shift_close(actor=floor_supervisor, shift=shift)
            closed_at.append(time.monotonic())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    corrector = threading.Thread(target=correct)
    corrector.start()
    assert corrected.wait(10)
    closer = threading.Thread(target=close)
    closer.start()
    time.sleep(0.5)
    assert closed_at == []  # the close waits for the correction's transaction
    released = time.monotonic()
    release.set()
    corrector.join(10)
    closer.join(10)

    assert errors == []
    assert closed_at and closed_at[0] >= released
    closed = Shift.objects.get(pk=shift.pk).closed_at
    correction = Posting.objects.get(round_id=settled.pk, kind="settlement", reversed_by__isnull=True)
    assert correction.corrects_id is not None and correction.created_at < closed


@pytest.mark.usefixtures("real_services")
def test_a_round_write_during_a_close_waits_and_finds_the_shift_closed(
    transactional_db, settings, settled, shift, pit_boss, floor_supervisor
) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_FOUR_EYES = False
    closing, release = threading.Event(), threading.Event()
    outcome: list[BaseException | str] = []

    def close() -> None:
        try:
            with transaction.atomic():
                shift_close(actor=floor_supervisor, shift=shift)
                closing.set()
                release.wait(10)
        finally:
            connection.close()

    def correct() -> None:
        try:
            correct_round(
                actor=pit_boss,
                round=settled,
                hands={"banker": BANK, "seats": {"1": WINS, "2": PUSHES}},
                reason="Seat 2 misread",
                idempotency_key="fix-1",
            )
            outcome.append("corrected")
        except BaseException as exc:  # noqa: BLE001 - the refusal is the point
            outcome.append(exc)
        finally:
            connection.close()

    closer = threading.Thread(target=close)
    closer.start()
    assert closing.wait(10)
    corrector = threading.Thread(target=correct)
    corrector.start()
    time.sleep(0.5)
    assert outcome == []  # the correction waits for the close's transaction
    release.set()
    closer.join(10)
    corrector.join(10)

    assert len(outcome) == 1 and isinstance(outcome[0], WrongState)
    assert str(outcome[0].message) == "The Day shift is closed: this round can no longer change."
    assert not Posting.objects.filter(round_id=settled.pk, kind="reversal").exists()
