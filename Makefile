# Tableside: two commands on a fresh machine.
#   make demo   virtualenv, install, migrate, seed a demo floor once, serve on 127.0.0.1:8000
#   make test   virtualenv, install the dev requirements, run the whole pytest suite

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q
# --no-compile: modules are compiled when first imported, not every module of every package at install time.
INSTALL := $(PIP) install --no-compile
HOST   ?= 127.0.0.1
PORT   ?= 8000
PYTEST_ARGS ?=
# The suite runs on every core the machine has (pytest-xdist); JOBS=1 runs it in one process.
JOBS ?= auto

.PHONY: demo test lint bench serve run-worker run-beat clean failover-drill

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.runtime-installed: requirements.txt | $(PY)
	$(INSTALL) -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(PY)
	$(INSTALL) -r requirements-dev.txt
	touch $@ $(VENV)/.runtime-installed

demo: $(VENV)/.runtime-installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	@echo ""
	@echo "Tableside is starting at http://$(HOST):$(PORT)/"
	@echo "  sign in:   http://$(HOST):$(PORT)/accounts/login/  (logins above, also in var/demo-logins.txt)"
	@echo "  admin:     http://$(HOST):$(PORT)/admin/            (pitboss or admin)"
	@echo "  API docs:  http://$(HOST):$(PORT)/api/docs/"
	@echo ""
	$(PY) manage.py runserver $(HOST):$(PORT)

# The browser tests drive Debian's Chromium (Playwright cannot download its own browser here).
CHROMIUM ?= /usr/bin/chromium

$(CHROMIUM):
	@echo "Installing Debian's chromium for the browser tests"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

# OpenAPI Generator, the schema's cross-check (tests/api/test_openapi_generator.py), runs on Java.
JAVA ?= /usr/bin/java

$(JAVA):
	@echo "Installing Debian's headless Java for the API schema's cross-check"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null

# The import contracts and the types first (seconds): an import that climbs a layer, or a value of the wrong type
# (mypy --strict over every app, pyproject.toml), fails the build before the suite runs.
# The suite keeps the bytecode it compiles (PYTHONDONTWRITEBYTECODE emptied, where a machine sets it): every worker,
# every process a test starts and the second CI pass then load Django and the tests compiled, not compile them again.
# axe-core, the accessibility checker the page walk runs in every page (tests/browser/test_page_walk.py), from the npm
# registry into .cache/npm; the page walk injects the file itself, nothing is fetched from the network by the browser.
AXE_CORE := 4.14.1
AXE := .cache/npm/node_modules/axe-core/axe.min.js

$(AXE):
	npm install --silent --no-save --no-audit --no-fund --prefix .cache/npm axe-core@$(AXE_CORE)

test: $(VENV)/.dev-installed $(CHROMIUM) $(JAVA) $(AXE)
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m mypy
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(JOBS) --dist worksteal $(PYTEST_ARGS)

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports --no-cache

# Production: gunicorn (config/gunicorn.conf.py; WEB_CONCURRENCY workers) on HOST:PORT, after collecting the static
# files WhiteNoise serves. Set DEBUG=0 and the rest first (README, "Running it on a floor"); never runserver there.
serve: $(VENV)/.runtime-installed
	$(PY) manage.py collectstatic --noinput -v 0
	$(VENV)/bin/gunicorn -c config/gunicorn.conf.py --bind $(HOST):$(PORT)

run-worker: $(VENV)/.runtime-installed
	$(PY) -m celery -A config worker --loglevel=INFO

# Celery beat: every 5 seconds folds the audit log into its tree and signs its head (casino.audit); every 5 minutes
# closes an overdue shift (SHIFT_HOURS) and builds missing reports.
run-beat: $(VENV)/.runtime-installed
	@mkdir -p var
	$(PY) -m celery -A config beat --loglevel=INFO --schedule var/celerybeat-schedule

# Losing the primary database (docs/operations-failover.md), drilled on this machine: two PostgreSQL clusters of its own
# (a primary and its synchronous standby, free ports, removed after), gunicorn serving two tablets, the primary stopped
# hard mid-shift, the standby promoted, then every verifier; prints its figures. Needs PostgreSQL's server programs
# (as root, also the postgres user to run them); without them it skips, saying why.
failover-drill: $(VENV)/.dev-installed
	@echo "machine: $$(nproc) CPUs, $$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p')"
	env -u TABLESIDE_CI_PASS $(PY) -m pytest tests/services/test_failover.py -s

clean:
	rm -rf $(VENV) .cache .pytest_cache .hypothesis .mypy_cache .ruff_cache

$(VENV)/.bench-installed: requirements-bench.txt requirements-dev.txt requirements.txt | $(PY)
	$(INSTALL) -r requirements-bench.txt
	touch $@ $(VENV)/.dev-installed $(VENV)/.runtime-installed

bench: $(VENV)/.bench-installed
	$(PY) bench/evaluators.py
	$(PY) bench/pgp_hand_counts.py
	$(PY) bench/tiles.py
	$(PY) bench/points_games.py
