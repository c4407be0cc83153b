"""The differential cases: per operator row, its reference example and edge cases,
their seeded inputs, and the tolerances within which backends must agree.

A :class:`Case` is one small relay function ``@main``: the row's example from the
dialect's reference file (tests/filecheck/dialect/ops.mlir, ``@relay.<operator>``),
or an edge case of edge_cases.py (broadcasting, negative axes, odd sizes, strides
and dilations, each dtype the operator takes). Its inputs are drawn
from the operator's domain (:data:`DOMAINS`: positive for ``log``, inside
[-1, 1] for ``asin``, valid indices for ``take``, non-zero divisors, ...) with a
seed derived from the case's name, so any process recomputes the same arrays.

This module needs neither TVM nor the MLIR tools: the TVM 0.19 script
(bench/tvm019/check_operators.py) takes the cases and inputs from it in
relay-xdsl's venv, and the verdicts compare with its :func:`disagreement`.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, StringAttr, TensorType, TupleType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.parser import Parser
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects.relay import operators
from relay_xdsl.dialects.relay.attributes import attr_value
from relay_xdsl.dialects.relay.dynamic_to_static import constant_values, static_call
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.structure import TupleOp
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter.arrays import tensor_dtype
from relay_xdsl.tools.mlir_text import relay_context

OPS_MLIR = Path(__file__).resolve().parents[1] / "filecheck" / "dialect" / "ops.mlir"

VM_INTERNAL = frozenset(row.name for row in operators.memory.MEMORY)
"""Rows only TVM's VM compiler creates (storage, tensors in storage, kills, its
shape_of and reshape): no program a user writes calls them, and their rows state
why they lack a kernel, a lowering or a Relax export. They are not compared."""

DYNAMIC_SIZE = 3
"""The size an input takes along a ``?`` dimension."""

INTERPRETER_ONLY = {
    "dyn.sparse_to_dense": "relay-dynamic-to-static has no static form to make of it, so it "
    "neither lowers nor exports (its row's no_lowering reason)",
}
"""Operators only the interpreter runs, and why: the other backends are not compared."""

# ---------------------------------------------------------------------------
# Tolerances
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """``|actual - expected| <= atol * max(1, max|expected|) + rtol * |expected|``.

    The absolute part scales with the reference's largest magnitude: sums of
    many products (convolutions, matmuls, reductions) round differently in each
    backend's loop order, by an amount proportional to the values summed."""

    rtol: float
    atol: float

    def describe(self) -> str:
        return "exact" if self.exact else f"rtol {self.rtol:g}, atol {self.atol:g}"

    @property
    def exact(self) -> bool:
        return self.rtol == 0 and self.atol == 0


EXACT = Tolerance(0.0, 0.0)

TOLERANCES: dict[str, Tolerance] = {
    # float32: a few ulps (eps 1.2e-7) of the result, after accumulation.
    "float32": Tolerance(1e-5, 1e-5),
    "float64": Tolerance(1e-10, 1e-10),
    # float16: 11 significant bits (eps 9.8e-4); a backend may compute in
    # float32 and round once, another round at every step: about ten ulps.
    "float16": Tolerance(1e-2, 1e-2),
}
"""Per result dtype; integers and bools (every other dtype) must be equal."""

