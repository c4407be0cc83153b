"""Lowering one Relay function to TOSA, in dataflow order.

The conversion walks the function's body once, keeping for each Relay
value its lowered form (:mod:`relay_xdsl.conversion.values`):

* ``relay.constant`` is known contents; it reaches the IR only where an
  operator uses it, in the layout that operator wants (a weight argument,
  or ``tosa.const`` when small or when weights stay in the module);
* ``relay.tuple``, ``relay.tuple_get_item`` and ``relay.let`` only move
  lowered values around;
* ``func.call`` of another function of the module is inlined (a recursive
  one is an error);
* ``relay.fn`` (a fused or composite function) becomes a private function
  and a call of it (a ``relay.fn`` inside one is inlined): its parameters
  stand for its arguments, so a weight stays a known weight inside it,
  which the caller passes;
* an operator call whose arguments are all known is folded with the
  interpreter's kernel; any other call runs the rule registered under the
  operator's name (:mod:`relay_xdsl.conversion.rules`). An operator without a rule,
  and any other op, is an error that names it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, StringAttr, TensorType, TupleType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.printer import Printer
from xdsl.traits import SymbolTable

from relay_xdsl.conversion.errors import LoweringError
from relay_xdsl.conversion.registry import RULES, Rule
from relay_xdsl.conversion.tosa import TosaBuilder
from relay_xdsl.conversion.values import Lowered, Tensor, identity
from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.registry import NoLowering, Operator
from relay_xdsl.interpreter.arrays import dense_view
from relay_xdsl.interpreter.dispatch import run_operator
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.registry import KERNELS

SMALL_CONSTANT = 16
"""Known tensors of at most this many elements stay ``tosa.const`` even when
weights are arguments: scalars and per-channel vectors of small layers cost
nothing in the text and let upstream fold them."""


def rule_of(row: Operator, op: Operation) -> Rule:
    """The lowering rule of `row`; an error naming the operator if it has none."""
    rule = RULES.get(row.name)
    if rule is not None:
        return rule
    if isinstance(row.lowering, NoLowering):
        raise LoweringError(f"operator '{row.name}' has no lowering: {row.lowering.reason}", op)
    raise LoweringError(f"operator '{row.name}' has no lowering rule yet", op)


@dataclass
class RuleCall:
    """One operator call as its lowering rule sees it."""

    lowering: FunctionLowering
    op: RegisteredOperatorOp
    call: Call
    """The call's attributes (with TVM's defaults) and argument types."""
    args: list[Lowered]

    @property
    def emit(self) -> TosaBuilder:
        return self.lowering.builder

    @property
    def prefer_linalg(self) -> bool:
        """Whether what TOSA expresses badly is to be written in linalg instead."""
        return self.lowering.prefer_linalg

    @property
    def in_place_taps(self) -> bool:
        """Whether a convolution may read its taps in place (rules/convolutions.py's
        ``IN_PLACE_TAPS_PIXELS``) rather than copy them side by side."""
        return self.lowering.in_place_taps

    @property
    def name(self) -> str:
        return self.op.OPERATOR.name

    @property
    def result_type(self) -> TensorType:
        type_ = self.op.result.type
        if not isinstance(type_, TensorType):
            raise self.error(f"result type {type_} is not a tensor")
        return type_

    def tensor(self, index: int) -> Tensor:
        """Argument `index`, which must be a tensor."""
        arg = self.args[index]
        if not isinstance(arg, Tensor):
            raise self.error(f"argument {index} is a tuple, not a tensor")
        return arg

    def value(self, arg: int | Tensor, perm: Sequence[int] | None = None) -> SSAValue:
        """Argument `arg` (an index or a tensor) as an IR value in layout `perm`
        (Relay's own layout by default)."""
        tensor = self.tensor(arg) if isinstance(arg, int) else arg
        return self.lowering.materialize(tensor, tuple(perm) if perm is not None else None)

    def result(self, value: SSAValue, perm: Sequence[int] | None = None) -> Tensor:
        """The call's result: `value`, holding the result type in layout `perm`."""
        return Tensor(self.result_type, value, tuple(perm) if perm is not None else ())

    def known(self, index: int) -> np.ndarray | None:
        """The compile-time contents of argument `index`, if known."""
        return self.tensor(index).array

    def error(self, message: str) -> LoweringError:
        return LoweringError(f"{self.name}: {message}", self.op)


class FunctionLowering:
    """The lowering of one function's body into `builder`'s block.

    A function lowered for a ``relay.fn`` (`caller` set) takes the known
    tensors it uses as arguments that its caller passes (`imports`); the
    top-level function takes them as weight arguments (`weights`) or holds
    them as ``tosa.const``.
    """

    def __init__(
        self,
        builder: TosaBuilder,
        *,
        weights_as_arguments: bool,
        prefer_linalg: bool,
        in_place_taps: bool = True,
        caller: FunctionLowering | None = None,
        outlined: list[func.FuncOp] | None = None,
        by_body: dict[str, str] | None = None,
    ):
        self.builder = builder
        self.weights_as_arguments = weights_as_arguments
        self.prefer_linalg = prefer_linalg
        self.in_place_taps = in_place_taps
        self.caller = caller
        self.outlined: list[func.FuncOp] = outlined if outlined is not None else []
        """The functions lowered from ``relay.fn`` ops, in order, shared with callees."""
        self.by_body: dict[str, str] = by_body if by_body is not None else {}
        """The names of those functions by their bodies' text, shared with callees."""
        self.weights: list[np.ndarray] = []
        """The weight arguments' contents, in argument order (after the inputs)."""
        self.imports: list[tuple[Tensor, tuple[int, ...]]] = []
        """The known tensors, with their layouts, that the caller passes after the inputs."""
        self.values: dict[SSAValue, Lowered] = {}
        self._known_values: dict[tuple[int, tuple[int, ...]], SSAValue] = {}
        self._known_tensors: list[Tensor] = []  # keeps the ids of `_known_values` unique
        self._inlining: set[func.FuncOp] = set()

    # Values.

    def materialize(self, tensor: Tensor, perm: tuple[int, ...] | None = None) -> SSAValue:
        """`tensor` as an IR value of this function in layout `perm` (Relay's by default)."""
        perm = perm if perm is not None else identity(tensor.rank)
        if tensor.array is not None:
            # known tensors are shared by functions: their IR values are kept per function
            key = (id(tensor), perm)
            value = self._known_values.get(key)
            if value is None:
                value = self._known(tensor, perm)
                self._known_values[key] = value
                self._known_tensors.append(tensor)
            return value
        value = tensor.in_layout.get(perm)
        if value is None:
            assert tensor.value is not None
            current = tensor.perm
            value = self.builder.transpose(tensor.value, [current.index(p) for p in perm])
            tensor.in_layout[perm] = value
        return value

    def _known(self, tensor: Tensor, perm: tuple[int, ...]) -> SSAValue:
        assert tensor.array is not None
        array = np.ascontiguousarray(tensor.array.transpose(perm))
        if not self.weights_as_arguments or array.size <= SMALL_CONSTANT:
            return self.builder.const(array, tensor.element_type)
        block = self.builder.block
        if self.caller is not None:
            self.imports.append((tensor, perm))
        else:
            self.weights.append(array)
        return block.insert_arg(TensorType(tensor.element_type, array.shape), len(block.args))

    # Ops.

    def lower_block(self, block: Block) -> Lowered:
        """Lower `block`'s ops; the lowered value its terminator returns."""
        for op in block.ops:
            if op is block.last_op and isinstance(op, (relay.ReturnOp, func.ReturnOp)):
                values = [self.values[v] for v in op.operands]
                return values[0] if len(values) == 1 else tuple(values)
            self.lower_op(op)
        raise LoweringError("a body without a return", block.parent_op())

    def lowered(self, value: SSAValue) -> Lowered | None:
        """The lowered form of `value` before its op is reached in order: lowered
        already, or a constant; None for a value computed later."""
        if value not in self.values and isinstance(value.owner, relay.ConstantOp):
            self.lower_op(value.owner)
        return self.values.get(value)

    def lower_op(self, op: Operation) -> None:
        if len(op.results) == 1 and op.results[0] in self.values:
            # lowered ahead of its place: a bias add that a convolution took in
            # (rules/bias.py), or the constant it adds
            return
        if isinstance(op, RegisteredOperatorOp):
            self.values[op.result] = self._operator(op)
        elif isinstance(op, relay.ConstantOp):
            self.values[op.result] = Tensor(_tensor_type(op), array=_constant_array(op))
        elif isinstance(op, relay.TupleOp):
            self.values[op.result] = tuple(self.values[v] for v in op.operands)
        elif isinstance(op, relay.TupleGetItemOp):
            whole = self.values[op.operands[0]]
            if not isinstance(whole, tuple):
                raise LoweringError("relay.tuple_get_item of a tensor", op)
            self.values[op.results[0]] = whole[op.index.value.data]
        elif isinstance(op, relay.LetOp):
            self.values[op.result] = self.values[op.value]
        elif isinstance(op, relay.FnOp):
            args = [self.values[arg] for arg in op.args]
            if self.caller is None and all(isinstance(a, Tensor) for a in args):
                self.values[op.result] = self._call_outlined(op, args)  # type: ignore[arg-type]
            else:
                for param, arg in zip(op.params, args):
                    self.values[param] = arg
                self.values[op.result] = self.lower_block(op.body.block)
        elif isinstance(op, func.CallOp) and len(op.results) == 1:
            self.values[op.results[0]] = self._call(op)
        elif isinstance(op, relay.GenericOperatorOp):
            raise LoweringError(f"operator '{op.operator_name}' is unknown: it has no lowering", op)
        else:
            raise LoweringError(f"'{op.name}' has no lowering", op)

    def _call_outlined(self, op: relay.FnOp, args: list[Tensor]) -> Lowered:
        """A ``relay.fn`` as a private function of its own, and a call of it.

        Tensors computed at run time cross the call in the layout they are
        held in; known ones are used inside as if inlined, and passed (as
        weights) where the callee materialises them. Outlining keeps each
        fused group one function, as TVM compiles its primitive functions:
        LLVM's optimiser takes time superlinear in a function's size."""
        runtime = [a for a in args if a.array is None]
        block = Block(arg_types=[self.materialize(a, a.perm).type for a in runtime])
        callee = FunctionLowering(
            TosaBuilder(block),
            weights_as_arguments=self.weights_as_arguments,
            prefer_linalg=self.prefer_linalg,
            in_place_taps=self.in_place_taps,
            caller=self,
            outlined=self.outlined,
            by_body=self.by_body,
        )
        params = iter(block.args)
        for param, arg in zip(op.params, args):
            callee.values[param] = (
                arg if arg.array is not None else Tensor(arg.type, next(params), arg.perm)
            )
        result = callee.lower_block(op.body.block)
        returned = list({id(t): t for t in flatten(result) if t.array is None}.values())
        if not returned:
            return result  # all known: nothing to call
        block.add_op(func.ReturnOp(*(callee.materialize(t, t.perm) for t in returned)))
        function = func.FuncOp(
            "",
            ([a.type for a in block.args], [r.type for r in block.last_op.operands]),  # type: ignore[union-attr]
            Region([block]),
            visibility="private",
        )
        # Groups that compute the same thing (a transformer's layers, a network's
        # repeated blocks) share one function: their weights are arguments, so
        # their bodies print the same.
        body = _generic_text(function)
        name = self.by_body.get(body)
        if name is None:
            name = _outlined_name(op, len(self.outlined))
            function.sym_name = StringAttr(name)
            self.outlined.append(function)
            self.by_body[body] = name
        operands = [self.materialize(a, a.perm) for a in runtime]
        operands += [self.materialize(t, perm) for t, perm in callee.imports]
        call = func.CallOp(name, operands, list(function.function_type.outputs.data))
        self.builder.block.add_op(call)
        by_id = {id(t): Tensor(t.type, r, t.perm) for t, r in zip(returned, call.results)}
        return _replaced(result, by_id)

    def _call(self, op: func.CallOp) -> Lowered:
        """A call of another function of the module, lowered in place (its body inlined)."""
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if not isinstance(callee, func.FuncOp) or callee.is_declaration:
            raise LoweringError(f"@{op.callee.string_value()} is not a function with a body", op)
        if callee in self._inlining:
            raise LoweringError(f"@{op.callee.string_value()} is recursive: it has no lowering", op)
        self._inlining.add(callee)
        for param, arg in zip(callee.body.block.args, op.arguments):
            self.values[param] = self.values[arg]
        result = self.lower_block(callee.body.block)
        self._inlining.discard(callee)
        return result

    def _operator(self, op: RegisteredOperatorOp) -> Lowered:
        row = op.OPERATOR
        args = [self.values[v] for v in op.operands]
        folded = self._fold(op, args)
        if folded is not None:
            return folded
        rule = rule_of(row, op)
        call = Call(row.schema, [a.type for a in op.operands], op.attributes, op.result.type)
        return rule(RuleCall(self, op, call, args))

    def _fold(self, op: RegisteredOperatorOp, args: list[Lowered]) -> Lowered | None:
        """The call's value when every argument is known and the operator has a kernel."""
        arrays = [_known(a) for a in args]
        if any(a is _UNKNOWN for a in arrays) or op.OPERATOR.name not in KERNELS:
            return None
        try:
            result = run_operator(op, tuple(arrays))
        except InterpreterError as error:
            raise LoweringError(str(error), op) from None
        return _known_value(op.result.type, result)


def flatten(value: Lowered) -> list[Tensor]:
    """The tensors of a lowered value, tuples flattened, in order."""
    if isinstance(value, tuple):
        return [t for v in value for t in flatten(v)]
    return [value]


def _replaced(value: Lowered, by_id: dict[int, Tensor]) -> Lowered:
    if isinstance(value, tuple):
        return tuple(_replaced(v, by_id) for v in value)
    return by_id.get(id(value), value)


def _generic_text(op: Operation) -> str:
    stream = io.StringIO()
    Printer(stream, print_generic_format=True).print_op(op)
    return stream.getvalue()


def _outlined_name(op: relay.FnOp, index: int) -> str:
    """``fused_<operators>_<index>``, after the operators of the body, as TVM names its
    fused functions."""
    names = [
        inner.OPERATOR.name.replace(".", "_")
        for inner in op.body.walk()
        if isinstance(inner, RegisteredOperatorOp)
    ]
    return f"fused_{'_'.join(names)[:48] or 'fn'}_{index}"


_UNKNOWN = object()


def _known(value: Lowered) -> Any:
    if isinstance(value, tuple):
        fields = tuple(_known(v) for v in value)
        return _UNKNOWN if any(f is _UNKNOWN for f in fields) else fields
    return value.array if value.array is not None else _UNKNOWN


def _known_value(type_: Attribute, value: Any) -> Lowered:
    if isinstance(value, tuple):
        assert isinstance(type_, TupleType)
        return tuple(_known_value(t, v) for t, v in zip(type_.types.data, value))
    assert isinstance(type_, TensorType)
    return Tensor(type_, array=np.asarray(value))


def _tensor_type(op: Operation) -> TensorType:
    type_ = op.results[0].type
    if not isinstance(type_, TensorType):
        raise LoweringError(f"'{op.name}' has type {type_}, not a tensor type", op)
    return type_


def _constant_array(op: relay.ConstantOp) -> np.ndarray:
    if isinstance(op.value, DenseIntOrFPElementsAttr):
        return dense_view(op.value)
    index = op.meta_index.value.data if op.meta_index is not None else "?"
    raise LoweringError(
        f"constant meta[relay.Constant][{index}] has no value (the Relay text had no "
        "#[metadata] section); give --params FILE for its weights or --random-constants SEED "
        "for random ones",
        op,
    )
