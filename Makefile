# `make run` runs the bot, `make test` passes the tests. Everything installs into .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run test lint typecheck pytest bench bench-bot bench-service bench-community bench-stats bench-chart bench-copy copy backup demo arena install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict bot/engine
	$(BIN)/mypy bot cogs standin tools

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(BENCH_STAMP)
	$(BIN)/python -m tools.bench_engine

bench-bot: $(STAMP)
	$(BIN)/python -m tools.benchbot $(ARGS)

bench-service: $(STAMP)
	$(BIN)/python -m tools.bench_service $(ARGS)

bench-community: $(STAMP)
	$(BIN)/python -m tools.bench_community $(ARGS)

bench-stats: $(STAMP)
	$(BIN)/python -m tools.bench_stats $(ARGS)

bench-chart: $(STAMP)
	$(BIN)/python -m tools.bench_chart $(ARGS)

bench-copy: $(STAMP)
	$(BIN)/python -m tools.bench_copy $(ARGS)

# `make copy FROM=sqlite:///data/ohhell.sqlite3 TO=postgresql://…` (ARGS=--replace to replace
# what TO holds). Not echoed: the URLs may hold a password.
copy: $(STAMP)
	@test -n '$(FROM)' -a -n '$(TO)' || { echo 'usage: make copy FROM=url TO=url [ARGS=--replace]' >&2; exit 2; }
	@$(BIN)/python -m bot.storage.copy '$(FROM)' '$(TO)' $(ARGS)

# `make backup TO=backups/ohhell.sqlite3`: the bot's SQLite database, while it runs.
backup: $(STAMP)
	@test -n '$(TO)' || { echo 'usage: make backup TO=path [ARGS=--replace]' >&2; exit 2; }
	$(BIN)/python -m bot.storage.backup '$(TO)' $(ARGS)

demo: $(STAMP)
	$(BIN)/python -m tools.demo

arena: $(BENCH_STAMP)
	$(BIN)/python -m tools.arena $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
