"""The game-math lab's tests share these: a run played here as the workers would, the start form as the page draws
it and sent, a signed-in client, the default Pai Gow Poker rules, and a data file holding none of Pai Gow Poker's
counts."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from rules import edges
from rules.lab_services import lab_chunk_count, lab_chunk_play, lab_run_play
from rules.models import LabRun, RuleSet
from rules.options import PAIGOW_POKER
from rules.services import rule_set_default


def played(run_id: int) -> LabRun:
    """A run taken and every one of its chunks played here, as the workers would (the task's outbox messages are
    not delivered inside a test's transaction)."""
    run = lab_run_play(run_id=run_id)
    for index in range(lab_chunk_count(run)):
        lab_chunk_play(run_id=run_id, index=index)
    return LabRun.objects.get(pk=run_id)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form_of(page: str) -> dict[str, str]:
    """The start form as the page draws it: every option at its shown value, the one-time key."""
    form: dict[str, str] = {}
    start = page.index('class="lab-start"')
    html = page[start : page.index("</form>", start)]
    for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html):
        form[name] = value
    for name, value in re.findall(
        r'<input type="text" inputmode="numeric" id="[\w-]+" name="(\w+)" value="([^"]*)"', html
    ):
        form[name] = value
    for name in re.findall(r'<input type="checkbox" id="\w+" name="(\w+)" checked', html):
        form[name] = "on"
    for name, body in re.findall(r'<select id="(opt_\w+)" name="\w+">(.*?)</select>', html, flags=re.S):
        form[name] = re.search(r'<option value="([^"]*)" selected', body).group(1)  # type: ignore[union-attr]
    return form


def start(client: Client, capture: Callable[..., Any], rule_set: RuleSet, **changes: str) -> tuple[Any, dict[str, str]]:
    """The start form sent as the page draws it, with ``changes``; the run's tasks run as the form's transaction
    commits."""
    form = form_of(client.get(f"/pit/lab/?rule_set={rule_set.pk}").content.decode())
    form.update(changes)
    with capture(execute=True):
        response = client.post("/pit/lab/start/", form)
    return response, form


@pytest.fixture
def pgp_rules() -> RuleSet:
    return rule_set_default(game=PAIGOW_POKER)


@pytest.fixture
def nothing_shipped(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As for a house way added after the data file was written: the file holds none of Pai Gow Poker's options."""
    shipped = edges.read_counts()
    monkeypatch.setattr(edges, "_shipped_counts", lambda: {k: v for k, v in shipped.items() if k[0] != PAIGOW_POKER})
    edges._shipped_edges.cache_clear()
    edges._LAB_FOUND.clear()
    yield
    edges._shipped_edges.cache_clear()
    edges._LAB_FOUND.clear()
