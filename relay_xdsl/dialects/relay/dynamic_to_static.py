"""Dynamic operators with constant shape arguments as static ones: TVM's ``DynamicToStatic``.

A ``dyn.*`` call (:mod:`~relay_xdsl.dialects.relay.operators.dynamic`) whose
shape-like arguments are ``relay.constant`` ops with values becomes the call
of its static operator, with those values as the attributes the arguments
stand for: ``dyn.reshape(%x, <constant [6, 4]>)`` is ``reshape(%x,
newshape=[6, 4])``. The static call keeps the dynamic call's other
attributes (``allowzero``, ``dtype``, ``layout``, ...), and the constants it
no longer uses are removed. The rewritten call's result type is what the
static relation gives, and the types downstream of it are solved again
(:func:`~relay_xdsl.dialects.relay.type_solver.infer_types`), so dimensions
TVM would now know (``?`` before) are known here too, the functions' result
types included.

The operators and the arguments that must be constants are TVM v0.19's
(``src/relay/transforms/dynamic_to_static.cc``), with three differences:
``dyn.expand_dims`` is rewritten too (to ``expand_dims`` at the constant
axis); ``dyn.nn.pad`` needs only its pad widths constant (TVM also asks for
the pad value, which the static ``nn.pad`` takes as an argument all the
same); ``dyn.reshape`` keeps ``allowzero`` (TVM drops it). Like TVM, a call
is left as it is when a shape argument is not a constant, and so is
``dyn.sparse_to_dense``, which has no static counterpart in the dialect.
TVM folds constant expressions into constants first (``FoldConstant``);
here that is ``relay-fold-constant``, run before when shapes are computed
from constants (``shape_of`` of a static tensor).

Lowering and the Relax export apply it first (:func:`with_static_shapes`,
which leaves the caller's module as it is); the pass
``relay-dynamic-to-static`` applies :func:`dynamic_to_static` on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import CallOp as FuncCallOp
from xdsl.dialects.func import FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects.relay.attributes import stored
from relay_xdsl.dialects.relay.dialect import OPERATORS
from relay_xdsl.dialects.relay.inference import infer_type
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.structure import ConstantOp
from relay_xdsl.dialects.relay.type_solver import infer_types
from relay_xdsl.dialects.relay.types import IncompleteType

Values = Any
"""A constant's contents as nested lists (a scalar as a number)."""


@dataclass(frozen=True)
class StaticForm:
    """How a dynamic operator becomes its static one."""

    static: str
    """The static operator."""
    constants: tuple[int, ...]
    """The arguments that must be constants: the values the attributes come from."""
    kept: tuple[int, ...]
    """The arguments the static call takes, in its order."""
    attributes: Callable[..., dict[str, Any]]
    """The static attributes from the constants' contents (in the order of `constants`)."""


def _ints(values: Values) -> list[int]:
    return [int(v) for v in values]


def _first(values: Values) -> Values:
    """A scalar, or the single element of a tensor of shape (1,) (``k`` of topk)."""
    return values[0] if isinstance(values, list) else values


def _shape(name: str) -> StaticForm:
    """A static operator taking the dynamic one's data and the shape as attribute `name`."""
    return StaticForm(name, (1,), (0,), lambda shape: {"shape": _ints(shape)})


# fmt: off
STATIC_FORMS: dict[str, StaticForm] = {
    "dyn.reshape": StaticForm("reshape", (1,), (0,), lambda s: {"newshape": _ints(s)}),
    "dyn.broadcast_to": _shape("broadcast_to"),
    "dyn.full": _shape("full"),
    "dyn.zeros": StaticForm("zeros", (0,), (), lambda s: {"shape": _ints(s)}),
    "dyn.ones": StaticForm("ones", (0,), (), lambda s: {"shape": _ints(s)}),
    "dyn.tile": StaticForm("tile", (1,), (0,), lambda reps: {"reps": _ints(reps)}),
    "dyn.strided_slice": StaticForm(
        "strided_slice", (1, 2, 3), (0,),
        lambda begin, end, strides: {
            "begin": _ints(begin), "end": _ints(end), "strides": _ints(strides)
        }),
    "dyn.squeeze": StaticForm("squeeze", (1,), (0,), lambda axes: {"axis": _ints(axes)}),
    "dyn.expand_dims": StaticForm(
        "expand_dims", (1,), (0,), lambda axis: {"axis": int(_first(axis))}),
    "dyn.topk": StaticForm("topk", (1,), (0,), lambda k: {"k": int(_first(k))}),
    "dyn.one_hot": StaticForm(
        "one_hot", (3,), (0, 1, 2), lambda depth: {"depth": int(_first(depth))}),
    "dyn.nn.pad": StaticForm(
        "nn.pad", (1,), (0, 2), lambda widths: {"pad_width": [_ints(w) for w in widths]}),
    "dyn.nn.upsampling": StaticForm(
        "nn.upsampling", (1, 2), (0,),
        lambda h, w: {"scale_h": float(h), "scale_w": float(w)}),
    "dyn.nn.upsampling3d": StaticForm(
        "nn.upsampling3d", (1, 2, 3), (0,),
        lambda d, h, w: {"scale_d": float(d), "scale_h": float(h), "scale_w": float(w)}),
    "dyn.image.resize2d": StaticForm(
        "image.resize2d", (1, 2), (0,),
        lambda size, roi: {"size": _ints(size), "roi": [float(v) for v in roi]}),
}
"""The static form of each dynamic operator that has one."""
# fmt: on


