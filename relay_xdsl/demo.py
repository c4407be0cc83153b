"""`make demo`: the seed's DefuseOps example, run through relay-xdsl.

Reads the fused module TVM printed (MergeComposite + PartitionGraph output of
resnet18's first layers), imports it into the relay dialect, runs
``relay-defuse``, prints the result as Relay text, and checks it against the
output of TVM's own ``DefuseOps`` on the same module.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from xdsl.context import Context

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.text_equivalence import relay_text_diff
from relay_xdsl.transforms.defuse import RelayDefusePass

SEED = Path(__file__).resolve().parent.parent / "examples" / "seed"


def _count(module, op_type) -> int:
    return sum(isinstance(op, op_type) for op in module.walk())


def main() -> int:
    fused_text = (SEED / "fused.relay").read_text()
    expected = (SEED / "defused.relay").read_text()

    print("== fused module (TVM MergeComposite + PartitionGraph) ==")
    print(fused_text)
    start = time.perf_counter()
    module = parse_relay(fused_text, "fused.relay")
    fns = _count(module, relay.FnOp)
    RelayDefusePass().apply(Context(), module)
    module.verify()
    elapsed = time.perf_counter() - start
    defused = print_relay(module)
    print("== after relay-defuse ==")
    print(defused)

    operators = _count(module, relay.OperatorOp)
    print(
        f"relay.fn inlined: {fns} -> {_count(module, relay.FnOp)}; operator ops: {operators}; "
        f"import + defuse: {elapsed * 1000:.1f} ms"
    )
    diff = relay_text_diff(expected, defused)
    if diff:
        print("MISMATCH against TVM's DefuseOps output:\n" + diff)
        return 1
    print(
        "matches TVM's DefuseOps output (up to whitespace, comments and temp numbering)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
