# The whole set-up is `make run` and `make test`: both create .venv and install the project (editable) first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test lint bench loadtest messages clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,dev]'
	touch $(STAMP)

# The whole product: the database (the demo on first start), gunicorn and the scheduler; PORT=5001 make run.
run: $(STAMP)
	$(BIN)/pbp run

# pytest on every core (pytest-xdist): each worker has its own served site, schemas and ports (docs/testing.md).
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench

# The deadline rush against gunicorn + the scheduler on SQLite and PostgreSQL (docs/loadtest.md); not part of
# `make test`. FAULTS=0: without the SIGKILL runs; FAULTS=only: only them. DB=sqlite or DB=postgresql: one database.
loadtest: $(STAMP)
	$(BIN)/python -m loadtest --db $(or $(DB),all) --faults $(if $(filter 0,$(FAULTS)),no,$(if $(filter only,$(FAULTS)),yes,both))

# The web pages' strings: extract them (English ids; a service's refusal is marked `N_`, one of pybabel's default
# keywords), merge into each locale's catalog, compile what the app reads.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -o pbp/translations/messages.pot --project pbp --copyright-holder pbp \
		--no-location --sort-output --no-wrap --omit-header .
	$(BIN)/pybabel update -i pbp/translations/messages.pot -d pbp/translations --no-wrap --ignore-obsolete --no-fuzzy-matching \
		--ignore-pot-creation-date
	$(BIN)/pybabel compile -d pbp/translations --statistics

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
