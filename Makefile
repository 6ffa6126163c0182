# The README's commands call these targets. `setup` is idempotent: it installs the system
# libraries Qt needs (when missing) and the Python dependencies into .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup system-deps run test lint format bench package clean

setup: system-deps $(STAMP)

system-deps:
	@bash scripts/install-system-deps.sh

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	@touch $(STAMP)

run: setup
	$(BIN)/desktop-agent

test: setup
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

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
