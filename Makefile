# The two commands of the README: `make run` and `make test`. Both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: setup run test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[chromium,mcp,dev]'
	rm -f $(VENV)/.installed-* && touch $@

setup: $(STAMP)
	@scripts/ensure-chromium
	@scripts/ensure-xvfb
	@scripts/ensure-grid

run: setup
	$(BIN)/browserhost serve --select chromium $(ARGS)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest --cov --cov-report=term:skip-covered $(ARGS)

bench: setup
	$(BIN)/python benches/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage
