"""On PostgreSQL, fill slips asked for at once at four tables take every number once, without a gap, even when
some requests roll back (slip numbers stay gapless under concurrent requests)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from tables.models import Slip
from tables.slips import slip_numbers, slip_request


class _RolledBack(Exception):
    pass


@pytest.mark.usefixtures("real_services")
def test_four_tables_asking_at_once_leave_numbers_without_gaps(  # type: ignore[no-untyped-def]
    transactional_db, house_chips, shift, make_table, pit_boss
) -> None:
    tables = [make_table(name=f"PGP-{n}", game="paigow_poker", seat_count=6) for n in range(1, 5)]
    start = threading.Barrier(len(tables))
    errors: list[BaseException] = []

    def ask(table) -> None:  # type: ignore[no-untyped-def]
        try:
            start.wait()
            for n in range(10):
                try:
                    with transaction.atomic():
                        slip_request(actor=pit_boss, table=table, kind="fill", chips={2500: 4})
                        if n % 4 == 3:
                            raise _RolledBack  # the request fails after taking its number: it gives it back
                except _RolledBack:
                    pass
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(table,)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    numbers = sorted(Slip.objects.filter(kind="fill").values_list("number", flat=True))
    assert numbers == list(range(1, 4 * 8 + 1))  # 10 asked at each table, 2 rolled back
    assert slip_numbers(kind="fill").missing == []
