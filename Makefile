# The README's commands: `make run` serves, `make check` is the fast tier (lint, types and the
# tests that start no process), `make test` the whole suite (what CI runs). Each sets up what
# it needs, and says so before a step that takes a while.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUM := $(shell cksum pyproject.toml | cut -d' ' -f1)
SERVE_STAMP := $(VENV)/.installed-serve-$(SUM)
DEV_STAMP := $(VENV)/.installed-dev-$(SUM)
# Three workers on two cores: the suite waits on browsers and servers as much as it computes,
# and a third worker fills those waits (the whole suite in 587 s against 698 s with two, one
# after the other on a quiet machine). Whole files go to one worker, so that a module's browser
# is started once, the longest first (tests/ordering.py).
WORKERS ?= 3
DIST := -n $(WORKERS) --dist loadfile --no-loadscope-reorder

.PHONY: setup test-setup run check test coverage durations lint bench clean

$(SERVE_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing browserhost and what serving needs into $(VENV) with pip (once, about a minute)..."
	@$(BIN)/python -m pip install -q --upgrade pip
	@$(BIN)/python -m pip install -q -e '.[chromium,mcp]'
	@rm -f $(VENV)/.installed-serve-* && touch $@

$(DEV_STAMP): $(SERVE_STAMP)
	@echo "Installing the development tools into $(VENV) with pip (once, about a minute)..."
	@$(BIN)/python -m pip install -q -e '.[chromium,mcp,dev]'
	@rm -f $(VENV)/.installed-dev-* && touch $@

setup: $(SERVE_STAMP)
	@scripts/ensure-chromium

test-setup: setup $(DEV_STAMP)
	@scripts/ensure-xvfb
	@scripts/ensure-grid

run: setup
	$(BIN)/browserhost serve --select chromium $(ARGS)

lint: $(DEV_STAMP)
	@echo "Linting (ruff) and type-checking (mypy --strict, about a minute on a first run)..."
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

check: lint
	$(BIN)/pytest -m "not browser and not slow" $(ARGS)

test: lint test-setup
	$(BIN)/pytest $(DIST) --durations=15 $(ARGS)

# The whole suite with line and branch coverage (a third slower: every process it starts is
# measured too).
coverage: lint test-setup
	$(BIN)/pytest $(DIST) --cov --cov-report=term:skip-covered $(ARGS)

# The whole suite, keeping how long each file took: the order `make test` hands them out in.
durations: lint test-setup
	$(BIN)/pytest $(DIST) --durations-file tests/durations.json $(ARGS)

# The Grid bench starts its own Grid: the same setup as the tests.
bench: test-setup
	$(BIN)/python benches/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage
