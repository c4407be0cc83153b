# `make demo` runs the main job, `make test` the test suite; both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean

# torch and torchvision are pinned exactly so that pip takes the CPU wheels
# already on this machine instead of downloading a CUDA build.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet torch==2.14.1 torchvision==0.29.1
	$(BIN)/pip install --quiet -e '.[dev,tvm,torch]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m relay_xdsl.demo

test: $(STAMP)
	$(BIN)/python -m pytest -q
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lit -v tests/filecheck

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) tests/filecheck/**/Output
