# The two commands of the README: `make serve` and `make test`. Everything they need is
# installed here, into .venv, so a fresh machine needs only python3 and git.
VENV ?= .venv
BIN := $(VENV)/bin
# `make serve PORT=9000` serves on another port.
PORT ?= 8765
PIP := $(BIN)/pip --disable-pip-version-check -q

.PHONY: serve test test-fast lint model bench clean chromium

serve: $(VENV)/.installed model
	$(BIN)/triform serve --port $(PORT)

# Test workers (pytest-xdist): one per core by default; `make test WORKERS=1` runs serially.
WORKERS ?= auto
# What `make test-fast` leaves out: the marks tests/conftest.py gives by folder and fixture.
SLOW := journey or package or bench or browser or pg or model or process or slow

# Everything, CI's command: the lint, the unit tests, the journeys, PostgreSQL, Chromium, the
# real model, the benchmarks' tests, and the two wheels built and installed outside the
# checkout (tests/packaging).
test: $(VENV)/.installed-test model lint chromium
	$(BIN)/pytest -n $(WORKERS)

# The unit layer, before a small change is committed (README, "Tests").
test-fast: $(VENV)/.installed-test
	$(BIN)/pytest -n $(WORKERS) -m "not ($(SLOW))"

# Debian's Chromium for the console's browser tests (Playwright drives /usr/bin/chromium;
# nothing is downloaded at run time). Where apt-get may not run, those tests skip and say so.
chromium:
	@test -x /usr/bin/chromium || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium) \
		|| echo "chromium could not be installed: the console's browser tests will skip"

# The linter and the type checker (strict; settings in pyproject.toml) on every layer.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy

model: $(VENV)/.installed
	$(BIN)/triform model provision

# The server and its Python client (the command line talks to a running server with it).
$(VENV)/.installed: pyproject.toml clients/python/pyproject.toml
	test -d $(VENV) || python3 -m venv $(VENV)
	$(PIP) install -e '.[postgres]' -e clients/python
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed clients/python/pyproject.toml
	$(PIP) install -e '.[test]' -e clients/python
	touch $@

bench: $(VENV)/.installed model
	$(BIN)/python bench/memory_bench.py --quick

clean:
	rm -rf $(VENV) *.egg-info
