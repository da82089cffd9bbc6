# The two commands of the README: `make run` starts the table, `make test` runs every check.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# pytest-xdist workers of the unit and the browser tests (`make test E2E_WORKERS=3` to try another count)
UNIT_WORKERS ?= 2
E2E_WORKERS ?= 2

.PHONY: run test lint unit e2e fuzz bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/vtt

lint: $(STAMP)
	$(VENV)/bin/ruff check vtt tests e2e bench
	$(VENV)/bin/ruff format --check vtt tests e2e bench
	$(VENV)/bin/mypy vtt tests e2e bench

# Two workers (pytest-xdist): the unit tests are CPU-bound, and ruff and mypy beside them leave a core idle most of
# the time.
unit: $(STAMP)
	$(PY) -m pytest tests -q -p no:playwright -n $(UNIT_WORKERS)

# Two workers, each with its own browser, table servers and PostgreSQL: the suite is CPU-bound (about 19 CPU-minutes
# with the full chromium, most of them in the browser's processes), so two workers keep both cores busy and a third
# makes it no shorter. Each test goes to whichever worker is free, the longest first
# (e2e/schedule.py), except a file marked xdist_group, whose module's server serves all its tests on one worker
# (e2e/schedule.py's GroupScheduling); pytest-xdist's own reordering (by the number of tests in a group) is turned off
# so that order stands.
e2e: $(STAMP)
	bash e2e/ensure_chromium.sh
	$(PY) -m pytest e2e -q -p no:asyncio -W ignore::pytest.PytestConfigWarning -n $(E2E_WORKERS) --dist loadgroup \
		--no-loadscope-reorder

# Lint and the unit tests side by side (one core each, their outputs kept apart), then the browser tests, which need
# both cores.
test: $(STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target lint unit
	$(MAKE) --no-print-directory e2e

# The unit tests' properties with ten times the examples of `make test` (Hypothesis profile `thorough`).
fuzz: $(STAMP)
	$(PY) -m pytest tests -q -p no:playwright --hypothesis-profile=thorough

bench: $(STAMP)
	$(PY) bench/rules.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
