# The README's commands call these targets. `setup` is idempotent: it installs the system
# libraries Qt needs (when missing) and the Python dependencies into .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
RUN_STAMP := $(VENV)/.installed-run-stamp
# Quiet installs: no "running pip as root" banner, no pip-upgrade notice, and no setuptools
# "Editable installation … be careful with folders …" banner (a Python warning of the build
# backend, silenced for the install only).
PIP := PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet --disable-pip-version-check --root-user-action=ignore

.PHONY: setup setup-run system-deps test-system-deps translations run test lint format bench package clean

# Everything for tests, lint and benchmarks (the validators of tests/packaging included).
setup: test-system-deps $(STAMP) translations

# What running needs, nothing more (`make run`).
setup-run: system-deps $(RUN_STAMP) translations

system-deps:
	@bash scripts/install-system-deps.sh

test-system-deps:
	@bash scripts/install-system-deps.sh --test

# The window's translations: translations/*.ts compiled to resources/i18n/*.qm (git-ignored).
translations: $(RUN_STAMP)
	@$(BIN)/python scripts/i18n.py release >/dev/null

$(VENV)/bin/python:
	$(PY) -m venv $(VENV)
	$(PIP) --upgrade pip

$(RUN_STAMP): pyproject.toml $(VENV)/bin/python
	$(PIP) -e .
	@touch $(RUN_STAMP)

$(STAMP): pyproject.toml $(VENV)/bin/python
	$(PIP) -e '.[test,dev]'
	@touch $(STAMP) $(RUN_STAMP)

run: setup-run
	$(BIN)/desktop-agent

test: setup
	@bash scripts/install-test-deps.sh
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: setup
	@for b in benchmarks/bench_*.py; do echo "== $$b"; QT_QPA_PLATFORM=offscreen $(BIN)/python $$b || exit 1; done

# The one-folder app dist/desktop-agent/ (PyInstaller, installed into .venv when missing).
package: setup
	$(BIN)/python packaging/build.py

clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
