"""lit configuration for the FileCheck tests in tests/filecheck."""

import atexit
import os
import shutil
import sys
import tempfile

import lit.formats

config.name = "relay-xdsl"
config.test_format = lit.formats.ShTest(preamble_commands=[])
config.suffixes = [".mlir", ".relay"]
config.test_source_root = os.path.dirname(__file__)
# Tests live under tests/filecheck; `Inputs` folders hold their data files.
config.excludes = ["Inputs", ".venv", "examples", "docs", "bench", "relay_xdsl", "build"]
# The tools (xdsl-opt, relay-xdsl, filecheck) live beside the Python running lit.
config.environment["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]])
# The tools import relay_xdsl from this checkout, whichever one the venv was installed from.
config.environment["PYTHONPATH"] = os.pathsep.join(
    [config.test_source_root, *filter(None, [os.environ.get("PYTHONPATH")])]
)
# Libraries built by the tests keep their objects in a cache of the run's own, never in
# the user's (relay_xdsl/compiler/cache.py).
object_cache = tempfile.mkdtemp(prefix="relay-xdsl-lit-cache-")
atexit.register(shutil.rmtree, object_cache, ignore_errors=True)
config.environment["RELAY_XDSL_CACHE"] = object_cache

# Print in custom syntax, re-parse in generic syntax, print custom again.
config.substitutions.append(
    (
        "%RELAY_ROUNDTRIP",
        "xdsl-opt --print-op-generic | xdsl-opt | xdsl-opt",
    )
)
config.substitutions.append(("%examples", os.path.join(config.test_source_root, "examples")))
config.substitutions.append(("%python", sys.executable))

# Upstream MLIR interop: our generic output (`--print-op-generic
# --print-debuginfo`, or `-t upstream-mlir`) through the real mlir-opt and back
# into xdsl-opt. Locations carry the Relay names (NameLoc, see
# relay_xdsl/dialects/relay/names.py) and --mlir-use-nameloc-as-prefix turns them back into
# SSA names. mlir-opt prints location aliases after the module, which xDSL's
# own parser cannot read: `-f upstream-mlir` (relay_xdsl/tools/mlir_text.py) can.
# (--mlir-print-local-scope would avoid the aliases, but drops dense_resource
# blobs.) Each chunk of a --split-input-file test travels on its own.
MLIR_OPT = (
    "mlir-opt-22 --split-input-file --allow-unregistered-dialect --mlir-print-op-generic"
    " --mlir-print-debuginfo --mlir-use-nameloc-as-prefix"
)
if shutil.which("mlir-opt-22"):
    config.available_features.add("mlir-opt-22")
config.substitutions.append(
    ("%UPSTREAM_ROUNDTRIP", MLIR_OPT + " | xdsl-opt --split-input-file -f upstream-mlir")
)
config.substitutions.append(("%MLIR_OPT", MLIR_OPT))

# Compiling and running with upstream MLIR (relay_xdsl/compiler): the pass
# pipeline from TOSA to the LLVM dialect, and mlir-runner with the runner
# libraries that print tensors, as in
#   RUN: mlir-opt-22 %mlir_pipeline %s | %mlir_runner | filecheck %s
#   RUN: relay-xdsl compile %s --emit runner -o - | %mlir_runner | filecheck %s
sys.path.insert(0, config.test_source_root)
from relay_xdsl.compiler import pipeline, toolchain

config.substitutions.append(
    ("%mlir_pipeline", f"'--pass-pipeline={pipeline.pass_pipeline(pipeline.BASELINE)}'")
)
try:
    SHARED_LIBS = toolchain.shared_libs_option()
    if shutil.which("mlir-runner-22"):
        config.available_features.add("mlir-runner-22")
except toolchain.ToolchainError:  # the tests that need them are UNSUPPORTED
    SHARED_LIBS = "-shared-libs=missing"
# With LLVM's OpenMP runtime too, for modules whose loops run on several threads
# (`relay-xdsl compile --threads N`, by default every core): `REQUIRES: libomp`.
try:
    SHARED_LIBS = toolchain.shared_libs_option(openmp=True)
    config.available_features.add("libomp")
except toolchain.ToolchainError:
    pass
# Longest first: lit would read %mlir_runner_libs as %mlir_runner, then "_libs".
config.substitutions.append(("%mlir_runner_libs", SHARED_LIBS))
config.substitutions.append(
    ("%mlir_runner", f"mlir-runner-22 -O3 -e main -entry-point-result=void {SHARED_LIBS}")
)

# IREE, the second compiled backend (the optional extra `iree`): the tests that
# compile with it say `REQUIRES: iree`, and are UNSUPPORTED without it.
try:
    import iree.compiler  # noqa: F401
    import iree.runtime  # noqa: F401

    config.available_features.add("iree")
except ImportError:
    pass

# The vectorising schedule (relay_xdsl/compiler/schedule.py), its transform
# script written to a file for mlir-opt to read: %mlir_schedule stops on tensors
# right after the schedule, %mlir_scheduled_pipeline goes on to the LLVM dialect.
from relay_xdsl.compiler.schedule import SCHEDULE

with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as script:
    script.write(SCHEDULE.script)
atexit.register(os.remove, script.name)
scheduled = pipeline.stages(SCHEDULE)
until_schedule = scheduled[: [stage.name for stage in scheduled].index("schedule") + 1]
# Longest first, as above.
for name, stages in [("scheduled_pipeline", scheduled), ("schedule", until_schedule)]:
    config.substitutions.append(
        (f"%mlir_{name}", f"'--pass-pipeline={pipeline.pass_pipeline(stages, script.name)}'")
    )
