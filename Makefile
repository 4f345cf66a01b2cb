# Arboretum: every target sets up what it needs first, and skips what is already there.
#   make run    - install everything, then start the app on http://localhost:8501
#   make test   - install everything (Graphviz and Chromium too), then lint, type-check, run all tests
#   make bench  - speed of our trees and forests against scikit-learn, as ratios

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.arboretum-installed
PORT ?= 8501

.PHONY: run test lint typecheck pytest bench bench-latency system-graphviz system-browser setup

run: setup system-graphviz
	$(BIN)/streamlit run app.py --server.headless true --server.port $(PORT) --browser.gatherUsageStats false

test: setup system-graphviz system-browser lint typecheck pytest

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

# Graphviz's `dot` renders tree diagrams on the server; without it the app falls back to
# layout in the browser, so `make run` only warns when it cannot be installed.
system-graphviz:
	@bash .ci/system-deps.sh graphviz || echo "warning: Graphviz 'dot' is missing; tree diagrams fall back to in-browser layout"

# The end-to-end tests drive the real app in Debian's Chromium.
system-browser:
	@bash .ci/system-deps.sh chromium

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python -m bench.bench_core

bench-latency: setup system-graphviz system-browser
	$(BIN)/python -m bench.bench_latency
