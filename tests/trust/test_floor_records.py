"""The floor of ``tests.trust.floor``: a row of every audited record, each as the audit events that wrote it say."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_the_floor_holds_a_row_of_every_audited_record_each_as_its_events_wrote_it(every_record) -> None:  # type: ignore[no-untyped-def]
    from casino.records import registered
    from casino.verify import records_verify

    missing = [r.label for r in registered() if not r.model._base_manager.exists()]
    assert missing == []
    report = records_verify()
    assert report.ok, report.problems
