# The two commands a newcomer needs: `make run` and `make test` (see README).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers for `make test`: one per core ("auto"); PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= auto
# mutmut's children for `make mutation` (each runs the tests of one mutant).
MUTATION_WORKERS ?= 2

.PHONY: run test test-long lint-all lint setup demo messages collectstatic serve benchmark benchmark-compare mutation clean

$(VENV)/bin/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) not found: install Python 3.11 or run make PYTHON=python3"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt $(VENV)/bin/python
	$(PIP) install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt $(VENV)/.installed
	$(PIP) install --quiet -r requirements-dev.txt
	touch $@

## run: set up everything (venv, install, migrate, reference data, demo league) and serve on http://127.0.0.1:8000
run: setup
	$(PY) manage.py runserver $(HOST):$(PORT)

setup: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --if-empty

# pytest, failing when it collects no tests (pytest's exit code 5): a suite that runs nothing is not green.
PYTEST = $(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal

## test: lint, migration check, the import layers and the suite without the `long` tests, the heavy ones
## small (one league year, one demo seed, a few pages under axe, a fuzz sample: docs/testing.md); minutes
test: lint-all
	@$(PYTEST) -m "not long" $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing on purpose"; exit 1; fi; exit $$rc

## test-long: every test at full size (TEST_SIZE=full, docs/testing.md), then 1,000 random league years in
## chunks of 25 on every core (scripts/league_years.sh, output in league-years/); hours on two cores
test-long: lint-all
	@TEST_SIZE=full $(PYTEST) $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing on purpose"; exit 1; fi; exit $$rc
	bash scripts/league_years.sh

# What both tiers check before the tests: the test tools, ruff, no missing migration, the import layers.
lint-all: $(VENV)/.installed-dev
	@bash scripts/ensure-test-tools
	$(PY) -m ruff check .
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/lint-imports

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

## messages: regenerate and compile the translation catalogues (needs GNU gettext)
messages: $(VENV)/.installed
	$(PY) manage.py makemessages -l nb -l en --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=mutants
	$(PY) scripts/fill_translations.py locale/nb/LC_MESSAGES/django.po locale/nb/translations.json
	$(PY) manage.py compilemessages --ignore=.venv --ignore=mutants

collectstatic: $(VENV)/.installed
	$(PY) manage.py collectstatic --noinput

## serve: production-style serving through gunicorn (set DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL)
serve: collectstatic
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --if-empty
	$(VENV)/bin/gunicorn -c gunicorn.conf.py torshov.wsgi

benchmark: $(VENV)/.installed
	$(PY) manage.py benchmark

## benchmark-compare: the benchmark of BEFORE (a commit) and of this checkout in turn, side by side (PostgreSQL)
benchmark-compare: $(VENV)/.installed
	$(PY) scripts/benchmark_compare.py $(BEFORE)

## mutation: mutation-test the pure rules (mutmut over league/rules, tests/rules without Django) and print the score per module
mutation: $(VENV)/.installed-dev
	rm -rf mutants
	$(VENV)/bin/mutmut run --max-children $(MUTATION_WORKERS)
	$(PY) scripts/mutation_score.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
