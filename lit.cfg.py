"""lit configuration for the FileCheck tests in tests/filecheck."""

import os

import lit.formats

config.name = "relay-xdsl"
config.test_format = lit.formats.ShTest(preamble_commands=[])
config.suffixes = [".mlir", ".relay"]
config.test_source_root = os.path.join(os.path.dirname(__file__), "tests", "filecheck")
config.excludes = ["Inputs"]
config.environment["PATH"] = os.environ["PATH"]

# Print in custom syntax, re-parse in generic syntax, print custom again.
config.substitutions.append(
    (
        "%RELAY_ROUNDTRIP",
        "xdsl-opt --print-op-generic | xdsl-opt | xdsl-opt",
    )
)
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
