"""`make demo`: the seed's DefuseOps pipeline, on Relay text and on a live resnet18.

1. The seed's own texts: its original module (resnet18's first layers with
   batch norms, as TVM printed it) goes through ``relay-simplify-inference``,
   ``relay-fold-scale-axis``, ``relay-fold-constant`` and
   ``relay-merge-composite``, with the operator counts after each, and is
   checked against the fused module TVM printed (MergeComposite +
   PartitionGraph output); that is defused with ``relay-defuse`` (counts
   again) and checked against TVM's ``DefuseOps`` output. The numeric check:
   with random constants, the original, fused and defused modules give the
   same outputs in the interpreter. TVM's own fused text defuses to its
   ``DefuseOps`` output too.
2. The seed's pipeline on TVM as it is today (Relax): torchvision resnet18 →
   TVM Relax → conv2d(+add)(+relu) fused by TVM's ``FuseOpsByPattern`` →
   relay dialect → ``relay-defuse`` → Relax again, checked for structural
   equality with the unfused module in TVM and for numerics against PyTorch.
3. The inference passes on resnet18 with its batch norms (as TVM Relax
   imports it), run by the reference interpreter: the folded module against
   the unfolded one and PyTorch.

The MLIR before and after defusing is written to ``build/demo/``.
"""

from __future__ import annotations

import functools
import sys
from collections import Counter
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.equivalence import relay_text_diff
from relay_xdsl.support.gc_pause import gc_paused, with_gc_paused
from relay_xdsl.support.timing import Steps
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fold_constant import RelayFoldConstantPass
from relay_xdsl.transforms.fold_scale_axis import RelayFoldScaleAxisPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass
from relay_xdsl.transforms.simplify_inference import RelaySimplifyInferencePass

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed"
OUTPUT = ROOT / "build" / "demo"
MODEL = "resnet18"


def _count(module: ModuleOp, op_type: type) -> int:
    return sum(isinstance(op, op_type) for op in module.walk())


def _operator_counts(module: ModuleOp) -> str:
    kinds = Counter(op.operator_name for op in module.walk() if isinstance(op, relay.OperatorOp))
    counts = ", ".join(f"{name} {count}" for name, count in kinds.most_common())
    fns = _count(module, relay.FnOp)
    return f"{counts}; relay.fn {fns}" if fns else counts


INFERENCE_PASSES: tuple[type[ModulePass], ...] = (
    RelaySimplifyInferencePass,
    RelayFoldScaleAxisPass,
    RelayFoldConstantPass,
)


SEED_PIPELINE: tuple[type[ModulePass], ...] = (*INFERENCE_PASSES, RelayMergeCompositePass)


def _seed_pipeline(module: ModuleOp, steps: Steps | None = None) -> None:
    """The seed's first step on `module`: TVM's inference passes, then MergeComposite."""
    for pass_class in SEED_PIPELINE:
        pass_ = pass_class()
        if steps is None:
            pass_.apply(Context(), module)
            continue
        steps.time(pass_.name, functools.partial(pass_.apply, Context(), module))
        module.verify()
        milliseconds = steps.seconds[pass_.name] * 1e3
        print(f"after {pass_.name} ({milliseconds:.1f} ms): {_operator_counts(module)}")


def seed_original_pipeline() -> bool:
    """The seed's original module → its fused module → its defused module,
    each checked against what TVM printed, then the same three run by the
    interpreter on random constants."""
    original_text = (SEED / "original.relay").read_text()
    print("== 1. The seed: original -> fused -> defused ==")
    print(original_text)
    module = parse_relay(original_text, "original.relay")
    print(f"original: {_operator_counts(module)}")
    _seed_pipeline(module, Steps())
    fused = print_relay(module)
    print("== fused (after relay-merge-composite) ==")
    print(fused)
    ok = _same_text("the fused module TVM printed", (SEED / "fused.relay").read_text(), fused)
    steps = Steps()
    steps.time("relay-defuse", lambda: RelayDefusePass().apply(Context(), module))
    module.verify()
    milliseconds = steps.seconds["relay-defuse"] * 1e3
    print(f"after relay-defuse ({milliseconds:.1f} ms): {_operator_counts(module)}")
    defused = print_relay(module)
    print("== defused (after relay-defuse) ==")
    print(defused)
    expected = (SEED / "defused.relay").read_text()
    ok = _same_text("TVM's DefuseOps output", expected, defused) and ok
    return seed_numeric_check() and ok


