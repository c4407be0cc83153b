# `make demo` runs the main job, `make test` the test suite; both set up .venv first.
# `make check` is the inner loop: lint, types and the tests not marked heavy.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check lint bench fuzz pictures system-packages clean

# torch and torchvision are pinned exactly so that pip takes the CPU wheels
# already on this machine instead of downloading a CUDA build.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet torch==2.14.1 torchvision==0.29.1
	$(BIN)/pip install --quiet -e '.[dev,interp,tvm,torch,viz,iree,bench]'
	touch $(STAMP)

# Debian packages (package:command, or package:/path of a file it installs)
# the tests need: Graphviz's `dot` and Chromium (driven by Playwright without
# Playwright's own browsers) for the pictures and the browser tests; LLVM 22's
# MLIR tools and clang to compile and run models (relay_xdsl/compiler;
# mlir-22-tools brings the runner libraries), and LLVM's OpenMP runtime for
# the models compiled to run on several threads (--threads). Installed when
# make runs as root with apt-get; otherwise make stops and says what to install.
SYSTEM_PACKAGES := graphviz:dot chromium:chromium mlir-22-tools:mlir-opt-22 \
	mlir-22-tools:mlir-translate-22 mlir-22-tools:mlir-runner-22 clang-22:clang-22 \
	libomp-22-dev:/usr/lib/llvm-22/lib/libomp.so
system-packages:
	@missing=""; \
	for entry in $(SYSTEM_PACKAGES); do \
		{ command -v $${entry#*:} || test -e $${entry#*:}; } >/dev/null || case " $$missing " in \
			*" $${entry%%:*} "*) ;; \
			*) missing="$$missing $${entry%%:*}" ;; \
		esac; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update && apt-get install -y $$missing; \
		else \
			echo "make: the tests (pictures, browser, compiled models) need:$$missing; install them with: sudo apt-get install$$missing" >&2; \
			exit 1; \
		fi; \
	fi

demo: $(STAMP)
	$(BIN)/python -m relay_xdsl.tools.demo

# pytest runs on every core (pytest-xdist), a test file to a worker so that
# each file's module fixtures (one compile of its cases) run once, in the
# order tests/conftest.py gives (longest first); lit runs on every core by itself.
PYTEST_WORKERS ?= auto
PYTEST_ARGS ?=

lint: $(STAMP)
	$(BIN)/ruff check relay_xdsl bench tests docs
	$(BIN)/ruff format --check relay_xdsl bench tests docs
	$(BIN)/mypy

test: lint system-packages
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lit -sv tests/filecheck

# The fast subset: no compiled models, TVM, PyTorch or browser (tests/conftest.py marks those).
check: lint
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not heavy"

# Longer fuzzing than `make test` does: hypothesis with fresh random inputs,
# the 1M-op chain, then atheris (coverage-guided) on each input path.
# Crashes land in build/fuzz; see tests/fuzz/harness.py.
FUZZ_EXAMPLES ?= 5000
FUZZ_SECONDS ?= 120
fuzz: $(STAMP)
	RELAY_XDSL_FUZZ_RANDOM=1 RELAY_XDSL_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) RELAY_XDSL_STRESS=1 \
		$(BIN)/python -m pytest -q tests/fuzz tests/tools/test_hostile_input.py --hypothesis-show-statistics
	mkdir -p build/fuzz
	if $(BIN)/pip install --quiet atheris; then \
		for target in relay-text metadata mlir pipeline; do \
			(cd build/fuzz && $(CURDIR)/$(BIN)/python $(CURDIR)/tests/fuzz/atheris_fuzz.py $$target \
				-max_total_time=$(FUZZ_SECONDS) -timeout=30 -rss_limit_mb=4096) || exit 1; \
		done; \
	else echo "atheris does not install here; hypothesis fuzzing only"; fi

# Regenerate docs/pictures/ (tests/docs/test_pictures.py checks they are current).
pictures: $(STAMP) system-packages
	$(BIN)/python docs/gen_pictures.py

bench: $(STAMP) system-packages
	$(BIN)/python -m bench
	$(BIN)/python -m bench.compiled --markdown bench/compiled.md

clean:
	rm -rf $(VENV) tests/filecheck/**/Output