OPERATOR_TOLERANCES: dict[str, Tolerance] = {
    # TVM's fast_* are polynomial approximations of the functions, which the
    # reference computes exactly; a backend may use either, or an approximation
    # of its own (fast_softmax is softmax with fast_exp): allow ten times the
    # float32 tolerance rather than pin one approximation's error.
    "fast_exp": Tolerance(1e-4, 1e-5),
    "fast_tanh": Tolerance(1e-4, 1e-5),
    "fast_erf": Tolerance(1e-4, 1e-5),
    "nn.fast_softmax": Tolerance(1e-4, 1e-5),
    # A backend may compute these from identities of exp, log and sqrt
    # (acosh x = log(x + sqrt(x*x - 1)), sinh x = (exp x - exp -x) / 2), which
    # lose a few bits more than libm's implementations.
    **dict.fromkeys(
        ("tan", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh"),
        Tolerance(1e-4, 1e-5),
    ),
}
"""Operators whose float results (float32) need more than :data:`TOLERANCES`, and why."""


def tolerance(operator: str, dtype: np.dtype) -> Tolerance:
    """Within what a result of `dtype` from `operator` must agree with the reference."""
    if dtype.kind not in "fc":
        return EXACT
    if dtype == np.float32 and operator in OPERATOR_TOLERANCES:
        return OPERATOR_TOLERANCES[operator]
    return TOLERANCES.get(dtype.name, TOLERANCES["float32"])


def disagreement(operator: str, actual: np.ndarray, expected: np.ndarray) -> str | None:
    """Why `actual` does not agree with the reference `expected` for `operator`, or None."""
    actual = np.asarray(actual)
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    if expected.size == 0:
        return None
    tol = tolerance(operator, expected.dtype)
    if tol.exact:
        wrong = actual != expected
        if expected.dtype.kind == "f":  # a float result compared exactly: NaNs agree
            wrong &= ~(np.isnan(actual) & np.isnan(expected))
        if not wrong.any():
            return None
        return f"{int(wrong.sum())} of {expected.size} elements differ ({tol.describe()})"
    want = expected.astype(np.float64)
    got = actual.astype(np.float64)
    finite = np.isfinite(want)
    same_special = (np.isnan(want) & np.isnan(got)) | (~finite & (got == want))
    scale = max(1.0, float(np.max(np.abs(want[finite]), initial=0.0)))
    with np.errstate(invalid="ignore"):  # inf - inf: a NaN error, counted below
        error = np.where(same_special, 0.0, np.abs(got - want))
    error = np.where(np.isnan(error), np.inf, error)
    bound = tol.atol * scale + tol.rtol * np.abs(np.where(finite, want, 0.0))
    if np.all(error <= bound):
        return None
    return f"max abs error {float(np.max(error)):.3g} ({tol.describe()})"


# ---------------------------------------------------------------------------
# Input domains
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """What drawing one input knows: its parameter, its operator call and the rng."""

    rng: np.random.Generator
    shape: tuple[int, ...]
    dtype: np.dtype
    position: int
    """The parameter's position in the function."""
    shapes: tuple[tuple[int, ...], ...]
    """The shapes of all parameters."""
    attributes: dict[str, Any]
    """The attributes of the function's first operator call, decoded."""


Domain = Callable[[Draw], np.ndarray]


def default(draw: Draw) -> np.ndarray:
    """Floats uniform in [-2, 2); integers in [-5, 5]; bools evenly."""
    rng, shape, dtype = draw.rng, draw.shape, draw.dtype
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -5
        return rng.integers(low, 6, size=shape).astype(dtype)
    return rng.uniform(-2.0, 2.0, size=shape).astype(dtype)


def uniform(low: float, high: float) -> Domain:
    """Floats uniform in [low, high); integers in [ceil(low), floor(high)]."""

    def domain(draw: Draw) -> np.ndarray:
        if draw.dtype.kind in "iu":
            values = draw.rng.integers(int(np.ceil(low)), int(np.floor(high)) + 1, draw.shape)
            return values.astype(draw.dtype)
        return draw.rng.uniform(low, high, size=draw.shape).astype(draw.dtype)

    return domain


def nonzero(draw: Draw) -> np.ndarray:
    """Divisors: magnitudes in [0.5, 3] (floats) or [1, 5] (integers), either sign."""
    magnitude = uniform(0.5, 3.0)(draw) if draw.dtype.kind == "f" else uniform(1, 5)(draw)
    sign = draw.rng.choice(np.array([-1, 1]), size=draw.shape)
    return (magnitude * sign).astype(draw.dtype)


def with_specials(draw: Draw) -> np.ndarray:
    """`default` values with some NaN, +inf and -inf among them."""
    values = default(draw)
    flat = values.reshape(-1)
    for k, special in enumerate((np.nan, np.inf, -np.inf)):
        flat[k::5] = special
    return values


def indices(bound: Callable[[Draw], int]) -> Domain:
    """Valid indices: integers in [0, bound)."""
    return lambda draw: draw.rng.integers(0, bound(draw), size=draw.shape).astype(draw.dtype)


def _axis_size(draw: Draw) -> int:
    axis = draw.attributes.get("axis")
    data = draw.shapes[0]
    return int(np.prod(data)) if axis is None else data[axis]


def _gather_nd_bound(draw: Draw) -> int:
    data, index = draw.shapes[0], draw.shapes[draw.position]
    return min(data[: index[0]])


POSITIVE = uniform(0.1, 10.0)
UNIT = uniform(-0.95, 0.95)

DOMAINS: dict[str, Sequence[Domain] | Domain] = {
    **dict.fromkeys(("log", "log2", "log10", "sqrt", "rsqrt"), POSITIVE),
    **dict.fromkeys(("asin", "acos", "atanh"), UNIT),
    "acosh": uniform(1.0, 10.0),
    # A positive base: a real power for every exponent; integers: no negative
    # exponent, whose power is not an integer.
    "power": (
        uniform(0.1, 3.0),
        lambda draw: uniform(-2.0 if draw.dtype.kind == "f" else 0, 2.0)(draw),
    ),
    **dict.fromkeys(
        ("divide", "floor_divide", "trunc_divide", "mod", "floor_mod", "trunc_mod"),
        (default, nonzero),
    ),
    # Shifts by less than the narrowest width the cases use (int8).
    **dict.fromkeys(("left_shift", "right_shift"), (uniform(-100, 100), uniform(0, 7))),
    **dict.fromkeys(("isnan", "isinf", "isfinite"), with_specials),
    "take": (default, indices(_axis_size)),
    "gather": (default, indices(_axis_size)),
    "gather_nd": (default, indices(_gather_nd_bound)),
    "one_hot": (indices(lambda draw: draw.attributes["depth"]), default, default),
    "image.crop_and_resize": (
        default,
        uniform(0.0, 1.0),
        indices(lambda draw: draw.shapes[0][0]),
    ),
    "image.grid_sample": (default, uniform(-1.0, 1.0)),
    # The moving variance is a variance.
    "nn.batch_norm": (default, default, default, default, POSITIVE),
}
"""Per operator: one domain for every argument, or one per argument; else `default`."""


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One relay function ``@main`` that exercises one operator."""

    name: str
    """``nn.conv2d`` for the row's example, ``nn.conv2d[what it varies]`` for an edge case."""
    operator: str
    source: str
    """Relay text (``def @main``...) or relay-dialect MLIR (``func.func @main``...)."""

    def module(self) -> ModuleOp:
        """The case parsed: a module whose one function is ``@main``."""
        if self.source.lstrip().startswith("def "):
            return parse_relay(f'#[version = "0.0.5"]\n{self.source}', self.name)
        return Parser(relay_context(), self.source, self.name).parse_module()

    def inputs(self) -> dict[str, np.ndarray]:
        """The case's inputs by parameter name, drawn from its operator's domain."""
        return draw_inputs(self.operator, main(self.module()), seed_of(self.name))

    def fingerprint(self) -> str:
        """A digest of the function and its inputs: a stored result is for exactly this case."""
        digest = hashlib.sha256(self.source.encode())
        for name, array in self.inputs().items():
            digest.update(f"{name}:{array.dtype}:{array.shape}".encode())
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:16]