def _same_text(what: str, expected: str, actual: str) -> bool:
    diff = relay_text_diff(expected, actual)
    if diff:
        print(f"MISMATCH against {what}:\n" + diff)
        return False
    print(f"matches {what} (up to whitespace, comments and temp numbering)\n")
    return True


SEED_CONSTANTS, SEED_INPUT = 0, 1
"""The seeds of the seed's random constants and of its random input."""


def seed_numeric_check() -> bool:
    """The seed's original, fused and defused modules give the same outputs.

    The seed's text has no constant values: each gets a random one
    (``--random-constants 0``: weights scaled by their fan-in, variances
    and gammas near 1) before the passes, so that the folded weights are
    computed from the same numbers. The error is measured against the
    largest output (about 7)."""
    import numpy as np

    from relay_xdsl.interpreter import parameters, run
    from relay_xdsl.interpreter.random_values import give_random_values, random_inputs

    original = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    give_random_values(original, SEED_CONSTANTS)
    fused = original.clone()
    _seed_pipeline(fused)
    defused = fused.clone()
    RelayDefusePass().apply(Context(), defused)
    inputs = random_inputs(parameters(original), SEED_INPUT)
    (expected,) = run(original, inputs)
    print(
        f"numeric check (interpreter, constants --random-constants {SEED_CONSTANTS}, "
        f"input --random-inputs {SEED_INPUT}; largest output {np.abs(expected).max():.4g}):"
    )
    ok = True
    for name, module in (("fused", fused), ("defused", defused)):
        (actual,) = run(module, inputs)
        error = float(np.abs(actual - expected).max())
        relative = error / float(np.abs(expected).max())
        good = relative <= 1e-4
        ok = ok and good
        verdict = "OK" if good else "above 1e-4"
        print(
            f"  {name} against original: max abs error {error:.3g}, "
            f"relative to the largest output {relative:.3g} ({verdict})"
        )
    print()
    return ok


def seed_text_pipeline() -> bool:
    fused_text = (SEED / "fused.relay").read_text()
    expected = (SEED / "defused.relay").read_text()
    print("== The seed's fused module as TVM printed it (MergeComposite + PartitionGraph) ==")
    steps = Steps()
    module = steps.time("import", lambda: parse_relay(fused_text, "fused.relay"))
    fns = _count(module, relay.FnOp)
    steps.time("relay-defuse", lambda: RelayDefusePass().apply(Context(), module))
    module.verify()
    defused = print_relay(module)
    print(
        f"relay.fn: {fns} created by TVM, {fns - _count(module, relay.FnOp)} removed; "
        f"after relay-defuse: {_operator_counts(module)}; "
        + ", ".join(f"{step} {seconds * 1e3:.1f} ms" for step, seconds in steps.seconds.items())
    )
    return _same_text("TVM's DefuseOps output", expected, defused)


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


def resnet_inference_pipeline() -> bool:
    import numpy as np

    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.interpreter import InterpreterError, run
    from relay_xdsl.tvm import models as tvm_models

    print(f"== 3. The inference passes on {MODEL} with its batch norms, run by the interpreter ==")
    relax_module = tvm_models.relax_module(MODEL)
    before, after = import_relax(relax_module), import_relax(relax_module)
    print(f"operators: {_operator_counts(after)}")
    steps = Steps()
    for pass_class in INFERENCE_PASSES:
        pass_ = pass_class()
        steps.time(pass_.name, functools.partial(with_gc_paused(pass_.apply), Context(), after))
        after.verify()
        milliseconds = steps.seconds[pass_.name] * 1e3
        print(f"after {pass_.name} ({milliseconds:.1f} ms): {_operator_counts(after)}")
    inputs = {"x": tvm_models.example_input().numpy()}
    try:
        (unfolded,) = run(before, inputs)
        (folded,) = steps.time("interpreter", lambda: run(after, inputs))
    except InterpreterError as error:
        print(f"not run: {error}")
        return True
    seconds = steps.seconds["interpreter"]
    error_unfolded = float(np.max(np.abs(folded - unfolded)))
    error_torch = float(np.max(np.abs(folded - tvm_models.torch_output(MODEL))))
    print(f"interpreter run of the folded module: {seconds:.2f} s")
    print(f"max abs error against the unfolded module: {error_unfolded:.3g}")
    print(f"max abs error against PyTorch: {error_torch:.3g}")
    return max(error_unfolded, error_torch) <= 1e-4


def main() -> int:
    # relay-xdsl's steps run with the collector paused, as the relay-xdsl command runs them.
    with gc_paused():
        ok = seed_original_pipeline()
        ok = seed_text_pipeline() and ok
    ok = resnet_pipeline() and ok
    ok = resnet_inference_pipeline() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