def constant_values(value: SSAValue) -> Values | None:
    """The contents of `value` as nested lists, if it is a ``relay.constant``
    with dense contents (not an opaque ``meta`` reference or a resource)."""
    op = value.owner
    if not isinstance(op, ConstantOp) or not isinstance(op.value, DenseIntOrFPElementsAttr):
        return None
    type_ = op.value.get_type()
    if not isinstance(type_, TensorType):
        return None
    shape = list(type_.get_shape())
    flat = list(op.value.get_values())
    if len(flat) == 1 and prod(shape) != 1:  # a splat
        flat *= prod(shape)
    return _nested(flat, shape)


def _nested(flat: Sequence[Any], shape: Sequence[int]) -> Values:
    if not shape:
        return flat[0]
    step = prod(shape[1:])
    return [_nested(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def static_call(op: RegisteredOperatorOp) -> RegisteredOperatorOp | None:
    """The static call `op` becomes, or None where it stays (module docstring)."""
    form = STATIC_FORMS.get(op.OPERATOR.name)
    if form is None:
        return None
    contents = [constant_values(op.operands[i]) for i in form.constants]
    if any(c is None for c in contents):
        return None
    static = OPERATORS[form.static]
    attributes = {k: v for k, v in op.attributes.items() if k in static.OPERATOR.schema}
    attributes |= {k: stored(v) for k, v in form.attributes(*contents).items()}
    args = [op.operands[i] for i in form.kept]
    result_type = infer_type(static.OPERATOR, [a.type for a in args], attributes)
    if result_type is None:
        return None  # values the static operator rejects: the call fails when run
    return static(args, result_type, attributes)


def dynamic_to_static(module: ModuleOp) -> bool:
    """Rewrite every dynamic call of `module` that has a static form, in
    place, and solve the types downstream again; whether any was rewritten."""
    rewritten: list[Operation] = []
    for op in list(module.walk()):
        if not isinstance(op, RegisteredOperatorOp):
            continue
        new = static_call(op)
        if new is None:
            continue
        operands = list(op.operands)
        Rewriter.replace_op(op, new)
        for operand in operands:
            owner = operand.owner
            if isinstance(owner, ConstantOp) and not operand.uses:
                Rewriter.erase_op(owner)
        rewritten.append(new)
    if not rewritten:
        return False
    _forget_types_downstream(module, rewritten)
    infer_types(module, strict=False)
    return True


def with_static_shapes(module: ModuleOp) -> ModuleOp:
    """`module` with its dynamic calls that have a static form rewritten (as
    :func:`dynamic_to_static`): `module` itself when there are none, else a
    rewritten copy, so that the caller's module never changes."""
    if not any(
        isinstance(op, RegisteredOperatorOp) and static_call(op) is not None for op in module.walk()
    ):
        return module
    copy = module.clone()
    dynamic_to_static(copy)
    return copy


def _forget_types_downstream(module: ModuleOp, ops: Sequence[Operation]) -> None:
    """Make the types of the values computed from `ops`' results incomplete,
    so that the solver works them out again from the new static types: the
    results of the functions that return such values and of their calls too."""
    pending: list[SSAValue] = [result for op in ops for result in op.results]
    while pending:
        value = pending.pop()
        for use in list(value.uses):
            user = use.operation
            downstream: list[SSAValue] = list(user.results)
            if isinstance(user, FuncReturnOp):
                downstream += _forget_function_results(module, user)
            elif user.regions and user.regions[0].blocks:
                block_args = user.regions[0].blocks[0].args
                if use.index < len(block_args):  # a relay.fn parameter
                    downstream.append(block_args[use.index])
            for result in downstream:
                if isinstance(result.type, IncompleteType):
                    continue
                retyped = Rewriter.replace_value_with_new_type(result, IncompleteType())
                if isinstance(result, BlockArgument) and isinstance(retyped, BlockArgument):
                    retyped.location = result.location  # where the Relay name is recorded
                pending.append(retyped)


def _forget_function_results(module: ModuleOp, return_op: FuncReturnOp) -> list[SSAValue]:
    """Make the result types of the function `return_op` ends incomplete; the
    results of its calls, whose types follow."""
    function = return_op.parent_op()
    if not isinstance(function, FuncOp) or all(
        isinstance(t, IncompleteType) for t in function.function_type.outputs.data
    ):
        return []
    outputs = [IncompleteType()] * len(function.function_type.outputs.data)
    function.function_type = FunctionType.from_lists(function.function_type.inputs.data, outputs)
    name = function.sym_name.data
    return [
        result
        for call in module.walk()
        if isinstance(call, FuncCallOp) and call.callee.root_reference.data == name
        for result in call.results
    ]
