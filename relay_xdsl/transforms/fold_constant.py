"""relay-fold-constant: replace computations on constants by their result, TVM's ``FoldConstant``.

As TVM v0.19's ``FoldConstant`` (``src/relay/transforms/fold_constant.cc``),
in every function the pass may optimise (not one carrying ``Compiler`` or
a nonzero ``Extern`` or ``SkipOptimization``), in program order so that
chains fold whole:

* an operator call whose arguments are all constants (or tuples of
  constants) becomes one constant (a tuple of constants for a tuple
  result);
* ``shape_of(x)`` and ``ndarray_size(x)`` of a static shape become
  constants of their ``dtype`` whatever ``x`` is;
* a projection of a ``relay.tuple`` becomes the projected field, a
  ``relay.let`` of a constant the constant, and a ``relay.if`` whose
  condition is a constant with a value the branch it takes.

Left alone, as in TVM: calls with no arguments (``zeros(shape=...)``),
calls of functions (``relay.fn``, ``func.call``, closures), the stateful
``nn.dropout``, the non-computational operators (``on_device``, the
``qnn.*`` operators, the memory and VM operators), ``device_copy``, and
anything inside a ``Primitive`` function literal (a fused group). Composite
functions are function literals like any other: their calls are never
folded, and their bodies only hold parameters. Operators unknown to the
dialect (``relay.op``) are not folded, nor are calls whose kernel the
interpreter does not have (a warning names them).

**Values.** When every constant a call depends on has a value, the call is
evaluated by the reference interpreter (:mod:`relay_xdsl.interpreter`) and
the new constant holds the result. When some have none (``meta`` constants
of a text printed without its metadata, as in the seed), the fold is
structural: the new constant is an opaque ``meta`` constant of the call's
type, exactly where TVM's output has a ``meta[relay.Constant][i]``. TVM
numbers meta constants as it prints them; an opaque constant has no index
of its own, so once the pass has made one it numbers all opaque constants
of the module in order of first use, which is how TVM's printer numbers
them in the folded programs of the seed (a module that keeps a
``#[metadata]`` section is not renumbered).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    TupleType,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.dtypes import NUMPY_DTYPES, dtype_name
from relay_xdsl.dialects.relay.meta import METADATA
from relay_xdsl.support.depth import walk_ops
from relay_xdsl.transforms.dataflow import optimizable
from relay_xdsl.transforms.diagnostics import warn

# By name, as TVM's operator attributes: they name operators without a row too.
NOT_FOLDED = frozenset(
    {
        # Stateful (TOpIsStateful).
        "nn.dropout",
        "memory.kill",
        "vm.invoke_tvm_op",
        # Non-computational (TNonComputational); qnn operators are folded
        # only with FoldConstant(fold_qnn=True), which this pass does not offer.
        "call_lowered",
        "memory.alloc_storage",
        "memory.alloc_tensor",
        "on_device",
        "vm.reshape_tensor",
        "vm.shape_of",
        # Skipped by name.
        "device_copy",
    }
)
"""Operators TVM's FoldConstant never evaluates (besides ``qnn.*``)."""

SHAPE_OPERATORS = frozenset({"shape_of", "ndarray_size"})
"""Operators folded from their argument's static shape, constant or not."""

_PLACEHOLDER = -1
"""The meta index of an opaque constant the pass made, until renumbering."""


