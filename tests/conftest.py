"""Shared fixtures: personas (one user per role) and the service-backed gate."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User

from casino.roles import Role


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``make test`` runs the suite on every core) each worker has its own test database
    (pytest-django suffixes its name) and here its own keys in the shared cache: two workers' shifts, tables and
    form keys share ids, and must not read each other's cached figures or find each other's form keys taken."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        for alias in settings.CACHES.values():
            alias["KEY_PREFIX"] = f"test-{worker}"


def _keyed_writes() -> None:
    """The tests' clients send a fresh ``Idempotency-Key`` with every write under /api/, as a well-behaved integrator
    does (``casino.idempotency`` refuses a write that moves money without one). A test of the key itself passes its
    own, or ``HTTP_IDEMPOTENCY_KEY=None`` to send none."""
    import uuid

    from django.test.client import RequestFactory

    generic = RequestFactory.generic

    def keyed(self: RequestFactory, method: str, path: str, *args: Any, **extra: Any) -> Any:
        if method.upper() in ("POST", "PUT", "PATCH", "DELETE") and str(path).startswith("/api/"):
            if "HTTP_IDEMPOTENCY_KEY" not in extra:
                extra["HTTP_IDEMPOTENCY_KEY"] = f"test-{uuid.uuid4().hex}"
            elif extra["HTTP_IDEMPOTENCY_KEY"] is None:
                del extra["HTTP_IDEMPOTENCY_KEY"]
        return generic(self, method, path, *args, **extra)

    RequestFactory.generic = keyed  # type: ignore[method-assign]


_keyed_writes()


# The fixtures through which a test reaches the database (pytest-django's, and the live server's).
_DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}
)


def _uses_the_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        _DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


# The packages whose code imports no Django (import contracts hold it): their tests answer alike on every database.
_DJANGO_FREE = (("rules", "games"), ("tests", "rules"), ("tests", "poker_room", "pure"))


def _same_on_every_database(item: pytest.Item, root: Path) -> bool:
    """A test that reaches neither the database nor a service, and runs code that cannot read them: the game
    engines' and the poker room's pure rules (no Django), or code run in a process of its own whose environment the
    test sets (``own_process``)."""
    if _uses_the_database(item) or item.get_closest_marker("services") is not None:
        return False
    where = item.path.relative_to(root).parts
    return any(where[: len(package)] == package for package in _DJANGO_FREE) or (
        item.get_closest_marker("own_process") is not None
    )


def _in_the_browser(item: pytest.Item, root: Path) -> bool:
    return item.path.relative_to(root).parts[:2] == ("tests", "browser")


# The suites that drive the application through its HTTP faces (the REST API, the tablet's pages, the poker room's
# pages and API): they reach the database only through the services and selectors, whose own suites (tests/casino,
# ledger, trust, tables, rounds, settlement, players, pit, faults) run on both databases, every path that differs
# between them with them (``casino.rows``, the append-only triggers, the reports' and the ratings' SQL).
_HTTP_FACES = (("tests", "api"), ("tests", "dealer"), ("tests", "poker_room"))


def _in_the_browser_or_an_http_face(item: pytest.Item, root: Path) -> bool:
    """What the SQLite pass leaves to the PostgreSQL pass: the browser tests, and the tests of the HTTP faces that
    reach the database (their pure neighbours, the poker room's rules, run in the SQLite pass only). A face's own
    hand-written SQL (its ``sql`` module, held to the ORM by its ``test_sql.py``) differs between the databases, and
    is tested on both."""
    if _in_the_browser(item, root):
        return True
    if item.path.name == "test_sql.py":
        return False
    where = item.path.relative_to(root).parts
    return _uses_the_database(item) and any(where[: len(face)] == face for face in _HTTP_FACES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``TABLESIDE_CI_PASS`` (set by ``.ci/run``) runs each test where it tells something: pass 1 (SQLite) leaves the
    browser tests to pass 2, which drives the screens on PostgreSQL (the production database, whose row locks make a
    double tap over the live server a real race), and the HTTP faces' tests that reach the database with them
    (``_HTTP_FACES``); pass 2 leaves out the tests that answer alike on every database (``_same_on_every_database``),
    which pass 1 ran. Unset (``make test`` on a developer's machine), every test runs."""
    leave_out = {"1": _in_the_browser_or_an_http_face, "2": _same_on_every_database}.get(
        os.environ.get("TABLESIDE_CI_PASS", "")
    )
    if leave_out is None:
        return
    root = config.rootpath
    kept, done = [], []
    for item in items:
        (done if leave_out(item, root) else kept).append(item)
    if done:
        config.hook.pytest_deselected(items=done)
        items[:] = kept


@pytest.fixture(autouse=True)
def _each_test_in_english() -> Iterator[None]:
    """A request in German (Accept-Language) leaves its language active in the thread, as a server's next request
    would not find it: each test starts in the default language, and leaves it so."""
    from django.utils import translation

    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _records_held_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """With ``TABLESIDE_TEST_HOLD_RECORDS=1``, every test that reaches the database ends by holding every audited
    record to its audit events (``casino.verify``): a service that writes a record without recording it fails the
    test that used it. Off by default (it costs about 50 queries a test); the trust tests hold the records of their
    own flows always."""
    if not os.environ.get("TABLESIDE_TEST_HOLD_RECORDS") or "db" not in request.fixturenames:
        yield
        return
    from django.db import connection

    from tests.guards import TAMPERED

    request.getfixturevalue("db")
    connection.__dict__.pop(TAMPERED, None)
    yield
    if connection.__dict__.pop(TAMPERED, None):
        return  # an attack: the attack tests hold the verifier to what it must find
    from casino.verify import records_verify

    report = records_verify()
    if not report.ok:
        pytest.fail("records not as their audit events wrote them:\n" + "\n".join(report.problems[:20]))


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    """Make a user holding the given roles."""

    def make(username: str, *roles: Role, **extra: object) -> User:
        user = User.objects.create_user(username=username, password="s3cret-pass-word", **extra)
        for role in roles:
            # get_or_create: a transactional test (the browser tests) flushes the groups the migration made.
            user.groups.add(Group.objects.get_or_create(name=role.value)[0])
        return user

    return make


@pytest.fixture
def dealer(make_user: Callable[..., User]) -> User:
    return make_user("dana_dealer", Role.DEALER)


@pytest.fixture
def floor_supervisor(make_user: Callable[..., User]) -> User:
    return make_user("fred_floor", Role.FLOOR_SUPERVISOR)


@pytest.fixture
def pit_boss(make_user: Callable[..., User]) -> User:
    return make_user("paula_pitboss", Role.PIT_BOSS, is_staff=True)


@pytest.fixture
def auditor(make_user: Callable[..., User]) -> User:
    return make_user("alex_auditor", Role.AUDITOR)


def _answers(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture
def real_services() -> None:
    """Gate for service-backed tests: PostgreSQL as the database and Redis as the broker.

    Outside CI they skip with a one-line reason. When TABLESIDE_REQUIRE_SERVICES
    is set (the second .ci/run pass) a missing service fails the test instead.
    """
    required = os.environ.get("TABLESIDE_REQUIRE_SERVICES") == "1"
    problems = []
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        problems.append("DATABASE_URL is not PostgreSQL")
    broker = settings.CELERY_BROKER_URL
    if not broker:
        problems.append("CELERY_BROKER_URL is not set")
    elif not _answers(broker, 6379):
        problems.append(f"Redis at {broker} does not answer")
    if problems:
        message = "needs PostgreSQL + Redis (.ci/run's second pass): " + "; ".join(problems)
        if required:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Tasks run in-process, as on the embedded default, even in the PostgreSQL + Redis pass (whose real worker
    round trip is tests/services/test_celery_worker.py's). Modules use it with ``pytest.mark.usefixtures``."""
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """pytest-django's test database, then, when ``TABLESIDE_TEST_APP_ROLE`` names a role (the PostgreSQL CI
    pass), every connection of the run works as that least-privilege role: granted as after a ``migrate``
    (``casino.db_role``), entered with ``SET ROLE`` at connection time (libpq's ``options``, and ``PGOPTIONS``
    for the Celery worker the suite starts). The superuser made and migrated the database, and drops it."""
    from django.db import connection

    from casino.db_role import app_role_create, app_role_grant

    role = os.environ.get("TABLESIDE_TEST_APP_ROLE", "").strip()
    if not role or connection.vendor != "postgresql":
        yield
        return
    with django_db_blocker.unblock():
        app_role_create(connection, role)
        app_role_grant(connection, role)
        connection.close()
    # The suite's database need not outlive a crash of its server: a commit does not wait for its WAL to reach the
    # disk (synchronous_commit off; what each transaction sees is unchanged, as every guarantee the tests check).
    option = f"-c role={role} -c synchronous_commit=off"
    for settings_dict in (settings.DATABASES["default"], connection.settings_dict):
        settings_dict.setdefault("OPTIONS", {})["options"] = option
    os.environ["PGOPTIONS"] = option
    yield
    with django_db_blocker.unblock():
        connection.close()
    for settings_dict in (settings.DATABASES["default"], connection.settings_dict):
        settings_dict["OPTIONS"].pop("options", None)
    os.environ.pop("PGOPTIONS", None)


@pytest.fixture(scope="session", autouse=True)
def _flush_past_the_guards() -> Iterator[None]:
    """A transactional test's teardown empties every table (``manage.py flush``): past the append-only
    triggers and the application's role, as only the test suite does (``tests.guards``)."""
    from django.db.backends.base.operations import BaseDatabaseOperations

    from tests.guards import guards_off

    original = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):  # type: ignore[no-untyped-def]
        with guards_off():
            original(self, sql_list)

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]
    yield
    BaseDatabaseOperations.execute_sql_flush = original  # type: ignore[method-assign]


# The rows the data migrations put in every database: the roles' groups, the games' default rule sets, the house's
# chips. A transactional test's flush empties them with the rest; under pytest-xdist a worker may run an ordinary test
# after a transactional one, so they are put back, where Django itself puts back content types and permissions.
_MIGRATION_DATA = (
    ("casino.migrations.0002_roles", "create_roles"),
    ("casino.migrations.0005_cage_cashier_role", "create"),
    ("casino.migrations.0006_count_team_role", "create"),
    ("casino.migrations.0007_tournament_director_role", "create"),
    ("rules.migrations.0002_default_rule_sets", "create_defaults"),
    ("tables.migrations.0012_house_chips", "seed"),
)


@pytest.fixture(scope="session", autouse=True)
def _migration_data_after_a_flush() -> Iterator[None]:
    from importlib import import_module

    from django.apps import apps
    from django.db.models.signals import post_migrate

    seeds = [getattr(import_module(module), name) for module, name in _MIGRATION_DATA]

    def reseed(sender: object, using: str = "default", **kwargs: object) -> None:
        if getattr(sender, "label", None) != "tables":  # once per flush: after the last app it signals for
            return
        for seed in seeds:
            seed(apps, None)  # none of them needs the schema editor

    post_migrate.connect(reseed, dispatch_uid="tests-migration-data")
    yield
    post_migrate.disconnect(dispatch_uid="tests-migration-data")


@pytest.fixture(autouse=True)
def _audit_checkpoint_file(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Each test's checkpoints go to its own file, not the project's var/."""
    settings.TABLESIDE_AUDIT_CHECKPOINT_FILE = str(tmp_path / "audit-checkpoints.jsonl")


@pytest.fixture(autouse=True)
def _audit_sequenced_when_a_test_says(settings) -> None:  # type: ignore[no-untyped-def]
    """The sequencer runs when a test runs it (a shift close, a checkpoint, the beat task), not after whichever
    captured commit happens to come five seconds after the last: the tests that count heads count them exactly."""
    settings.TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES = False


@pytest.fixture(autouse=True)
def _redis_trusted_again() -> None:
    """A test that took Redis away leaves this process backing off it (``casino.redis_cache``): the next starts
    afresh."""
    from casino.redis_cache import redis_trusted_again

    redis_trusted_again()


@pytest.fixture(autouse=True)
def _dashboard_reads_the_whole_floor_first() -> None:
    """The floor's lines a dashboard kept in this process belong to the test that drew them."""
    from pit.selectors import floor_lines_forget

    floor_lines_forget()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:  # type: ignore[no-untyped-def]
    """PBKDF2 is slow on purpose; tests only need hashing to work."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def pit(pit_boss: User):  # type: ignore[no-untyped-def]
    from casino.services import pit_create

    return pit_create(actor=pit_boss, name="Pit 1")


@pytest.fixture
def shift(pit_boss: User):  # type: ignore[no-untyped-def]
    import datetime as dt

    from casino.services import gaming_day_open, shift_open

    gaming_day_open(actor=pit_boss, business_date=dt.date(2025, 3, 1))
    return shift_open(actor=pit_boss, name="Day")


@pytest.fixture
def make_table(pit_boss: User, pit, dealer: User) -> Callable[..., object]:  # type: ignore[no-untyped-def]
    """Make a table in ``pit``, open by default, worked by the ``dealer`` persona."""
    from tables.services import table_assign_dealer, table_create, table_open

    def make(
        *,
        name: str,
        game: str,
        seat_count: int,
        rule_set=None,  # type: ignore[no-untyped-def]
        open_it: bool = True,
        min_wager_cents: int = 1000,
        max_wager_cents: int = 50000,
        in_pit=None,  # type: ignore[no-untyped-def]
    ):
        table = table_create(
            actor=pit_boss,
            pit=in_pit or pit,
            name=name,
            game=game,
            min_wager_cents=min_wager_cents,
            max_wager_cents=max_wager_cents,
            seat_count=seat_count,
            rule_set=rule_set,
        )
        table = table_assign_dealer(actor=pit_boss, table=table, dealer=dealer)
        return table_open(actor=pit_boss, table=table) if open_it else table

    return make


@pytest.fixture
def house_chips() -> None:
    """The house's chips as the data migration seeds them, again: a transactional test's flush empties every
    table, data migrations' rows included (use after the database fixture)."""
    from importlib import import_module

    from tables.models import ChipDenomination

    for value_cents, colour in import_module("tables.migrations.0012_house_chips").HOUSE_CHIPS:
        ChipDenomination.objects.get_or_create(value_cents=value_cents, defaults={"colour": colour})


DEMO_PASSWORD = "demo-floor-pass-2026"


@pytest.fixture
def live_demo_floor(transactional_db: None, settings: Any, tmp_path: Path) -> str:
    """The demo floor (``seed_demo``) in a transactional database, for a test against the live server: its users'
    password."""
    from django.core.management import call_command

    settings.VAR_DIR = tmp_path  # the demo's logins file
    for role in Role:  # a transactional test flushed the groups the migration made
        Group.objects.get_or_create(name=role.value)
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", password=DEMO_PASSWORD, stdout=quiet)
    return DEMO_PASSWORD
