# Arboretum: every target sets up what it needs first, and skips what is already there.
#   make run    - install everything, then start the app on http://localhost:8501
#   make dev    - the same, and a saved file reruns the page (the file watcher on)
#   make test   - install everything (Graphviz and Chromium too), then lint, type-check, run all tests
#   make check  - the quick loop while working: lint, type-check, and the tests that need no
#                 browser and no server (a few minutes on two cores)
#   make bench  - speed of our trees and forests against scikit-learn, as ratios
#   make sizes  - the modules and functions over the size limits (tests/structure/sizes.py)
#   make floors - the engine and page tests on the lowest versions pyproject.toml allows
#   make bench-classroom - simulated students against the real server: latency, CPU, memory
#   make replicas - REPLICAS copies of the app (one per core) behind HAProxy on http://localhost:LB_PORT=8640
#                   with a redis-server beside them, the class store the replicas share
# System packages come from Debian through .ci/system-deps.sh, when missing: Graphviz, Chromium,
# HAProxy and Redis (redis-server: `make test` runs the store's tests against a real one).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.arboretum-installed
PORT ?= 8501

.PHONY: run dev test check sizes lint typecheck pytest floors bench bench-latency bench-classroom system-graphviz \
	system-browser setup replicas system-haproxy system-redis

# Two malloc arenas: every session's script thread would get its own otherwise, each keeping
# freed memory, and the server holds several times what a class needs (README, Deploying).
run: export MALLOC_ARENA_MAX ?= 2
run: setup system-graphviz
	$(BIN)/streamlit run serve.py --server.headless true --server.port $(PORT) --browser.gatherUsageStats false

# For development: Streamlit watches the files and a save reruns the page. The watcher is off
# everywhere else (.streamlit/config.toml): it costs a class a fifth of the server's CPU.
dev: export MALLOC_ARENA_MAX ?= 2
dev: setup system-graphviz
	$(BIN)/streamlit run serve.py --server.headless true --server.port $(PORT) --browser.gatherUsageStats false --server.fileWatcherType auto --server.runOnSave true

# The set-up steps, each about one core's work, run side by side (the engine's compilation,
# ruff, mypy, the floors' venv); then the tests take every core, then the floors.
test: system-graphviz system-browser system-haproxy system-redis
	$(MAKE) --no-print-directory -j4 --output-sync=target setup lint typecheck $(FLOORS_STAMP)
	$(MAKE) --no-print-directory pytest floors

# numba compiles the engine's loops once and keeps them (core/engine/__pycache__); later
# processes load them in a fraction of a second, so no visitor waits for the compiler.
setup: $(STAMP)
	$(BIN)/python -m core.engine

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

# HAProxy is the load balancer in front of `make replicas` and the deploy tests.
system-haproxy:
	@bash .ci/system-deps.sh haproxy

# Redis holds the class store the replicas of `make replicas` share (core/classroom/store.py); the
# store's tests start their own redis-server. Without it `make replicas` still runs, each
# replica on its own (no class across replicas), so it only warns.
system-redis:
	@bash .ci/system-deps.sh redis || echo "warning: redis-server is missing; make replicas runs without a shared class store"

# Several replicas of the app on one machine, behind HAProxy with sticky sessions (deploy/).
# One replica per core unless REPLICAS says otherwise: a replica's Python runs on one core.
REPLICAS ?= $(shell nproc 2>/dev/null || echo 2)
LB_PORT ?= 8640
replicas: setup system-graphviz system-haproxy system-redis
	$(BIN)/python -m deploy.replicas --replicas $(REPLICAS) --port $(LB_PORT)

sizes: setup
	$(BIN)/python -m tests.structure.sizes

# Lint and types read the source only: they need the venv, not the compiled engine.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The tests run on every core (pytest-xdist; PYTEST_WORKERS=0 runs them in this one process).
# Each file's tests stay on one worker (--dist loadfile), so a module's own server starts once
# and a file whose tests build on one another runs them in order; the browser files go first
# (conftest.py orders them), and a long one is split by theme into files of its own so the
# workers finish together. A worker starts the session's
# Chromium, Streamlit and Redis only when its tests ask for them. Every worker picks its own
# free ports and writes under its own temporary folder.
PYTEST_WORKERS ?= auto
XDIST := -n $(PYTEST_WORKERS) --dist loadfile

pytest: setup
	$(BIN)/python -m pytest $(XDIST)

# What `make check` leaves to `make test`: the browser tests, every test that starts a server
# (marked `live` by conftest.py), and tests/deploy/, which needs HAProxy. Any new test folder
# is in both.
check: setup lint typecheck
	$(BIN)/python -m pytest $(XDIST) -m "not browser and not live" --ignore=tests/browser --ignore=tests/deploy

# The dependency floors in pyproject.toml are claims; this proves them. It installs exactly
# the floor of every runtime dependency (">=" read as "==") into a second venv and runs the
# engine and page tests there.
FLOORS_VENV := build/venv-floors
FLOORS_STAMP := $(FLOORS_VENV)/.arboretum-floors

$(FLOORS_STAMP): pyproject.toml
	test -x $(FLOORS_VENV)/bin/python || $(PYTHON) -m venv $(FLOORS_VENV)
	$(FLOORS_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(FLOORS_VENV)/bin/python -c 'import tomllib; deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]; print("\n".join(d.replace(">=", "==") for d in deps))' > $(FLOORS_VENV)/floors.txt
	$(FLOORS_VENV)/bin/python -m pip install --quiet pytest pytest-xdist --requirement $(FLOORS_VENV)/floors.txt
	touch $(FLOORS_STAMP)

# The floors' numba keeps its machine code in a folder of its own, emptied at each run: two
# numba versions name their cache files alike beside the engine, and a floors worker once read
# what the newer LLVM had written there (a CI run failed so). Empty, it never meets code
# compiled before an edit of the engine either.
FLOORS_NUMBA_CACHE := $(FLOORS_VENV)/numba-cache

floors: $(FLOORS_STAMP)
	$(FLOORS_VENV)/bin/python -m pip list 2>/dev/null | grep -iE '^(numpy|numba|scipy|pandas|plotly|graphviz|scikit-learn|streamlit) '
	rm -rf $(FLOORS_NUMBA_CACHE)
	NUMBA_CACHE_DIR=$(abspath $(FLOORS_NUMBA_CACHE)) $(FLOORS_VENV)/bin/python -m pytest -q -p no:cacheprovider $(XDIST) tests/engine tests/pages

bench: setup
	$(BIN)/python -m bench.bench_core

bench-latency: setup system-graphviz system-browser
	$(BIN)/python -m bench.bench_latency

# A class of simulated students (Streamlit's own websocket protocol) against a fresh server per
# run, with a few real Chromium students riding along; tables in build/classroom/
# (classroom_load/README.md). CLASSROOM_ARGS="--url http://127.0.0.1:8640 --pid ..." measures
# replicas behind a load balancer instead.
CLASSROOM_ARGS ?= --students 10,30,60 --pages --distinct 1000 --browsers 2
bench-classroom: setup system-graphviz system-browser
	$(BIN)/python -m classroom_load.classroom $(CLASSROOM_ARGS)
