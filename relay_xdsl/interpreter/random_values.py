"""Random values for constants without one, and for inputs: the ``--random-constants`` scheme.

A Relay text without its ``#[metadata]`` section (the seed's, or any text
printed without ``show_meta_data``) knows its constants only as
``meta[relay.Constant][i]``. `random_constants` gives each one a value drawn
from ``numpy.random.RandomState(seed)``, in index order (so one index always
gets the same value for one seed), and drawn the way framework initialisers
draw a model's parameters, so that deep networks stay finite in float32 and
float16. The role of a float constant comes from its uses, directly or as the
argument of a ``relay.fn`` parameter, and through ``transpose``, ``reshape``,
``expand_dims``, ``squeeze`` and ``layout_transform``:

* a **weight** (operand 1 of ``nn.conv1d/2d/3d``, their ``_transpose``
  forms and ``nn.dense``; either operand of ``nn.matmul``,
  ``nn.batch_matmul`` and ``relax.matmul``) is uniform in ``[-b, b)`` with
  ``b = gain * sqrt(3 / fan_in)``, ``gain`` as PyTorch's
  ``calculate_gain``: ``sqrt(2)`` where the operator's result goes into a
  rectifier (``nn.relu``, ``nn.leaky_relu``, ``nn.prelu``, ``clip`` from 0),
  through a bias (``nn.bias_add``, ``add`` of a constant) or a batch norm,
  else 1. That is He (Kaiming) uniform initialisation before a rectifier and
  LeCun uniform elsewhere: each keeps the mean square of activations through
  its layer, so the depth of a network neither blows them up nor lets them
  vanish. (He everywhere doubles the mean square at every residual ``add``:
  resnet50 would reach thousands, and sums in float16 infinity.) The fan-in
  is what the consuming operator sums over: for a convolution, the weight's
  size over its output channels (the ``O`` and ``o`` axes of its
  ``kernel_layout``); for a product, the contracted dimension (after
  ``transpose_a``/``transpose_b``);
* a **scale** is uniform in ``[0.9, 1.1)``: a norm's ``gamma``
  (``nn.batch_norm``, ``nn.layer_norm``, ``nn.group_norm``,
  ``nn.instance_norm``), a batch norm's ``moving_var`` (positive, so its
  square root is real), a ``multiply``'s operand (the gamma of a layer norm
  spelled out in arithmetic, as ONNX importers write it, and the scales
  ``relay-fold-scale-axis`` moves) and a ``divide``'s divisor (never near zero);
* every other float constant, among them biases (``nn.bias_add``), a
  norm's ``beta`` and a batch norm's ``moving_mean``, is **small**: uniform
  in ``[-0.1, 0.1)``.

A constant with several roles takes the first of them in that order (a
weight of several operators the smallest bound). Integer constants are
uniform in ``[0, 8)``, and bools 0 or 1, whatever their role.

`random_inputs` draws inputs from their own seed: floats uniform in
``[-1, 1)``, integers in ``[0, 8)``, bools 0 or 1, in parameter order.

Every size is checked against the machine's memory before anything is
drawn (`check_memory`). The Relax exporter and the compiler use
`random_constants` too, so the interpreter, TVM and the compiled model run
one program for one seed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.ir import Attribute, BlockArgument, OpResult, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.assumed_types import assume_constant_types
from relay_xdsl.interpreter.arrays import check_memory, give_value, tensor_dtype
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.relay_text.types import relay_type

Interval = tuple[float, float]
"""Where a uniform draw lies: ``[low, high)``."""

SMALL: Interval = (-0.1, 0.1)
"""Biases, a norm's beta and mean, and any constant without another role."""
SCALE: Interval = (0.9, 1.1)
"""A norm's gamma, a batch norm's variance, a divisor."""
INPUT: Interval = (-1.0, 1.0)
"""Float inputs (`random_inputs`)."""

_CONVOLUTIONS = frozenset(
    f"nn.conv{rank}d{kind}" for rank in (1, 2, 3) for kind in ("", "_transpose")
)
_PRODUCTS = frozenset({"nn.matmul", "nn.batch_matmul", "relax.matmul"})
_SCALES: dict[str, tuple[int, ...]] = {
    "nn.batch_norm": (1, 4),  # gamma, moving_var
    "nn.layer_norm": (1,),
    "nn.group_norm": (1,),
    "nn.instance_norm": (1,),
    "divide": (1,),
    "multiply": (0, 1),
}
"""The operands each operator reads as a scale."""
_LAYOUT_CHANGES = frozenset({"transpose", "reshape", "expand_dims", "squeeze", "layout_transform"})
"""Operators that move a constant's elements without changing them: its role is its result's."""
_RECTIFIERS = frozenset({"nn.relu", "nn.leaky_relu", "nn.prelu"})