def _primitive(op: Operation) -> bool:
    """Whether `op` is inside a ``Primitive`` function literal or function."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, (relay.FnOp, FuncOp)):
            attr = parent.attributes.get("Primitive")
            if isinstance(attr, IntegerAttr) and attr.value.data != 0:
                return True
        parent = parent.parent_op()
    return False


def _constant_leaves(value: SSAValue) -> list[relay.ConstantOp] | None:
    """The constants `value` is made of (itself, or a tuple's fields), or None
    if it is not a constant (TVM's ``IsComplexConstant``)."""
    owner = value.owner
    if isinstance(owner, relay.ConstantOp):
        return [owner]
    if isinstance(owner, relay.TupleOp):
        leaves: list[relay.ConstantOp] = []
        for field_value in owner.operands:
            inner = _constant_leaves(field_value)
            if inner is None:
                return None
            leaves += inner
        return leaves
    return None


def _static_shape(type_: Attribute) -> list[int] | None:
    if not isinstance(type_, TensorType):
        return None
    dims = list(type_.get_shape())
    return None if any(d < 0 for d in dims) else dims


@dataclass
class ConstantFolder:
    """Folds one module; `opaque_made` says whether it made opaque constants."""

    opaque_made: bool = False
    unevaluated: set[str] = field(default_factory=set)
    folded: int = 0

    def fold_module(self, module: ModuleOp) -> None:
        for func in module.ops:
            if isinstance(func, FuncOp) and optimizable(func.attributes):
                for op in list(walk_ops(func)):
                    if op.parent is not None and not _primitive(op):
                        self.fold(op)

    def fold(self, op: Operation) -> None:
        if isinstance(op, relay.LetOp):
            if isinstance(op.operands[0].owner, relay.ConstantOp):
                self.replace(op, op.operands[0])
            return
        if isinstance(op, relay.TupleGetItemOp):
            tuple_op = op.operands[0].owner
            if isinstance(tuple_op, relay.TupleOp):
                self.replace(op, tuple_op.operands[op.index.value.data])
            return
        if isinstance(op, relay.IfOp):
            self.fold_if(op)
            return
        if not isinstance(op, relay.RegisteredOperatorOp) or not op.operands:
            return
        name = op.operator_name
        if name in NOT_FOLDED or name.startswith("qnn."):
            return
        if name in SHAPE_OPERATORS:
            self.fold_shape(op)
            return
        leaves = [_constant_leaves(arg) for arg in op.operands]
        if any(leaf is None for leaf in leaves):
            return
        constants = [c for leaf in leaves if leaf is not None for c in leaf]
        if all(c.value is not None for c in constants):
            result = self.evaluate(op)
            if result is None:
                return
            self.replace(op, self.valued(op, result, op.result.type))
        else:
            value = self.opaque(op, op.result.type)
            if value is None:
                return
            self.replace(op, value)

    def fold_if(self, op: relay.IfOp) -> None:
        """An ``if`` on a constant condition becomes the branch it takes."""
        condition = op.condition.owner
        if not isinstance(condition, relay.ConstantOp):
            return
        if not isinstance(condition.value, DenseIntOrFPElementsAttr):
            return
        # TVM reads the condition's first byte.
        taken = op.then_region if condition.value.data.data[0] else op.else_region
        block = taken.block
        terminator = block.last_op
        assert isinstance(terminator, relay.ReturnOp)
        for inner in list(block.ops)[:-1]:
            inner.detach()
            Rewriter.insert_op(inner, InsertPoint.before(op))
        self.replace(op, terminator.value)

    def fold_shape(self, op: relay.RegisteredOperatorOp) -> None:
        """TVM's ``EvaluateShapeOf`` and ``EvaluateNdarraySize``."""
        import numpy as np

        dims = _static_shape(op.operands[0].type)
        result_type = op.result.type
        if dims is None or not isinstance(result_type, TensorType):
            return
        dtype = NUMPY_DTYPES[dtype_name(result_type.get_element_type())]
        if isinstance(op, relay.ShapeOfOp):
            array = np.array(dims, dtype=dtype)
        else:
            array = np.array(int(np.prod(dims)) if dims else 0, dtype=dtype)
        self.replace(op, self.valued(op, array, result_type))

    def evaluate(self, op: relay.RegisteredOperatorOp) -> Any:
        """The value of `op` from its constant arguments' values, or None."""
        from relay_xdsl.interpreter import InterpreterError
        from relay_xdsl.interpreter.dispatch import run_operator

        try:
            return run_operator(op, tuple(_array_value(arg) for arg in op.operands))
        except _NoValue:
            return None
        except InterpreterError as error:
            self.unevaluated.add(str(error))
            return None

    def valued(self, anchor: Operation, value: Any, type_: Attribute) -> SSAValue:
        """A constant (or tuple of constants) holding `value`, inserted before `anchor`."""
        if isinstance(type_, TupleType):
            fields = [self.valued(anchor, v, t) for v, t in zip(value, type_.types.data)]
            return self.insert(anchor, relay.TupleOp(fields))
        assert isinstance(type_, TensorType)
        import numpy as np

        dtype = NUMPY_DTYPES[dtype_name(type_.get_element_type())]
        data = np.ascontiguousarray(np.asarray(value, dtype=dtype)).tobytes()
        attr = DenseIntOrFPElementsAttr(type_, BytesAttr(data))
        return self.insert(anchor, relay.ConstantOp(type_, value=attr))

    def opaque(self, anchor: Operation, type_: Attribute) -> SSAValue | None:
        """An opaque constant (or tuple of them) of `type_`, or None if the type is not known."""
        if isinstance(type_, TupleType):
            fields = [self.opaque(anchor, t) for t in type_.types.data]
            if any(f is None for f in fields):
                return None
            return self.insert(anchor, relay.TupleOp([f for f in fields if f is not None]))
        if _static_shape(type_) is None:
            return None
        self.opaque_made = True
        return self.insert(anchor, relay.ConstantOp(type_, meta_index=_PLACEHOLDER))

    def insert(self, anchor: Operation, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(anchor))
        return op.results[0]

    def replace(self, op: Operation, value: SSAValue) -> None:
        """Uses of `op` take `value`; `op` and what only it used go."""
        op.results[0].replace_all_uses_with(value)
        self.folded += 1
        _erase_dead(op)


def _tuple_of(op: relay.TupleOp) -> tuple[Any, ...]:
    return tuple(_array_value(v) for v in op.operands)


def _array_value(value: SSAValue) -> Any:
    """The numpy value of a constant or a tuple of constants."""
    from relay_xdsl.interpreter.arrays import dense_array

    owner = value.owner
    if isinstance(owner, relay.TupleOp):
        return _tuple_of(owner)
    assert isinstance(owner, relay.ConstantOp) and owner.value is not None
    if not isinstance(owner.value, DenseIntOrFPElementsAttr):
        raise _NoValue
    return dense_array(owner.value)


class _NoValue(Exception):
    """A constant whose value the interpreter cannot read (``dense_resource``)."""


def _erase_dead(op: Operation) -> None:
    """Erase `op` if nothing uses it, then its operands' pure producers that
    nothing uses any more (constants and the folded subgraph)."""
    work = [op]
    while work:
        current = work.pop()
        if current.parent is None or any(r.uses for r in current.results):
            continue
        if current is not op and not _pure_value(current):
            continue
        producers = [v.owner for v in current.operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(current)
        work.extend(producers)


def _pure_value(op: Operation) -> bool:
    return isinstance(op, (relay.ConstantOp, relay.TupleOp, relay.TupleGetItemOp)) or (
        isinstance(op, relay.RegisteredOperatorOp) and op.operator_name not in NOT_FOLDED
    )


def _opaque_constants(module: ModuleOp) -> Iterator[relay.ConstantOp]:
    """The opaque constants of `module` in order of first use (unused ones last)."""
    seen: set[relay.ConstantOp] = set()
    unused: list[relay.ConstantOp] = []
    for op in walk_ops(module):
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None and not op.result.uses:
            unused.append(op)
        for operand in op.operands:
            owner = operand.owner
            opaque = isinstance(owner, relay.ConstantOp) and owner.meta_index is not None
            if opaque and owner not in seen:
                assert isinstance(owner, relay.ConstantOp)
                seen.add(owner)
                yield owner
    yield from unused


def renumber_opaque_constants(module: ModuleOp) -> None:
    """Number the opaque constants of `module` 0, 1, ... in order of first use."""
    for index, constant in enumerate(_opaque_constants(module)):
        constant.attributes["meta_index"] = IntegerAttr(index, i64)


def fold_constants(module: ModuleOp) -> ConstantFolder:
    """Fold `module`'s constant computations in place."""
    folder = ConstantFolder()
    folder.fold_module(module)
    if folder.opaque_made and METADATA not in module.attributes:
        renumber_opaque_constants(module)
    return folder


@dataclass(frozen=True)
class RelayFoldConstantPass(ModulePass):
    """Replace computations on constants by constants, as TVM's FoldConstant."""

    name = "relay-fold-constant"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        folder = fold_constants(op)
        if folder.unevaluated:
            unevaluated = "; ".join(sorted(folder.unevaluated))
            warn(self.name, f"left calls the interpreter cannot evaluate: {unevaluated}")
