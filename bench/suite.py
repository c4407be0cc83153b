"""One benchmark graph through every step, ours and TVM's, with the checks.

Steps, in this order (TVM's counterpart in brackets):

* ``relax-import``: ``import_relax`` of the unfused module [none];
* ``relay-text-import``: ``parse_relay`` of ``print_relay``'s text [none:
  TVM 0.27 has no Relay];
* ``relay-merge-composite`` with the ``conv2d-add-relu`` table
  [``FuseOpsByPattern(conv_add_relu_patterns(), bind_constants=False)``];
* ``relay-defuse`` on the import of ``FuseOpsByPattern``'s output
  [``InlinePrivateFunctions`` on that same output];
* ``relay-fuse-ops`` [``FuseOps`` after ``LegalizeOps`` +
  ``AnnotateTIROpPattern``, which are not timed];
* ``relay-text-print``: ``print_relay`` [none];
* ``relax-export``: ``export_relax`` [none];
* ``interpreter-run``, on the torchvision models only: the reference
  interpreter on the imported module [PyTorch eager on the same input]; its
  output is checked against PyTorch's (1e-4).

Passes rewrite in place, so each of our runs gets a fresh ``clone()`` of
the input, made outside the timed region; TVM's passes are functional and
run on the same module each time.

On the 100k graphs TVM's counterparts are not run unless asked for
(``--tvm-at-100k``): together they take several minutes there, and the
goals against TVM are set on the 10k graphs and resnet50. ``relay-defuse``
then runs on ``relay-merge-composite``'s output, whose groups are checked
to be ``FuseOpsByPattern``'s on the smaller graphs.

Checks (an exception fails the benchmark):

* ``relay-defuse`` after ``relay-merge-composite`` gives back the unfused
  module (the same Relay text, compared as :func:`program`); after
  ``relay-fuse-ops`` too or, where TVM's groups are not contiguous, the
  same dataflow graph with each group gathered (see :func:`dataflow_digest`);
  on the import of ``FuseOpsByPattern``'s output, the same dataflow graph up
  to variable names (``FuseOpsByPattern`` names the values inside its
  functions afresh);
* ``relay-merge-composite`` forms ``FuseOpsByPattern``'s groups, and
  ``relay-fuse-ops`` ``FuseOps``' groups, with the same operators;
* the Relay text re-parses to the same text; the Relax export is
  structurally equal to the original module;
* on the pinned graphs, the passes' output is the pinned one, which is
  also what the code before the performance work produced
  (:mod:`bench.expected_ir`).
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tvm
import tvm_ffi
from tvm import relax
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, SSAValue

from bench import expected_ir
from bench.graphs import Graph
from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relax import export_relax
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relax import import_relax
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.support.gc_pause import with_gc_paused
from relay_xdsl.support.timing import Policy, Timing, measure
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass
from relay_xdsl.tvm import grouping as tvm_grouping
from relay_xdsl.tvm import models as tvm_models

STEPS = (
    "relax-import",
    "relay-text-import",
    "relay-merge-composite",
    "relay-defuse",
    "relay-fuse-ops",
    "relay-text-print",
    "relax-export",
    "interpreter-run",
)

TVM_COUNTERPARTS = {
    "relay-merge-composite": "FuseOpsByPattern",
    "relay-defuse": "InlinePrivateFunctions",
    "relay-fuse-ops": "FuseOps",
    "interpreter-run": "PyTorch eager",
}

GOALS = {"relay-merge-composite": 0.5, "relay-defuse": 0.2, "relay-fuse-ops": 1.0}
"""Goal for ours/TVM (at most), on resnet50 and the 10k graphs."""


_SKIPPED_AT_100K = "not run at 100k (--tvm-at-100k)"


class CheckFailed(AssertionError):
    """A pass did not give back what it should."""


@dataclass
class Row:
    graph: str
    step: str
    ops: int
    ours: Timing
    tvm: Timing | None = None
    tvm_note: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        return None if self.tvm is None else self.ours.median / self.tvm.median

    @property
    def cpu_ratio(self) -> float | None:
        return None if self.tvm is None else self.ours.cpu_median / self.tvm.cpu_median


@dataclass
class Options:
    policy: Policy = field(default_factory=Policy)
    tvm_at_100k: bool = False
    """Also run TVM's counterparts on the 100k graphs (several minutes more)."""


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def _composite_calls(mod: tvm.IRModule) -> int:
    """Calls of ``Composite`` functions: the groups ``FuseOpsByPattern`` formed."""
    composites = {gv.name_hint for gv, f in mod.functions.items() if "Composite" in f.attrs}
    count = 0

    def visit(node: Any) -> None:
        nonlocal count
        if isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.GlobalVar):
            count += node.op.name_hint in composites

    for func in mod.functions.values():
        relax.analysis.post_order_visit(func, visit)
    return count