def seed_of(name: str) -> int:
    """The seed of a case's inputs: stable across processes (unlike `hash`)."""
    return zlib.crc32(name.encode())


def main(module: ModuleOp) -> FuncOp:
    (function,) = [op for op in module.ops if isinstance(op, FuncOp)]
    return function


def static_shape(type_: TensorType) -> tuple[int, ...]:
    return tuple(DYNAMIC_SIZE if d == DYNAMIC_INDEX else d for d in type_.get_shape())


def draw_inputs(operator: str, function: FuncOp, seed: int) -> dict[str, np.ndarray]:
    """Inputs for `function`'s parameters (tensors, as every case's are), by name."""
    rng = np.random.default_rng(seed)
    args = function.body.block.args
    types = [arg.type for arg in args]
    assert all(isinstance(t, TensorType) for t in types), "a case takes tensors"
    calls = [op for op in function.walk() if isinstance(op, RegisteredOperatorOp)]
    attributes = {k: attr_value(v) for k, v in calls[0].attributes.items()} if calls else {}
    shapes = tuple(static_shape(t) for t in types)  # type: ignore[arg-type]
    domains = DOMAINS.get(operator, default)
    inputs = {}
    for position, (arg, type_) in enumerate(zip(args, types)):
        domain = domains[position] if isinstance(domains, Sequence) else domains
        draw = Draw(rng, shapes[position], tensor_dtype(type_), position, shapes, attributes)
        inputs[arg.name_hint or f"arg{position}"] = domain(draw)
    return inputs


@cache
def _reference_examples() -> dict[str, str]:
    """The example functions of ops.mlir by name, each renamed ``@main`` and put in
    the form every backend takes: parameters and results that are tensors of
    static shape (see `_tensors_in_tensors_out`), a ``?`` dimension `DYNAMIC_SIZE`."""
    module = Parser(relay_context(), OPS_MLIR.read_text(), str(OPS_MLIR)).parse_module()
    examples = {}
    for op in module.ops:
        if isinstance(op, FuncOp):
            clone = op.clone()
            clone.sym_name = StringAttr("main")
            _static_result_types(clone)
            text = re.sub(r"(?<=[<x])\?(?=x)", str(DYNAMIC_SIZE), str(ModuleOp([clone])))
            static = Parser(relay_context(), text, op.sym_name.data).parse_module()
            _tensors_in_tensors_out(main(static))
            examples[op.sym_name.data] = str(static)
    return examples


