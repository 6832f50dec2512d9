# Two commands on a fresh machine:  make run   |   make test
# Every target creates .venv when missing and installs the project into it.

PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed-stamp
HOST    ?= 127.0.0.1
PORT    ?= 8000

.PHONY: setup system jdk run modules serve test test-fast bench fuzz soak check vassal-check vassal-e2e clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

# System packages some tests use (headless Chromium, PostgreSQL); best effort, root only.
system:
	@bash scripts/system-packages.sh

# A JDK: every module carries the Adjudicator extension (Java), compiled when modules are built.
jdk:
	@bash scripts/system-packages.sh modules

# The main job: build every game's module into dist/, then serve the adjudicator.
run: setup modules serve

modules: setup jdk
	$(BIN)/modgen build --all --out dist

serve: setup
	@mkdir -p var
	@echo "Adjudicator: http://$(HOST):$(PORT)/   (modules in $(CURDIR)/dist/)"
	$(BIN)/adjudicator serve --host $(HOST) --port $(PORT)

check: setup
	$(BIN)/scenarios check

test: setup system
	@bash scripts/run-tests.sh

# The loop's answer in a minute: pure functions and the in-process app; no server process, browser,
# PostgreSQL or VASSAL engine, and none of the tests marked slow (make test runs them all).
FAST := not slow and not server and not browser and not postgres and not engine
test-fast: setup
	$(BIN)/pytest -q -n 2 -p no:cacheprovider -m "$(FAST)" $(ARGS)

bench: setup
	$(BIN)/python -m bench

# Open every module in the real VASSAL engine (needs VASSAL_ENGINE_JAR; see scripts/vassal-check.sh).
vassal-check: modules
	@bash scripts/vassal-check.sh

# The Adjudicator extension end to end in the real VASSAL engine (docs/vassal-extension.md);
# needs VASSAL_ENGINE_JAR, skips with the reason otherwise. `make test` runs it too.
vassal-e2e: setup system
	@bash scripts/vassal-e2e.sh

# Long reliability runs (bounded versions run in make test).
fuzz: setup
	@bash scripts/fuzz.sh

soak: setup
	@bash scripts/soak.sh

clean:
	rm -rf dist build .pytest_cache .hypothesis