def _fns(module: ModuleOp, attribute: str) -> int:
    return sum(isinstance(op, relay.FnOp) and attribute in op.attributes for op in module.walk())


def dataflow_digest(module: ModuleOp) -> Counter[int]:
    """A digest of `module`'s dataflow graphs that ignores the order of independent ops.

    Each value is keyed by the op computing it (name, attributes, properties)
    and the keys of its operands; the digest is the multiset of all keys, so
    two modules agree when they compute the same values the same way.
    """
    keys: dict[SSAValue, int] = {}
    digest: Counter[int] = Counter()

    def visit_block(block: Block, salt: int) -> int:
        """Key every value of `block`; the key of what its terminator returns."""
        for index, arg in enumerate(block.args):
            keys[arg] = hash(("arg", salt, index, arg.type))
        for op in block.ops:
            inner = tuple(
                visit_block(b, hash((op.name, index)))
                for index, region in enumerate(op.regions)
                for b in region.blocks
            )
            key = hash(
                (
                    op.name,
                    tuple(sorted(op.attributes.items())),
                    tuple(sorted(op.properties.items())),
                    tuple(keys[o] for o in op.operands),
                    inner,
                )
            )
            digest[key] += 1
            for index, result in enumerate(op.results):
                keys[result] = hash((key, index))
        last = block.last_op
        return hash(tuple(keys[o] for o in last.operands)) if last is not None else 0

    for func in module.ops:
        for region in func.regions:
            for block in region.blocks:
                visit_block(block, hash(func.properties.get("sym_name", func.name)))
    return digest


def program(module: ModuleOp) -> list[int]:
    """`module`'s program as its Relay text shows it, as hashes: what identity compares.

    One hash per op other than a constant, in walk order: the op's name,
    attributes, properties, result types and names (SSA name hints), and
    its operands (block arguments by position, constants by value, other
    results by their op's position). Constants are left out of the order
    because Relay text writes them inline where they are used; their place
    in the block is the one thing ``relay-defuse`` cannot restore (see
    ``relay-merge-composite``). Equal lists mean equal Relay text, and this
    costs a tenth of printing it.
    """
    keys: dict[SSAValue, int] = {}
    order: list[int] = []
    for op in module.walk():
        for region_index, region in enumerate(op.regions):
            for block in region.blocks:
                for index, arg in enumerate(block.args):
                    keys[arg] = hash(("arg", region_index, index, arg.type, arg.name_hint))
        if isinstance(op, relay.ConstantOp):
            keys[op.result] = hash(("constant", op.result.type, tuple(op.attributes.items())))
            continue
        key = hash(
            (
                op.name,
                tuple(op.attributes.items()),
                tuple(op.properties.items()),
                tuple((r.type, r.name_hint) for r in op.results),
                tuple(keys.get(o, 0) for o in op.operands),
            )
        )
        order.append(key)
        for index, result in enumerate(op.results):
            keys[result] = hash((len(order), index))
    return order


def _defused_program(module: ModuleOp) -> list[int]:
    RelayDefusePass().apply(Context(), module)
    return program(module)


def merge_composite(module: ModuleOp) -> ModuleOp:
    RelayMergeCompositePass().apply(Context(), module)
    return module


def defuse(module: ModuleOp) -> ModuleOp:
    RelayDefusePass().apply(Context(), module)
    return module


def fuse_ops(module: ModuleOp) -> ModuleOp:
    RelayFuseOpsPass().apply(Context(), module)
    return module