SHAPE_ARGUMENT = {"dyn.sparse_to_dense": 3}
"""Dynamic operators without a static form, by the argument that holds their result's shape."""


def _static_result_types(function: FuncOp) -> None:
    """Give each ``dyn.*`` call whose shape arguments are constants the result
    type of the static call relay-dynamic-to-static makes of it (or, without
    one, the shape its constant holds): the sizes its constants decide, where a ``?`` would otherwise become `DYNAMIC_SIZE`."""
    for op in list(function.walk()):
        if not isinstance(op, RegisteredOperatorOp):
            continue
        if op.OPERATOR.name in SHAPE_ARGUMENT:
            shape = constant_values(op.operands[SHAPE_ARGUMENT[op.OPERATOR.name]])
            (result,) = op.results
            assert isinstance(result.type, TensorType) and shape is not None
            typed = TensorType(result.type.element_type, shape)
            Rewriter.replace_value_with_new_type(result, typed)
            continue
        static = static_call(op)
        if static is None:
            continue
        for result, typed in zip(op.results, static.results):
            Rewriter.replace_value_with_new_type(result, typed.type)
        static.drop_all_references()  # never inserted: only its types were wanted
    function.update_function_type()


def _tensors_in_tensors_out(function: FuncOp) -> None:
    """A tuple parameter becomes a parameter per field, tupled in the body, and
    several results one tuple result: as a Relay function, which returns one
    value, and as compiled functions, which take tensors."""
    block = function.body.block
    for position, arg in reversed(list(enumerate(block.args))):
        if not isinstance(arg.type, TupleType):
            continue
        fields = [
            block.insert_arg(field_type, position + i)
            for i, field_type in enumerate(arg.type.types.data)
        ]
        for i, field_arg in enumerate(fields):
            # No ``_<digits>`` suffix, which MLIR's printer adds and its parser drops.
            field_arg.name_hint = f"{arg.name_hint or f'arg{position}'}{i}"
        tupled = TupleOp(fields)
        block.insert_op_before(tupled, block.first_op)  # type: ignore[arg-type]
        arg.replace_all_uses_with(tupled.result)
        block.erase_arg(arg)
    for i, arg in enumerate(block.args):
        arg.name_hint = arg.name_hint or f"arg{i}"
    returned = block.last_op
    assert isinstance(returned, ReturnOp)
    if len(returned.arguments) > 1:
        tupled = TupleOp(list(returned.arguments))
        block.insert_op_before(tupled, returned)
        returned.detach()
        returned.erase()
        block.add_op(ReturnOp(tupled.result))
    function.update_function_type()


def example(operator: str) -> Case:
    """The row's example of the dialect's reference file."""
    return Case(operator, operator, _reference_examples()[f"relay.{operator}"])


def edge(operator: str, what: str, signature: str, body: str) -> Case:
    """An edge case in Relay text: ``def @main(<signature>) { <body> }``."""
    return Case(f"{operator}[{what}]", operator, f"def @main({signature}) {{\n  {body}\n}}\n")


def every_case() -> list[Case]:
    """The example of every row but the VM-internal ones, then the edge cases."""
    from .edge_cases import EDGE_CASES

    examples = [example(row.name) for row in operators.ALL if row.name not in VM_INTERNAL]
    return examples + EDGE_CASES


def mlir_edge(
    operator: str, what: str, params: Sequence[tuple[str, str]], result: str, attrs: str = ""
) -> Case:
    """An edge case in relay-dialect MLIR, for the Relax-only operators, which Relay
    text lacks: ``@main`` whose body is one call of `operator` on its parameters
    (``(name, type)``) with `attrs` (an MLIR attribute dictionary's contents)."""
    signature = ", ".join(f"%{name}: {type_}" for name, type_ in params)
    operands = ", ".join(f"%{name}" for name, _ in params)
    types = ", ".join(type_ for _, type_ in params)
    attributes = f" {{{attrs}}}" if attrs else ""
    source = (
        f"func.func @main({signature}) -> {result} {{\n"
        f"  %r = relay.{operator}({operands}){attributes} : ({types}) -> {result}\n"
        f"  func.return %r : {result}\n}}\n"
    )
    return Case(f"{operator}[{what}]", operator, source)
