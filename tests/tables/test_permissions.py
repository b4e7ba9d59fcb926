"""Who sees a table and who acts at it: one answer (``tables.permissions``), asked by the tablet, the API and the
services. Personas: the table's dealer, another dealer, a floor supervisor, a pit boss, an auditor, a stranger."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group, User

from casino.errors import NotAllowed
from casino.roles import Role
from tables.permissions import (
    can_act_at_table,
    can_view_every_table,
    can_view_table,
    require_act_at_table,
    tables_visible_to,
)


@pytest.fixture
def tables(make_table, make_user):  # type: ignore[no-untyped-def]
    mine = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    other = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    other.dealer = make_user("otto_other", Role.DEALER)
    other.save(update_fields=["dealer"])
    return mine, other


@pytest.mark.django_db
def test_a_dealer_sees_and_plays_only_their_own_table(dealer: User, tables) -> None:  # type: ignore[no-untyped-def]
    mine, other = tables
    assert list(tables_visible_to(dealer)) == [mine]
    assert can_view_table(dealer, mine) and can_act_at_table(dealer, mine)
    assert not can_view_table(dealer, other) and not can_act_at_table(dealer, other)
    with pytest.raises(NotAllowed, match="Table PGP-2 is not your table: only its dealer or a supervisor may deal"):
        require_act_at_table(dealer, other, action="deal")


@pytest.mark.django_db
def test_supervisors_play_anywhere_and_an_auditor_sees_everything_and_plays_nowhere(
    floor_supervisor: User, pit_boss: User, auditor: User, tables
) -> None:  # type: ignore[no-untyped-def]
    mine, other = tables
    for supervisor in (floor_supervisor, pit_boss):
        assert can_view_every_table(supervisor) and list(tables_visible_to(supervisor)) == [mine, other]
        assert can_act_at_table(supervisor, other)
    assert can_view_every_table(auditor) and list(tables_visible_to(auditor)) == [mine, other]
    assert can_view_table(auditor, other) and not can_act_at_table(auditor, other)
    with pytest.raises(NotAllowed, match="Only a Dealer or Floor supervisor or Pit boss may settle a round"):
        require_act_at_table(auditor, mine, action="settle a round")


@pytest.mark.django_db
def test_a_stranger_and_a_dealer_whose_role_was_taken_away_see_nothing(make_user, dealer: User, tables) -> None:  # type: ignore[no-untyped-def]
    mine, _ = tables
    stranger = make_user("sue_stranger")
    assert list(tables_visible_to(stranger)) == [] and not can_view_table(stranger, mine)
    assert list(tables_visible_to(AnonymousUser())) == []
    dealer.groups.remove(Group.objects.get(name=Role.DEALER.value))
    former = User.objects.get(pk=dealer.pk)  # a new request: roles are read again
    assert list(tables_visible_to(former)) == [] and not can_act_at_table(former, mine)


def test_the_system_itself_may_act_at_any_table() -> None:
    assert can_act_at_table(None, object()) is True  # type: ignore[arg-type]