def random_constants(module: ModuleOp, seed: int) -> dict[int, np.ndarray]:
    """Random values for the constants known only by ``meta[relay.Constant][i]``,
    by index, drawn from `seed` by role (see the module docstring)."""
    types: dict[int, TensorType] = {}
    for op in module.walk():
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None:
            index = op.meta_index.value.data
            type_ = op.result.type
            if not isinstance(type_, TensorType):
                raise InterpreterError(
                    f"meta[relay.Constant][{index}] has an unknown type: nothing in the "
                    "program determines its shape"
                )
            if types.setdefault(index, type_) != type_:
                raise InterpreterError(f"meta[relay.Constant][{index}] is used with two types")
            if DYNAMIC_INDEX in type_.get_shape():
                raise InterpreterError(
                    f"meta[relay.Constant][{index}] has a dynamic shape {relay_type(type_)}"
                )
    check_memory(
        ((f"meta[relay.Constant][{i}]", types[i]) for i in sorted(types)), "the random constants"
    )
    intervals = constant_intervals(module)
    rng = np.random.RandomState(seed)
    return {index: _draw(rng, types[index], intervals.get(index, SMALL)) for index in sorted(types)}


def give_random_values(module: ModuleOp, seed: int) -> None:
    """Give each constant without a value (``meta[relay.Constant][i]``) its
    `random_constants` draw for `seed`, as its ``value``: passes that fold
    constants then compute with the numbers the interpreter would use. The
    constants inference leaves untyped first get the types
    `assume_constant_types` assumes (biases per channel, grouped convolution
    weights), as real ONNX-imported texts need."""
    assume_constant_types(module)
    values = random_constants(module, seed)
    for op in list(module.walk()):
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None:
            give_value(op, values[op.meta_index.value.data])


def random_inputs(types: Iterable[tuple[str, Attribute]], seed: int) -> dict[str, np.ndarray]:
    """Random arrays for parameters of tensor type, by name, drawn from `seed`
    in their order (floats uniform in [-1, 1))."""
    tensors: list[tuple[str, TensorType]] = []
    for name, type_ in types:
        if not isinstance(type_, TensorType):
            raise InterpreterError(f"parameter %{name} is not a tensor ({type_})")
        if DYNAMIC_INDEX in type_.get_shape():
            raise InterpreterError(f"parameter %{name} has a dynamic shape {relay_type(type_)}")
        tensors.append((name, type_))
    check_memory(((f"input %{name}", type_) for name, type_ in tensors), "the random inputs")
    rng = np.random.RandomState(seed)
    return {name: _draw(rng, type_, INPUT) for name, type_ in tensors}


def constant_intervals(module: ModuleOp) -> dict[int, Interval]:
    """The interval of each ``meta[relay.Constant][i]`` that is a weight or a
    scale, by index (see the module docstring); the others are `SMALL`."""
    bounds: dict[int, float] = {}
    scales: set[int] = set()
    for op in module.walk():
        if not isinstance(op, relay.OperatorOp):
            continue
        name = op.operator_name
        for position, operand in enumerate(op.operands):
            index = _meta_index(operand)
            if index is None:
                continue
            fan_in = _fan_in(op, position, operand.type)
            if fan_in is not None:
                gain_squared = 2.0 if _feeds_rectifier(op.results[0]) else 1.0
                bound = math.sqrt(3.0 * gain_squared / fan_in)
                bounds[index] = min(bound, bounds.get(index, bound))
            elif position in _SCALES.get(name, ()):
                scales.add(index)
    intervals = {index: SCALE for index in scales}
    intervals |= {index: (-bound, bound) for index, bound in bounds.items()}
    return intervals


