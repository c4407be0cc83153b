# `make demo` runs the main job, `make test` the test suite; both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lit pytest clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m relay_xdsl.demo

test: $(STAMP)
	$(BIN)/python -m pytest -q
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lit -v tests/filecheck

clean:
	rm -rf $(VENV) tests/filecheck/**/Output
