# `make run` runs the bot, `make test` passes the tests. Everything installs into .venv, each
# target only what it needs: the bot's own dependencies for `make run`, the dev extra (pytest,
# mypy, ruff, pgserver's PostgreSQL) for the tests, the stand-in and the benchmarks, the bench
# extra (OpenSpiel) only where OpenSpiel plays or is measured.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
# The arena needs OpenSpiel only for its reference opponent: ARGS naming ismcts.
ARENA_STAMPS := $(RUN_STAMP) $(if $(findstring ismcts,$(ARGS)),$(BENCH_STAMP))

.PHONY: sdk run test lint typecheck pytest catalogs bench bench-bot bench-web bench-service bench-community bench-stats bench-chart bench-copy bench-ratings copy backup soak demo arena install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

$(BENCH_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@

install: $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/python -m bot

# One after the other: lint and typecheck take seconds, and a failure of theirs is told before
# the tests start (beside the tests they would save only those seconds).
test: lint typecheck pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy --strict bot/engine
	$(BIN)/mypy bot cogs standin tools

# The tests run in WORKERS processes (pytest-xdist), more than the cores: an end-to-end test
# mostly waits on the stand-in, the bot and the database. WORKERS=0 runs them in this process.
# Compiled modules are kept (__pycache__) even where PYTHONDONTWRITEBYTECODE is set: each worker
# and each bot process a test starts would compile them all again.
WORKERS ?= 4
pytest: $(DEV_STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(WORKERS) --dist worksteal

bench: $(BENCH_STAMP)
	$(BIN)/python -m tools.bench_engine

bench-bot: $(DEV_STAMP)
	$(BIN)/python -m tools.benchbot $(ARGS)

# The web pages' cost: the bot's CPU a card and memory with readers on every table's live page
# against none, the time from a commit to a page, and the bytes a page weighs.
bench-web: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_web $(ARGS)

bench-service: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_service $(ARGS)

bench-community: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_community $(ARGS)

bench-stats: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_stats $(ARGS)

bench-chart: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_chart $(ARGS)

bench-copy: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_copy $(ARGS)

bench-ratings: $(RUN_STAMP)
	$(BIN)/python -m tools.bench_ratings $(ARGS)

# `make copy FROM=sqlite:///data/ohhell.sqlite3 TO=postgresql://…` (ARGS=--replace to replace
# what TO holds). Not echoed: the URLs may hold a password.
copy: $(RUN_STAMP)
	@test -n '$(FROM)' -a -n '$(TO)' || { echo 'usage: make copy FROM=url TO=url [ARGS=--replace]' >&2; exit 2; }
	@$(BIN)/python -m bot.storage.copy '$(FROM)' '$(TO)' $(ARGS)

# `make backup TO=backups/ohhell.sqlite3`: the bot's SQLite database, while it runs.
backup: $(RUN_STAMP)
	@test -n '$(TO)' || { echo 'usage: make backup TO=path [ARGS=--replace]' >&2; exit 2; }
	$(BIN)/python -m bot.storage.backup '$(TO)' $(ARGS)

# Many SIGKILLs at random moments of a game on each backend, another seed each run: no
# acknowledged action and no channel post lost or doubled (make test runs 8 kills); and of a
# bot with metrics and computer workers on: its workers die with it and the next start serves
# on the same port (make test runs 2 kills).
soak: $(DEV_STAMP)
	SIGKILLS=30 SIGKILLS_WITH_WORKERS=12 SIGKILL_SEED=$$(date +%s) $(BIN)/python -m pytest -q -p no:cacheprovider tests/end_to_end/test_restart.py -k sigkill

demo: $(DEV_STAMP)
	$(BIN)/python -m tools.demo $(ARGS)

# The catalogs (cogs/locales, CONTRIBUTING.md "Adding a language"): Babel extracts the template
# from the code, brings every language's catalog up to it, and compiles each to the .mo the bot reads.
catalogs: $(RUN_STAMP)
	$(BIN)/python -m tools.catalogs

arena: $(ARENA_STAMPS)
	$(BIN)/python -m tools.arena $(ARGS)

# The Embedded App SDK the Activity page loads, rebuilt from the npm registry: the SDK and esbuild
# at the versions tools/sdk/package-lock.json pins (install scripts off), built into
# cogs/web/static/discord-sdk.js with its licences beside it. Needs node and npm; `make run` and
# `make test` do not (the built file is committed).
sdk:
	cd tools/sdk && npm ci --ignore-scripts --no-audit --no-fund && node build.mjs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