def _meta_index(value: SSAValue) -> int | None:
    """The index of the ``meta[relay.Constant][i]`` that `value` is, through
    ``relay.fn`` parameters and layout changes; None for any other value."""
    while True:
        if isinstance(value, BlockArgument) and isinstance(value.owner.parent_op(), relay.FnOp):
            fn = value.owner.parent_op()
            assert isinstance(fn, relay.FnOp)
            value = fn.operands[value.index]
        elif (
            isinstance(value, OpResult)
            and isinstance(value.op, relay.OperatorOp)
            and value.op.operator_name in _LAYOUT_CHANGES
        ):
            value = value.op.operands[0]
        else:
            break
    if isinstance(value, OpResult) and isinstance(value.op, relay.ConstantOp):
        meta_index = value.op.meta_index
        return None if meta_index is None else meta_index.value.data
    return None


def _feeds_rectifier(value: SSAValue) -> bool:
    """Whether `value` goes into a rectifier, through biases (an ``nn.bias_add``
    or an ``add`` of a constant), a batch norm, and ``relay.fn`` boundaries."""
    for use in value.uses:
        user, position = use.operation, use.index
        if isinstance(user, relay.FnOp):
            if _feeds_rectifier(user.body.block.args[position]):
                return True
        elif isinstance(user, relay.ReturnOp) and isinstance(user.parent_op(), relay.FnOp):
            fn = user.parent_op()
            assert isinstance(fn, relay.FnOp)
            if _feeds_rectifier(fn.results[0]):
                return True
        elif isinstance(user, relay.TupleGetItemOp) and user.index.value.data == 0:
            if _feeds_rectifier(user.result):
                return True
        elif isinstance(user, relay.OperatorOp):
            name = user.operator_name
            if name in _RECTIFIERS or (name == "clip" and _from_zero(user)):
                return True
            through = (name in ("nn.bias_add", "nn.batch_norm") and position == 0) or (
                name == "add" and _is_constant(user.operands[1 - position])
            )
            if through and _feeds_rectifier(user.results[0]):
                return True
    return False


def _from_zero(clip: relay.OperatorOp) -> bool:
    a_min = clip.relay_attr("a_min")
    return a_min is not None and float(a_min) >= 0.0


def _is_constant(value: SSAValue) -> bool:
    """Whether `value` is a constant, directly or as a ``relay.fn`` parameter."""
    while isinstance(value, BlockArgument) and isinstance(value.owner.parent_op(), relay.FnOp):
        fn = value.owner.parent_op()
        assert isinstance(fn, relay.FnOp)
        value = fn.operands[value.index]
    return isinstance(value, OpResult) and isinstance(value.op, relay.ConstantOp)


def _fan_in(op: relay.OperatorOp, position: int, type_: Attribute) -> int | None:
    """How many products operand `position` of `op` adds into each output
    element, if `op` reads that operand as a weight; `type_` is the operand's."""
    if not isinstance(type_, TensorType) or DYNAMIC_INDEX in type_.get_shape():
        return None
    shape = tuple(type_.get_shape())
    name = op.operator_name
    if name in _CONVOLUTIONS and position == 1:
        axes = [c for c in str(op.relay_attr("kernel_layout")) if c.isalpha()]
        outputs = (
            math.prod(d for d, axis in zip(shape, axes) if axis in "Oo")
            if len(axes) == len(shape)
            else shape[0]
        )
        return max(1, math.prod(shape) // max(1, outputs))
    if name == "nn.dense" and position == 1:
        return max(1, shape[-1])
    if name in _PRODUCTS and position < 2 and shape:
        if len(shape) == 1:
            return max(1, shape[0])
        transposed = name != "relax.matmul" and bool(
            op.relay_attr("transpose_a" if position == 0 else "transpose_b")
        )
        # `a` is contracted over its last axis, `b` over its next to last.
        last = (position == 0) != transposed
        return max(1, shape[-1] if last else shape[-2])
    return None


def _draw(rng: np.random.RandomState, type_: TensorType, interval: Interval) -> np.ndarray:
    """Random values of `type_`: bools 0 or 1, integers in [0, 8), floats uniform in `interval`."""
    shape = tuple(type_.get_shape())
    dtype = tensor_dtype(type_)
    if dtype == np.bool_:
        drawn = rng.randint(0, 2, size=shape).astype(bool)
    elif dtype.kind in "iu":
        drawn = rng.randint(0, 8, size=shape).astype(dtype)
    else:
        drawn = rng.uniform(*interval, size=shape).astype(dtype)
    return np.asarray(drawn)  # a 0-d array, not a numpy scalar, for a scalar
