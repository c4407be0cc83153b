"""lit configuration for the FileCheck tests in tests/filecheck."""

import os
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

# Print in custom syntax, re-parse in generic syntax, print custom again.
config.substitutions.append(
    (
        "%RELAY_ROUNDTRIP",
        "xdsl-opt --print-op-generic | xdsl-opt | xdsl-opt",
    )
)
config.substitutions.append(("%examples", os.path.join(config.test_source_root, "examples")))
