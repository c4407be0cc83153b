"""The passes' output, pinned: optimising them must not change the IR they produce.

For each pinned graph, the SHA-256 (first 16 hex digits) of the Relay text
of: the Relax import, ``relay-merge-composite``'s output, ``relay-defuse``
of that, and ``relay-fuse-ops``' output. Relay text spells out every op,
attribute, type, name and constant byte, so equal digests mean the same
program. The code before the performance work recorded in
``bench/README.md`` produced the same Relay text for every pinned graph
(compared without the Relax importer's bookkeeping attributes, which its
printer could not write yet).

``python -m bench`` checks the graphs it runs that are pinned;
``tests/bench/test_expected_ir.py`` checks the 1k graphs in ``make test``;
``python -m bench.expected_ir GRAPH...`` prints fresh digests (to pin a
deliberate change of output).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import tvm
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relax import import_relax
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass

EXPECTED = Path(__file__).with_name("expected_ir.json")


# Type comments that only repeat a type the text spells out already: after a
# declared variable (`%x: T /* ty=T */`) and after a function literal's closing
# brace (its parameter and result types are in its header). The printer writes
# them as TVM does; leaving them out of the digest keeps the pins from before
# it did, so an unchanged digest still means an unchanged program.
_REPEATED_TYPE = re.compile(r": ([^=/]*?) /\* ty=\1 \*/")
_LITERAL_TYPE = re.compile(r"^(\s*)\} /\* ty=fn [^\n]*? \*/", re.MULTILINE)


def _digest(module: ModuleOp) -> str:
    # The metadata section is one long JSON line that the patterns would scan
    # quadratically, and it holds no type comments.
    program, marker, metadata = print_relay(module).partition("#[metadata]")
    program = _LITERAL_TYPE.sub(r"\1}", _REPEATED_TYPE.sub(r": \1", program))
    text = program + marker + metadata
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _after(module: ModuleOp, *passes: ModulePass) -> ModuleOp:
    for module_pass in passes:
        module_pass.apply(Context(), module)
    return module


def digests(mod: tvm.IRModule) -> dict[str, str]:
    """Digests of the Relay text of each pinned output for Relax module `mod`."""
    outputs: dict[str, Callable[[], ModuleOp]] = {
        "relax-import": lambda: import_relax(mod),
        "relay-merge-composite": lambda: _after(import_relax(mod), RelayMergeCompositePass()),
        "relay-merge-composite,relay-defuse": lambda: _after(
            import_relax(mod), RelayMergeCompositePass(), RelayDefusePass()
        ),
        "relay-fuse-ops": lambda: _after(import_relax(mod), RelayFuseOpsPass()),
    }
    return {name: _digest(make()) for name, make in outputs.items()}


def expected(graph: str) -> dict[str, str] | None:
    """The pinned digests of `graph`, if it is pinned."""
    return json.loads(EXPECTED.read_text()).get(graph)


def mismatches(graph: str, mod: tvm.IRModule) -> list[str]:
    """How the outputs for `graph` differ from their pinned digests (empty if they do not)."""
    pinned = expected(graph)
    if pinned is None:
        return []
    actual = digests(mod)
    return [
        f"{graph}: {output}'s output changed (Relay text digest {actual.get(output)}, "
        f"pinned {digest})"
        for output, digest in pinned.items()
        if actual.get(output) != digest
    ]


if __name__ == "__main__":
    from bench.graphs import build

    sys.setrecursionlimit(100_000)
    print(json.dumps({name: digests(build(name).mod) for name in sys.argv[1:]}, indent=2))
