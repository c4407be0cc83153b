"""The benchmark graphs, each built once as a Relax module.

TVM and relay-xdsl see the identical graph: TVM runs on the Relax module,
relay-xdsl on its :func:`~relay_xdsl.importers.relax.import_relax` import.

* **chain-N**: ``conv2d`` (3x3, padding 1) + ``add`` (bias) + ``relu``
  repeated, on 1x8x8x8 tensors, with distinct constant weights: N operator
  calls in one dataflow block, each value used once.
* **residual-N**: ResNet basic blocks, ``h' = relu(add(add(conv(relu(add(conv(h), b1))), b2), h))``,
  seven operator calls each; ``h`` fans out to the first convolution and to
  the residual ``add``, so the graph is a DAG and not a chain.
* **resnet18, resnet50, mobilenet_v2**: torchvision (random weights) via
  ``torch.export`` and TVM's PyTorch frontend, batch norms folded into the
  convolutions (``relay_xdsl.tvm.models.fold``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import tvm
import tvm_ffi
from tvm import relax
from tvm.relax.expr import _update_type

SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000}
MODELS = ("resnet18", "resnet50", "mobilenet_v2")
CHANNELS = 8
SHAPE = (1, CHANNELS, 8, 8)


@dataclass
class Graph:
    """One benchmark graph: its unfused Relax module and its size."""

    name: str
    kind: str
    """``chain``, ``residual`` or ``model``."""
    size: str | None
    """``1k``/``10k``/``100k`` for generated graphs."""
    mod: tvm.IRModule

    @property
    def ops(self) -> int:
        """Operator calls in the module (what a step's per-op cost is divided by)."""
        return count_operator_calls(self.mod)


def count_operator_calls(mod: tvm.IRModule) -> int:
    count = 0

    def visit(node: object) -> None:
        nonlocal count
        if isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.Op):
            count += 1

    for func in mod.functions.values():
        relax.analysis.post_order_visit(func, visit)
    return count


class _Emitter:
    """Binds operator calls as ``BlockBuilder.emit`` does, minus the repeated type inference.

    Every value of a generated graph has type ``Tensor(SHAPE, float32)``. The
    first call of each operator goes through ``emit`` and must get that type;
    later calls of it are bound directly (``emit_normalized``) under the
    name ``emit`` would give. Building a 100k-op graph takes seconds instead
    of TVM's ~180 µs of inference per call; the module is the same.
    """

    def __init__(self, bb: relax.BlockBuilder):
        self.bb = bb
        self.type = relax.TensorType(SHAPE, "float32")
        self.confirmed: set[str] = set()

    def __call__(self, call: relax.Call, output: bool = False) -> relax.Var:
        name = call.op.name
        if name not in self.confirmed:
            var = self.bb.emit_output(call) if output else self.bb.emit(call)
            if not tvm_ffi.structural_equal(var.ty, self.type):
                raise AssertionError(f"{name} infers {var.ty}, not {self.type}")
            self.confirmed.add(name)
            return var
        _update_type(call, self.type)
        var_type = relax.Var if output else relax.DataflowVar
        var = var_type(self.bb.get_unique_name("gv" if output else "lv"), self.type)
        self.bb.emit_normalized(relax.VarBinding(var, call))
        return var


def _weights(rng: np.random.Generator) -> tuple[relax.Constant, relax.Constant]:
    weight = rng.standard_normal((CHANNELS, CHANNELS, 3, 3), dtype=np.float32) * 0.1
    bias = rng.standard_normal((1, CHANNELS, 1, 1), dtype=np.float32) * 0.1
    return relax.const(weight), relax.const(bias)


def _conv_add(emit: _Emitter, h: relax.Expr, rng: np.random.Generator) -> relax.Var:
    weight, bias = _weights(rng)
    h = emit(relax.op.nn.conv2d(h, weight, padding=1))
    return emit(relax.op.add(h, bias))


_Block = Callable[[_Emitter, relax.Expr, np.random.Generator, bool], relax.Var]
"""Emits one block after `h` (given the emitter, `h`, the weights' generator and whether
it is the last block) and returns its output."""


def _build(n_blocks: int, block: _Block) -> tvm.IRModule:
    """`n_blocks` blocks in a row; the last block's last op is the dataflow output.

    (Emitting the output as its own binding would add an alias ``gv = lv``,
    which the importer canonicalises away.)
    """
    rng = np.random.default_rng(0)
    bb = relax.BlockBuilder()
    emit = _Emitter(bb)
    x = relax.Var("x", relax.TensorType(SHAPE, "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            h = x
            for index in range(n_blocks):
                h = block(emit, h, rng, index == n_blocks - 1)
        bb.emit_func_output(h)
    return bb.get()


def chain(n_ops: int) -> tvm.IRModule:
    """``n_ops // 3`` conv2d + add + relu triples in a row."""

    def triple(emit, h, rng, last):
        return emit(relax.op.nn.relu(_conv_add(emit, h, rng)), output=last)

    return _build(max(1, n_ops // 3), triple)


def residual(n_ops: int) -> tvm.IRModule:
    """``n_ops // 7`` ResNet basic blocks; each block's input fans out twice."""

    def basic_block(emit, h, rng, last):
        a = emit(relax.op.nn.relu(_conv_add(emit, h, rng)))
        c = _conv_add(emit, a, rng)
        return emit(relax.op.nn.relu(emit(relax.op.add(c, h))), output=last)

    return _build(max(1, n_ops // 7), basic_block)


GENERATORS = {"chain": chain, "residual": residual}


def generated(kind: str, size: str) -> Graph:
    return Graph(f"{kind}-{size}", kind, size, GENERATORS[kind](SIZES[size]))


def generated_graph(kind: str, ops: int) -> Graph:
    """A generated graph of about `ops` operator calls, outside the named sizes."""
    return Graph(f"{kind}-{ops}", kind, None, GENERATORS[kind](ops))


def is_model(name: str) -> bool:
    return name in MODELS


def model(name: str) -> Graph:
    from relay_xdsl.tvm import models as tvm_models

    return Graph(name, "model", None, tvm_models.fold(tvm_models.relax_module(name)))


def graph_names(quick: bool) -> list[str]:
    sizes = ("1k", "10k") if quick else tuple(SIZES)
    names = [f"{kind}-{size}" for size in sizes for kind in GENERATORS]
    return names + (["resnet18"] if quick else list(MODELS))


def build(name: str) -> Graph:
    kind, _, size = name.partition("-")
    if kind in GENERATORS and size in SIZES:
        return generated(kind, size)
    if name in MODELS:
        return model(name)
    raise ValueError(f"unknown graph '{name}'")