class GraphBench:
    """Runs every step on one graph; :meth:`run` returns one row per step."""

    def __init__(
        self,
        graph: Graph,
        options: Options,
        log: Callable[[str], None] = print,
        keep_fused: bool = False,
    ):
        self.graph = graph
        self.keep_fused = keep_fused
        self.options = options
        self.log = log
        self.ops = graph.ops
        self.rows: dict[str, Row] = {}
        self.fused_module: ModuleOp | None = None
        """The import of FuseOpsByPattern's output, kept with `keep_fused` (for end-to-end runs)."""

    @property
    def _full_tvm(self) -> bool:
        return self.graph.size != "100k" or self.options.tvm_at_100k

    def _time(
        self,
        work: Callable[[Any], Any],
        fresh: Callable[[], Any] | None = None,
        check: Callable[[Any, Any], None] | None = None,
        *,
        pause_gc: bool = False,
    ) -> Timing:
        return measure(work, self.options.policy, fresh, check, pause_gc=pause_gc)

    def _time_ours(
        self,
        work: Callable[[Any], Any],
        fresh: Callable[[], Any] | None = None,
        check: Callable[[Any, Any], None] | None = None,
    ) -> Timing:
        """One of our steps that builds or rewrites a module, timed with the collector
        paused as relay-xdsl's commands run it (relay_xdsl/support/gc_pause.py)."""
        return self._time(work, fresh, check, pause_gc=True)

    def _row(self, step: str, ours: Timing, tvm: Timing | None = None, note: str = "") -> Row:
        ours.result = None
        if tvm is not None:
            tvm.result = None
        row = Row(self.graph.name, step, self.ops, ours, tvm, note)
        self.rows[step] = row
        ratio = f", TVM {tvm.median * 1e3:.1f} ms" if tvm else ""
        self.log(f"  {step:<22} ours {ours.median * 1e3:10.1f} ms (n={ours.runs}){ratio}")
        return row

    def run(self) -> list[Row]:
        mod = self.graph.mod
        self.log(f"{self.graph.name}: {self.ops} ops")

        # relax-import: keep the last import as the unfused reference module.
        timing = self._time_ours(lambda _: import_relax(mod))
        module: ModuleOp = timing.result
        timing.result = None
        self._row("relax-import", timing)
        reference_program = program(module)

        # relay-text-print, and relay-text-import of its output.
        text = print_relay(module)

        def print_check(_: Any, printed: str) -> None:
            _expect(printed == text, f"{self.graph.name}: print_relay is not deterministic")

        self._row(
            "relay-text-print", self._time_ours(lambda _: print_relay(module), check=print_check)
        )

        def reparse_check(_: Any, parsed: ModuleOp) -> None:
            _expect(
                print_relay(parsed) == text,
                f"{self.graph.name}: Relay text does not re-parse to itself",
            )

        self._row(
            "relay-text-import", self._time_ours(lambda _: parse_relay(text), check=reparse_check)
        )

        # relay-merge-composite vs FuseOpsByPattern.
        tvm_merge: Timing | None = None
        fused: tvm.IRModule | None = None
        fused_module: ModuleOp | None = None
        if self._full_tvm:
            tvm_merge = self._time(lambda _: tvm_models.fuse(mod))
            fused, tvm_merge.result = tvm_merge.result, None
            fused_module = import_relax(fused)
            tvm_groups = _composite_calls(fused)
            tvm_composites = Counter(tvm_grouping.composite_groups(fused_module))

        def merge_check(_: Any, merged: ModuleOp) -> None:
            if fused is not None:
                groups = _fns(merged, "Composite")
                _expect(
                    groups == tvm_groups,
                    f"{self.graph.name}: relay-merge-composite formed {groups} groups, "
                    f"FuseOpsByPattern {tvm_groups}",
                )
                _expect(
                    Counter(tvm_grouping.composite_groups(merged)) == tvm_composites,
                    f"{self.graph.name}: relay-merge-composite's groups are not FuseOpsByPattern's",
                )
            _expect(
                _defused_program(with_gc_paused(merged.clone)()) == reference_program,
                f"{self.graph.name}: relay-defuse after relay-merge-composite is not the identity",
            )

        ours = self._time_ours(
            merge_composite, fresh=with_gc_paused(module.clone), check=merge_check
        )
        merged, ours.result = ours.result, None
        if tvm_merge is not None:
            row = self._row("relay-merge-composite", ours, tvm_merge)
            row.notes.append(f"{tvm_groups} groups, the same as FuseOpsByPattern's")
        else:
            row = self._row("relay-merge-composite", ours, note=_SKIPPED_AT_100K)
            row.notes.append(f"{_fns(merged, 'Composite')} groups")

        # relay-defuse vs InlinePrivateFunctions, both on FuseOpsByPattern's output
        # (where FuseOpsByPattern did not run, on relay-merge-composite's output).
        module_digest = dataflow_digest(module)
        defuse_input = fused_module if fused_module is not None else merged

        def defuse_check(_: Any, defused: ModuleOp) -> None:
            _expect(
                dataflow_digest(defused) == module_digest,
                f"{self.graph.name}: relay-defuse of the fused module is not the unfused module",
            )

        ours = self._time(defuse, fresh=with_gc_paused(defuse_input.clone), check=defuse_check)
        if self.keep_fused:
            self.fused_module = defuse_input
        del merged, defuse_input, fused_module
        if fused is not None:
            inline = relax.transform.InlinePrivateFunctions()
            self._row("relay-defuse", ours, self._time(lambda _: inline(fused)))
        else:
            row = self._row("relay-defuse", ours, note=_SKIPPED_AT_100K)
            row.notes.append("input: relay-merge-composite's output")

        # relay-fuse-ops vs FuseOps (after LegalizeOps + AnnotateTIROpPattern, untimed).
        # relay-defuse gives the input back exactly when every group is contiguous in
        # it, and otherwise the same graph with each group gathered before its result.
        fused_groups: list[Counter[tuple[str, ...]]] = []
        reordered: list[bool] = []

        def fuse_check(_: Any, fused_ops: ModuleOp) -> None:
            fused_groups.append(Counter(tvm_grouping.primitive_groups(fused_ops)))
            if _defused_program(fused_ops) == reference_program:
                return
            _expect(
                dataflow_digest(fused_ops) == module_digest,
                f"{self.graph.name}: relay-defuse after relay-fuse-ops is not the same graph",
            )
            reordered.append(True)

        ours = self._time_ours(fuse_ops, fresh=with_gc_paused(module.clone), check=fuse_check)
        if self._full_tvm:
            legalized = relax.transform.AnnotateTIROpPattern()(relax.transform.LegalizeOps()(mod))
            fuse = relax.transform.FuseOps()
            tvm_groups_out: list[Counter[tuple[str, ...]]] = []
            tvm_fuse = self._time(
                lambda _: fuse(legalized),
                check=lambda _, out: tvm_groups_out.append(
                    Counter(g.operators for g in tvm_grouping.tvm_primitive_groups(out))
                ),
            )
            row = self._row("relay-fuse-ops", ours, tvm_fuse)
            ours_groups, tvm_groups_fused = fused_groups[-1], tvm_groups_out[-1]
            if ours_groups == tvm_groups_fused:
                row.notes.append(f"{ours_groups.total()} groups, the same as FuseOps'")
            else:
                row.notes.append(
                    f"groups differ: ours {ours_groups.total()}, FuseOps {tvm_groups_fused.total()} "
                    f"({(ours_groups - tvm_groups_fused).total()} of ours not in FuseOps')"
                )
            if reordered:
                row.notes.append("defuse gives the same graph, groups gathered")
            del legalized
        else:
            row = self._row("relay-fuse-ops", ours, note=_SKIPPED_AT_100K)
            row.notes.append(f"{fused_groups[-1].total()} groups")
            if reordered:
                row.notes.append("defuse gives the same graph, groups gathered")

        # relax-export.
        def export_check(_: Any, exported: tvm.IRModule) -> None:
            _expect(
                tvm_ffi.structural_equal(exported, mod),
                f"{self.graph.name}: export_relax(import_relax(m)) is not structurally equal to m",
            )

        self._row("relax-export", self._time(lambda _: export_relax(module), check=export_check))
        gc.collect()
        if self.graph.kind == "model":
            self._interpreter_row(module)

        # The outputs pinned before the performance work (untimed).
        changed = expected_ir.mismatches(self.graph.name, mod)
        _expect(not changed, "; ".join(changed))
        return [self.rows[step] for step in STEPS if step in self.rows]

    def _interpreter_row(self, module: ModuleOp) -> None:
        """The reference interpreter against PyTorch eager, on the model's example input."""
        import numpy as np
        import torch

        from relay_xdsl.interpreter import run as interpret

        name = self.graph.name
        example = tvm_models.example_input()
        expected = tvm_models.torch_output(name)

        def output_check(_: Any, outputs: list[Any]) -> None:
            error = float(np.abs(outputs[0] - expected).max())
            _expect(error <= 1e-4, f"{name}: the interpreter is {error:.2g} off PyTorch")

        ours = self._time(lambda _: interpret(module, {"x": example.numpy()}), check=output_check)
        model = tvm_models.torch_model(name)

        def eager(_: Any) -> Any:
            with torch.no_grad():
                return model(example)

        self._row("interpreter-run", ours, self._time(eager))
