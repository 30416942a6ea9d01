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

.PHONY: run test lint typecheck pytest bench bench-bot bench-service bench-community bench-stats bench-chart demo arena install clean

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

test: lint typecheck pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy --strict bot/engine
	$(BIN)/mypy bot cogs standin tools

pytest: $(DEV_STAMP)
	$(BIN)/python -m pytest -q

bench: $(BENCH_STAMP)
	$(BIN)/python -m tools.bench_engine

bench-bot: $(DEV_STAMP)
	$(BIN)/python -m tools.benchbot $(ARGS)

bench-service: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_service $(ARGS)

bench-community: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_community $(ARGS)

bench-stats: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_stats $(ARGS)

bench-chart: $(DEV_STAMP)
	$(BIN)/python -m tools.bench_chart $(ARGS)

demo: $(DEV_STAMP)
	$(BIN)/python -m tools.demo

arena: $(ARENA_STAMPS)
	$(BIN)/python -m tools.arena $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
