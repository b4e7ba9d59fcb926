"""The lab's analysis of how the high hands are compared (Pai Gow Poker): a run whose high hands are compared by their
category and first ranks only, as the Wizard of Odds' published Trump Plaza figures imply (docs/game-math.md). It plays
the same hands as the engine asked directly, is shown for what it is on its page, is refused for tiles and out of
range in words with nothing written, and never becomes the edge a rule set's ratings use.

Celery runs eagerly here; the chunks are played in-process (``tests.pit.lab_play.played``).
"""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User

from casino.events import AuditEventType
from casino.models import AuditEvent
from rules import edges
from rules.edges import HouseEdgeUnknown, rule_set_edges
from rules.games import lab as engine
from rules.games.lab import Tally
from rules.lab_services import LabRefused, lab_chunk_count, lab_chunk_hands, lab_run_start
from rules.models import LabRun, RuleSet
from rules.options import PAIGOW_TILES
from rules.services import rule_set_default
from tests.pit.lab_play import form_of, played, signed_in, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

HANDS = 20_000


def _run(rule_set: RuleSet, actor: User, ranks: object, *, seed: int = 2026, hands: int = HANDS) -> LabRun:
    run = lab_run_start(
        actor=actor, rule_set=rule_set, hands=hands, seed=seed, high_hand_ranks=ranks, request_key=uuid.uuid4().hex
    )
    return played(run.pk)


def test_a_two_rank_run_plays_the_engines_hands_and_only_ever_moves_hands_toward_the_bank(
    pgp_rules: RuleSet, floor_supervisor: User
) -> None:
    rules = pgp_rules.snapshot()["options"]
    ranked = _run(pgp_rules, floor_supervisor, 2)
    every = _run(pgp_rules, floor_supervisor, None)
    size = lab_chunk_hands(HANDS)
    expected = Tally()
    for index in range(lab_chunk_count(ranked)):
        expected = expected + engine.simulate_paigow_poker_chunk(
            min(size, HANDS - index * size),
            seed=2026,
            index=index,
            way=rules["pgp_house_way"],
            wheel_second_highest=rules["wheel_second_highest"],
            joker_flush_as_ace=rules["joker_flush_as_ace"],
            high_hand_ranks=2,
        )
    assert (ranked.wins, ranked.pushes, ranked.losses) == (expected.wins, expected.pushes, expected.losses)
    assert ranked.status == every.status == LabRun.Status.FINISHED and ranked.hands_done == every.hands_done == HANDS
    # The same hands: equal on two ranks means a copy, so wins can only become pushes and pushes losses.
    assert ranked.wins <= every.wins and ranked.losses >= every.losses
    assert ranked.wins + ranked.pushes + ranked.losses == HANDS
    assert (ranked.wins, ranked.losses) != (every.wins, every.losses)  # 20,000 hands hold some kicker-decided highs
    started = AuditEvent.objects.get(event_type=AuditEventType.LAB_RUN_STARTED, subject_id=str(ranked.pk))
    assert started.after is not None and started.after["high_hand_ranks"] == 2
    assert '"high_hand_ranks":2' in ranked.outcome_key and "high_hand_ranks" not in every.outcome_key


@pytest.mark.usefixtures("nothing_shipped")
def test_an_analysis_run_never_gives_ratings_their_edge(
    pgp_rules: RuleSet, floor_supervisor: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(edges, "LAB_HANDS_FOR_RATINGS", HANDS)
    _run(pgp_rules, floor_supervisor, 2)
    with pytest.raises(HouseEdgeUnknown):
        rule_set_edges(pgp_rules.snapshot())
    rules_run = _run(pgp_rules, floor_supervisor, None)
    assert f"lab run {rules_run.pk}" in rule_set_edges(pgp_rules.snapshot()).source


@pytest.mark.parametrize("wrong", [0, 6, -2, "two", 2.0, True])
def test_a_comparison_out_of_range_is_refused_in_words_and_nothing_is_written(
    pgp_rules: RuleSet, floor_supervisor: User, wrong: object
) -> None:
    with pytest.raises(LabRefused, match="first 1 to 5 ranks") as refused:
        lab_run_start(
            actor=floor_supervisor, rule_set=pgp_rules, hands=HANDS, high_hand_ranks=wrong, request_key="x" * 32
        )
    assert refused.value.extra["field"] == "high_hand_ranks"
    assert not LabRun.objects.exists()


def test_tiles_have_no_ranks_to_leave_out(floor_supervisor: User) -> None:
    tiles = rule_set_default(game=PAIGOW_TILES)
    with pytest.raises(LabRefused, match="tiles hands have no ranks"):
        lab_run_start(actor=floor_supervisor, rule_set=tiles, hands=None, high_hand_ranks=2, request_key="y" * 32)
    assert not LabRun.objects.exists()


def test_the_page_offers_the_comparison_and_shows_a_run_of_it_for_what_it_is(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: object
) -> None:
    client = signed_in(floor_supervisor)
    page = client.get(f"/pit/lab/?rule_set={pgp_rules.pk}").content.decode()
    assert 'name="high_hand_ranks"' in page and "every rank, as the rules say" in page
    assert "their category and first 2 ranks only (an analysis)" in page
    form = {**form_of(page), "hands": str(HANDS), "seed": "7", "high_hand_ranks": "2"}
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = client.post("/pit/lab/start/", form)
    assert response.status_code == 302
    run = played(LabRun.objects.get().pk)
    assert run.high_hand_ranks == 2
    shown = client.get(f"/pit/lab/runs/{run.pk}/").content.decode()
    assert "high hands compared by their category and first 2 ranks only (an analysis): never a rule set" in shown
    assert "high hands by 2 ranks" in client.get("/pit/lab/").content.decode()

    for wrong in ("9", "two"):
        refused, _ = start(client, django_capture_on_commit_callbacks, pgp_rules, high_hand_ranks=wrong)
        text = refused.content.decode()
        assert refused.status_code == 400 and "first 1 to 5 ranks" in text
    assert LabRun.objects.count() == 1
