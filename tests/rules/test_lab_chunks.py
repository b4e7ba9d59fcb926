"""A lab run is played in chunks any worker may take: the counts of a seed do not depend on who played which chunk or
in what order; a chunk delivered twice is played once; a chunk lost with its worker leaves the run running until
the chunk is delivered again, then the run finishes with the same counts."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from casino.events import AuditEventType
from casino.models import AuditEvent
from rules.lab_services import lab_chunk_count, lab_chunk_hands, lab_chunk_play, lab_run_play, lab_run_start
from rules.models import LabChunk, LabRun, RuleSet
from rules.options import PAIGOW_POKER
from rules.services import rule_set_default

HANDS = 60_000


@pytest.fixture
def pgp_rules(db: None) -> RuleSet:
    return rule_set_default(game=PAIGOW_POKER)


def _taken(rule_set: RuleSet, actor: User, *, seed: int) -> LabRun:
    run = lab_run_start(actor=actor, rule_set=rule_set, hands=HANDS, seed=seed, request_key=uuid.uuid4().hex)
    return lab_run_play(run_id=run.pk)


def _counts(run: LabRun) -> tuple[int, int, int, int]:
    run.refresh_from_db()
    return run.hands_done, run.wins, run.pushes, run.losses


@pytest.mark.django_db
def test_the_counts_of_a_seed_do_not_depend_on_the_order_its_chunks_are_played(
    pgp_rules: RuleSet, floor_supervisor: User
) -> None:
    first = _taken(pgp_rules, floor_supervisor, seed=42)
    chunks = lab_chunk_count(first)
    assert chunks == -(-HANDS // lab_chunk_hands(HANDS)) and chunks > 2
    for index in range(chunks):
        lab_chunk_play(run_id=first.pk, index=index, worker="w1")
    second = _taken(pgp_rules, floor_supervisor, seed=42)
    for index in reversed(range(chunks)):  # another worker, the other way round
        lab_chunk_play(run_id=second.pk, index=index, worker="w2")
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == second.status == LabRun.Status.FINISHED
    assert _counts(first) == _counts(second) and _counts(first)[0] == HANDS
    assert first.series == second.series and first.series[-1] == list(_counts(first))
    other = _taken(pgp_rules, floor_supervisor, seed=43)
    for index in range(chunks):
        lab_chunk_play(run_id=other.pk, index=index)
    assert _counts(other) != _counts(first)  # another seed, other hands
    finished = AuditEvent.objects.filter(event_type=AuditEventType.LAB_RUN_FINISHED, subject_id=str(first.pk)).get()
    assert finished.after == {
        "hands": HANDS,
        "wins": first.wins,
        "pushes": first.pushes,
        "losses": first.losses,
        "chunks": chunks,
    }


@pytest.mark.django_db
def test_a_chunk_delivered_twice_is_played_once_and_a_lost_one_is_waited_for(
    pgp_rules: RuleSet, floor_supervisor: User
) -> None:
    run = _taken(pgp_rules, floor_supervisor, seed=7)
    chunks = lab_chunk_count(run)
    lost = chunks // 2
    for index in range(chunks):
        if index != lost:  # its worker died mid-chunk: nothing recorded
            lab_chunk_play(run_id=run.pk, index=index)
    lab_chunk_play(run_id=run.pk, index=0)  # a chunk's task delivered again
    run.refresh_from_db()
    assert run.status == LabRun.Status.RUNNING and LabChunk.objects.filter(run=run).count() == chunks - 1
    assert run.hands_done == HANDS - lab_chunk_hands(HANDS)
    lab_chunk_play(run_id=run.pk, index=lost)  # the broker delivers the lost chunk again
    run.refresh_from_db()
    assert run.status == LabRun.Status.FINISHED and run.hands_done == HANDS
    again = _taken(pgp_rules, floor_supervisor, seed=7)
    for index in range(chunks):
        lab_chunk_play(run_id=again.pk, index=index)
    assert _counts(again) == _counts(run)
    running = _taken(pgp_rules, floor_supervisor, seed=8)
    with pytest.raises(ValueError, match="has no chunk"):
        lab_chunk_play(run_id=running.pk, index=chunks)


@pytest.mark.django_db
def test_a_chunk_is_never_changed_or_removed(pgp_rules: RuleSet, floor_supervisor: User) -> None:
    run = _taken(pgp_rules, floor_supervisor, seed=1)
    lab_chunk_play(run_id=run.pk, index=0)
    chunk = LabChunk.objects.get(run=run, index=0)
    table = LabChunk._meta.db_table
    for statement in (f"UPDATE {table} SET wins = wins + 1 WHERE id = %s", f"DELETE FROM {table} WHERE id = %s"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, [chunk.pk])
    assert LabChunk.objects.get(pk=chunk.pk).wins == chunk.wins
