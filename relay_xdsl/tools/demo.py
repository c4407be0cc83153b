"""`make demo`: the seed's DefuseOps pipeline, on Relay text and on a live resnet18.

1. The seed's own texts: the fused module TVM printed (MergeComposite +
   PartitionGraph output of resnet18's first layers) is imported, defused
   with ``relay-defuse`` and checked against TVM's ``DefuseOps`` output.
2. The seed's pipeline on TVM as it is today (Relax): torchvision resnet18 →
   TVM Relax → conv2d(+add)(+relu) fused by TVM's ``FuseOpsByPattern`` →
   relay dialect → ``relay-defuse`` → Relax again, checked for structural
   equality with the unfused module in TVM and for numerics against PyTorch.

The MLIR before and after defusing is written to ``build/demo/``.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.equivalence import relay_text_diff
from relay_xdsl.support.gc_pause import gc_paused, with_gc_paused
from relay_xdsl.support.timing import Steps
from relay_xdsl.transforms.defuse import RelayDefusePass

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "examples" / "seed"
OUTPUT = ROOT / "build" / "demo"
MODEL = "resnet18"


def _count(module: ModuleOp, op_type: type) -> int:
    return sum(isinstance(op, op_type) for op in module.walk())


def seed_text_pipeline() -> bool:
    fused_text = (SEED / "fused.relay").read_text()
    expected = (SEED / "defused.relay").read_text()
    print("== 1. The seed's fused module (TVM MergeComposite + PartitionGraph) ==")
    print(fused_text)
    steps = Steps()
    module = steps.time("import", lambda: parse_relay(fused_text, "fused.relay"))
    fns = _count(module, relay.FnOp)
    steps.time("relay-defuse", lambda: RelayDefusePass().apply(Context(), module))
    module.verify()
    defused = print_relay(module)
    print("== after relay-defuse ==")
    print(defused)
    diff = relay_text_diff(expected, defused)
    print(
        f"relay.fn: {fns} created by TVM, {fns - _count(module, relay.FnOp)} removed; "
        f"operator ops: {_count(module, relay.OperatorOp)}; "
        + ", ".join(f"{step} {seconds * 1e3:.1f} ms" for step, seconds in steps.seconds.items())
    )
    if diff:
        print("MISMATCH against TVM's DefuseOps output:\n" + diff)
        return False
    print("matches TVM's DefuseOps output (up to whitespace, comments and temp numbering)\n")
    return True


def resnet_pipeline() -> bool:
    import numpy as np
    import tvm

    from relay_xdsl.exporters.relax import export_relax
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.tools.mlir_text import mlir_text
    from relay_xdsl.tvm import models as tvm_models

    print(f"== 2. The seed's pipeline on torchvision {MODEL}, live in TVM Relax ==")
    steps = Steps()
    mod = steps.time("torchvision -> Relax", lambda: tvm_models.relax_module(MODEL))
    folded = steps.time("fold batch norms", lambda: tvm_models.fold(mod))
    fused = steps.time("FuseOpsByPattern (TVM)", lambda: tvm_models.fuse(folded))
    module = steps.time("import to relay dialect", lambda: with_gc_paused(import_relax)(fused))
    module.verify()
    fns = _count(module, relay.FnOp)
    operators = _count(module, relay.OperatorOp)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / f"{MODEL}_fused.mlir").write_text(mlir_text(module))
    steps.time("relay-defuse", lambda: RelayDefusePass().apply(Context(), module))
    module.verify()
    (OUTPUT / f"{MODEL}_defused.mlir").write_text(mlir_text(module))
    defused = steps.time("export to Relax", lambda: export_relax(module))

    try:
        tvm.ir.assert_structural_equal(defused, folded)
        structural = "OK"
    except ValueError as error:
        structural = f"FAILED: {str(error).splitlines()[0]}"
    expected = tvm_models.torch_output(MODEL)
    (actual,) = steps.time(
        "relax.build + VM run",
        lambda: tvm_models.run(defused, tvm_models.example_input().numpy()),
    )
    max_error = float(np.max(np.abs(actual - expected)))

    kinds = Counter(op.operator_name for op in module.walk() if isinstance(op, relay.OperatorOp))
    print(
        f"relay dialect ops: {operators} operator ops ("
        + ", ".join(f"{name} {count}" for name, count in kinds.most_common())
        + ")"
    )
    print(f"relay.fn created: {fns}, removed by relay-defuse: {fns - _count(module, relay.FnOp)}")
    print(
        f"MLIR written to {OUTPUT / f'{MODEL}_fused.mlir'} and {OUTPUT / f'{MODEL}_defused.mlir'}"
    )
    for step, seconds in steps.seconds.items():
        print(f"  {step:<26} {seconds * 1e3:9.1f} ms")
    print(
        f"structural equality with the unfused module (tvm.ir.assert_structural_equal): {structural}"
    )
    print(
        f"max abs error against PyTorch: {max_error:.3g} ({'OK' if max_error <= 1e-4 else 'above 1e-4'})"
    )
    return structural == "OK" and max_error <= 1e-4


def main() -> int:
    # relay-xdsl's steps run with the collector paused, as the relay-xdsl command runs them.
    with gc_paused():
        ok = seed_text_pipeline()
    ok = resnet_pipeline() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
