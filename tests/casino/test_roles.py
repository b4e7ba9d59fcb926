"""Roles exist as groups after migrate and gate supervisors' actions."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group, User

from casino.errors import NotAllowed
from casino.roles import Role, user_roles
from casino.services import gaming_day_open, shift_open


@pytest.mark.django_db
def test_the_four_role_groups_exist_after_migrate() -> None:
    assert set(Group.objects.values_list("name", flat=True)) >= {
        "Dealer",
        "Floor supervisor",
        "Pit boss",
        "Auditor",
    }


@pytest.mark.django_db
def test_a_user_holds_the_roles_of_their_groups(dealer, pit_boss) -> None:
    assert user_roles(dealer) == {Role.DEALER}
    assert user_roles(pit_boss) == {Role.PIT_BOSS}


@pytest.mark.django_db
def test_a_users_roles_are_read_in_one_query_once_per_user_object(make_user, django_assert_num_queries) -> None:
    both = make_user("sam_both", Role.DEALER, Role.PIT_BOSS)
    both.groups.add(Group.objects.create(name="Bowling team"))  # a group that is no role
    fresh = User.objects.get(pk=both.pk)
    with django_assert_num_queries(1):
        assert user_roles(fresh) == {Role.DEALER, Role.PIT_BOSS}
        assert user_roles(fresh) == {Role.DEALER, Role.PIT_BOSS}
    none = User.objects.get(pk=make_user("nora_none").pk)
    with django_assert_num_queries(1):
        assert user_roles(none) == frozenset()
    with django_assert_num_queries(0):
        assert user_roles(AnonymousUser()) == frozenset()


@pytest.mark.django_db
def test_the_hand_written_group_read_answers_what_the_orm_answers(make_user) -> None:
    from casino.rows import user_group_names

    both = make_user("sam_both", Role.DEALER, Role.PIT_BOSS)
    both.groups.add(Group.objects.create(name="Bowling team"))
    none = make_user("nora_none")
    for user in (both, none):
        assert user_group_names(user.pk) == set(user.groups.values_list("name", flat=True))
    assert user_group_names(both.pk) == {"Dealer", "Pit boss", "Bowling team"}
    assert user_group_names(10_000_000) == set()  # no such user


@pytest.mark.django_db
def test_a_dealer_cannot_open_a_shift_and_is_told_who_can(dealer, floor_supervisor) -> None:
    import datetime as dt

    gaming_day_open(actor=floor_supervisor, business_date=dt.date(2026, 11, 21))
    with pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may open a shift"):
        shift_open(actor=dealer, name="Day")


@pytest.mark.django_db
def test_an_auditor_cannot_open_a_gaming_day(auditor) -> None:
    import datetime as dt

    with pytest.raises(NotAllowed):
        gaming_day_open(actor=auditor, business_date=dt.date(2026, 11, 21))


def test_a_refusal_for_want_of_a_role_reads_whole_in_german(make_user) -> None:  # type: ignore[no-untyped-def]
    from django.utils import translation

    from casino.errors import NotAllowed
    from casino.roles import Role, require_role

    dealer = make_user("dana_de", Role.DEALER)
    with translation.override("de"), pytest.raises(NotAllowed) as refused:
        require_role(dealer, Role.FLOOR_SUPERVISOR, Role.PIT_BOSS, action="das Geld des Tisches verwalten")
    assert refused.value.message == "Nur Supervisor oder Pit Boss darf das Geld des Tisches verwalten."
    with translation.override("en"), pytest.raises(NotAllowed) as refused:
        require_role(dealer, Role.FLOOR_SUPERVISOR, Role.PIT_BOSS, action="run the lab")
    assert refused.value.message == "Only a Floor supervisor or Pit boss may run the lab."
