"""The idempotency key's own statements (``casino.rows``): taken once in one INSERT, the other sending finds it taken
without losing its transaction, and a Redis that cannot be reached is left alone while one that answers an error is
not. On both databases (the SQLite pass runs this module; the API's idempotency tests run on PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from casino.models import IdempotencyKey
from casino.redis_cache import _backing_off_around, backing_off, redis_trusted_again
from casino.rows import row_insert_unless_taken, row_update, row_update_stored


@pytest.mark.django_db
def test_a_key_is_taken_once_and_the_second_taking_leaves_the_transaction_usable(dealer: User) -> None:
    with transaction.atomic():
        first = row_insert_unless_taken(IdempotencyKey(user=dealer, key="k-1", fingerprint="a"), ("user", "key"))
        assert first is not None and first.pk is not None and first.created_at is not None
        again = row_insert_unless_taken(IdempotencyKey(user=dealer, key="k-1", fingerprint="b"), ("user", "key"))
        assert again is None
        # the conflict aborted nothing: the transaction goes on, and another user's same key is theirs
        other = User.objects.create_user("other", password=None)
        assert row_insert_unless_taken(IdempotencyKey(user=other, key="k-1", fingerprint="b"), ("user", "key"))
    (kept,) = IdempotencyKey.objects.filter(user=dealer)
    assert (kept.pk, kept.fingerprint, kept.status) == (first.pk, "a", IdempotencyKey.Status.RUNNING)
    first.status, first.response_status, first.response_body = IdempotencyKey.Status.DONE, 201, b'{"id": 7}'
    row_update(first, ("status", "response_status", "response_body"))
    kept.refresh_from_db()
    assert (kept.status, kept.response_status, bytes(kept.response_body)) == ("done", 201, b'{"id": 7}')
    row_update_stored(IdempotencyKey, kept.pk, {"response_type": "application/json", "response_body": b'{"id": 8}'})
    kept.refresh_from_db()
    assert (kept.response_type, bytes(kept.response_body), kept.status) == ("application/json", b'{"id": 8}', "done")
    with pytest.raises(DatabaseError, match="changed 0 rows"):
        row_update_stored(IdempotencyKey, kept.pk + 1000, {"status": "done"})


def test_redis_unreachable_is_backed_off_and_redis_answering_an_error_is_not() -> None:
    def erring(_client: Any) -> None:
        raise ResponseError("OOM command not allowed when used memory > 'maxmemory'")

    def refused(_client: Any) -> None:
        raise RedisConnectionError("Connection refused")

    redis_trusted_again()
    with pytest.raises(ConnectionInterrupted):
        _backing_off_around(erring)(None)
    assert not backing_off()  # Redis answered: the next call asks it again
    with pytest.raises(ConnectionInterrupted):
        _backing_off_around(refused)(None)
    assert backing_off()
    redis_trusted_again()
