# Two commands for a fresh machine:  make demo  (crawl the sandbox web)  and  make test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
export TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS :=

.PHONY: install realsites demo test test-stress test-explore lint clean

$(BIN)/bilingual-spider: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

install: $(BIN)/bilingual-spider

# Debian's documentation packages, fetched with apt-get download (never installed) + gold pairs.
realsites: install
	$(BIN)/bilingual-spider sandbox fetch

demo: realsites
	$(BIN)/bilingual-spider demo

# Two processes (pytest-xdist), each running whole test files (a file's module fixtures are built
# once; a third gains nothing on 2 cores). Crawls start as forks of an interpreter that has imported
# their libraries (tests/forkserver.py; BILINGUAL_TEST_FORKSERVER=off: new ones). TEST_WORKERS=0: one process, no
# pytest-xdist workers (to debug a failure). The files are taken slowest first (tests/conftest.py's
# SLOWEST_FILES; --no-loadscope-reorder keeps that order instead of pytest-xdist's, most tests
# first), so that no process runs the demo alone at the end.
TEST_WORKERS ?= 2
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

test: realsites
	$(PYTEST)

# The suite on a busy machine: two CPU-bound processes run beside it.
test-stress: realsites
	.ci/with-load -n 2 $(PYTEST)

# The suite's hypothesis tests with new random draws (the suite itself draws the same every run).
test-explore: realsites
	HYPOTHESIS_PROFILE=explore $(PYTEST)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) out .pytest_cache
