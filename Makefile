# One-command set-up: every target creates/updates .venv as needed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test

.PHONY: build test test-slow validate bench bench-quick docs clean lint

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(TESTSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@ $(STAMP)

build: $(STAMP)
	$(BIN)/pnp build

test: $(TESTSTAMP)
	$(BIN)/ruff check generator tests cards
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

# the cases marked slow (minutes each: agreement of engines over thousands of games, every game's every PDF)
test-slow: $(TESTSTAMP)
	PNP_SLOW=1 $(BIN)/python -m pytest -n 2 -m slow

validate: $(STAMP)
	$(BIN)/pnp validate

bench: $(TESTSTAMP)
	$(BIN)/python -m benchmarks

bench-quick: $(TESTSTAMP)
	$(BIN)/python -m benchmarks --quick

docs: $(TESTSTAMP)
	$(BIN)/python docs/make_figures.py
	$(BIN)/mkdocs build --strict

lint: $(TESTSTAMP)
	$(BIN)/ruff check generator tests cards

clean:
	rm -rf build
