"""lit configuration for the FileCheck tests in tests/filecheck."""

import os
import shutil
import sys

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

# Compiling and running with upstream MLIR: the pass pipeline from TOSA to the
# LLVM dialect, and mlir-runner with the runner libraries that print tensors:
#   RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic \
#   RUN:   | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s
MLIR_PIPELINE = (
    "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),"
    "one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,convert-linalg-to-loops,convert-scf-to-cf,"
    "expand-strided-metadata,lower-affine,convert-to-llvm,reconcile-unrealized-casts)"
)
RUNNER_LIBS = [
    f"/usr/lib/llvm-22/lib/lib{name}.so.22.1"
    for name in ("mlir_runner_utils", "mlir_c_runner_utils")
]
SHARED_LIBS = "-shared-libs=" + ",".join(RUNNER_LIBS)
if shutil.which("mlir-runner-22") and all(os.path.exists(lib) for lib in RUNNER_LIBS):
    config.available_features.add("mlir-runner-22")
config.substitutions.append(("%mlir_pipeline", f"'--pass-pipeline={MLIR_PIPELINE}'"))
config.substitutions.append(
    ("%mlir_runner", f"mlir-runner-22 -O3 -e main -entry-point-result=void {SHARED_LIBS}")
)
