"""A dataflow pattern language for the relay dialect, after ``tvm.relay.dataflow_pattern``.

Patterns read as they do in TVM::

    from relay_xdsl.dataflow_pattern import is_op, wildcard

    r = is_op("nn.conv2d")(wildcard(), wildcard())
    r = is_op("add")(r, wildcard()) | r
    r = r.optional(lambda x: is_op("nn.relu")(x))

A pattern matches an SSA value of the relay dialect, through the operation
that defines it:

* ``wildcard()`` matches any value;
* ``is_constant()`` matches a ``relay.constant`` result;
* ``is_var(name="")`` matches a function parameter (a block argument),
  optionally by Relay name;
* ``is_op(name)(p1, ..., pn)`` matches a call of operator ``name`` (any
  ``relay.<name>`` op, or ``relay.op "<name>"``) whose n arguments match
  ``p1 ... pn``; ``is_op(name)(None)`` accepts any arguments.
  ``wildcard()(...)`` also matches calls of function literals (``relay.fn``)
  and of global functions (``func.call``). As in TVM,
  ``add`` and ``multiply`` also match with their two arguments swapped, and
  ``divide``/``multiply`` chains match up to reassociation;
* ``p1 | p2`` tries ``p1``, then ``p2``; ``p.optional(f)`` is ``p | f(p)``;
* ``p.has_attr({...})`` also requires attribute values. On an operator call
  the values compared are the op's effective attributes, TVM defaults
  included (``relay_attr``); an unknown attribute name never matches. On
  ``is_op(name)`` itself it compares operator properties (``TOpPattern``).
  On a ``relay.fn`` call's callee it compares the function's attributes;
* ``is_tuple([p1, ...])``, ``is_tuple_get_item(p, index=None)``;
* ``has_dtype("float32")``, ``has_shape([1, 3])``, ``has_type(T)`` constrain
  the value's type (``T`` an MLIR type or Relay type text);
* ``p1 + p2``, ``p1 - p2``, ``p1 * p2``, ``p1 / p2`` build ``add``,
  ``subtract``, ``multiply``, ``divide`` calls.

Matching is TVM's: a pattern node that occurs twice must match the same
value both times (``(x + y) * (x - y)`` needs the same ``x`` and ``y``), and
:class:`PatternMatcher` keeps the node → value map of a successful match.

A *pattern table* is an ordered list of ``(composite_name, pattern)`` or
``(composite_name, pattern, check)`` entries, first entry first, where
``check(root_op) -> bool`` vetoes a match. :data:`BUILTIN_PATTERN_TABLES`
names the tables that ship with relay-xdsl; :func:`load_pattern_table` loads
``"module:attr"`` from any importable module, where ``attr`` is a table or a
function returning one.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, overload

from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import CallOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.relay_text.types import RelayExportError, relay_type

# ---------------------------------------------------------------------------
# Pattern nodes
# ---------------------------------------------------------------------------


class DFPattern:
    """A dataflow pattern. Nodes compare by identity, as in TVM."""

    @overload
    def __call__(self, any_args: None, /) -> CallPattern: ...
    @overload
    def __call__(self, *args: DFPattern) -> CallPattern: ...
    def __call__(self, *args: DFPattern | None) -> CallPattern:
        """A call of this with arguments matching `args`, or any arguments for ``(None)``."""
        if len(args) == 1 and args[0] is None:
            return CallPattern(self, None)
        patterns = [arg for arg in args if arg is not None]
        if len(patterns) != len(args):
            raise TypeError(
                "None is not an argument pattern; pattern(None) alone matches any arguments"
            )
        return CallPattern(self, patterns)

    def __or__(self, other: DFPattern) -> AltPattern:
        return AltPattern(self, other)

    def __add__(self, other: DFPattern) -> CallPattern:
        return is_op("add")(self, other)

    def __sub__(self, other: DFPattern) -> CallPattern:
        return is_op("subtract")(self, other)

    def __mul__(self, other: DFPattern) -> CallPattern:
        return is_op("multiply")(self, other)

    def __truediv__(self, other: DFPattern) -> CallPattern:
        return is_op("divide")(self, other)

    def has_attr(self, attrs: Mapping[str, Any]) -> AttrPattern:
        """This pattern, also requiring the given attribute values."""
        return AttrPattern(self, dict(attrs))

    def has_type(self, type_: Attribute | str) -> TypePattern:
        """This pattern, also requiring the value's type."""
        return TypePattern(self, type_)

    def has_dtype(self, dtype: str) -> DataTypePattern:
        """This pattern, also requiring a tensor of Relay dtype `dtype`."""
        return DataTypePattern(self, dtype)

    def has_shape(self, shape: Sequence[int]) -> ShapePattern:
        """This pattern, also requiring a tensor of shape `shape`."""
        return ShapePattern(self, tuple(shape))

    def optional(self, option_constructor: Callable[[DFPattern], DFPattern]) -> AltPattern:
        """``self``, or ``option_constructor(self)``: an optional consumer of this pattern."""
        return self | option_constructor(self)

    def match(self, value: SSAValue) -> bool:
        """Whether `value` matches this pattern."""
        return PatternMatcher().match(self, value)

    def children(self) -> tuple[DFPattern, ...]:
        """The sub-patterns, in TVM's visiting order."""
        return ()


@dataclass(eq=False, repr=False)
class WildcardPattern(DFPattern):
    """Matches any value."""

    def __repr__(self) -> str:
        return "*"


@dataclass(eq=False, repr=False)
class ConstantPattern(DFPattern):
    """Matches a ``relay.constant`` result."""

    def __repr__(self) -> str:
        return "is_constant()"


@dataclass(eq=False, repr=False)
class VarPattern(DFPattern):
    """Matches a function parameter, by Relay name unless `name` is empty."""

    name: str = ""

    def __repr__(self) -> str:
        return f"is_var({self.name!r})" if self.name else "is_var()"


@dataclass(eq=False, repr=False)
class OperatorPattern(DFPattern):
    """Matches the operator `name` in the callee position of a call (TVM's ``is_op``)."""

    name: str

    def __repr__(self) -> str:
        return f"is_op({self.name!r})"


@dataclass(eq=False, repr=False)
class CallPattern(DFPattern):
    """A call of something matching `op` with arguments matching `args` (any if ``None``)."""

    op: DFPattern
    args: list[DFPattern] | None

    def children(self) -> tuple[DFPattern, ...]:
        return (self.op, *(self.args or ()))

    def __repr__(self) -> str:
        args = "..." if self.args is None else ", ".join(map(repr, self.args))
        return f"{self.op!r}({args})"


@dataclass(eq=False, repr=False)
class AltPattern(DFPattern):
    """`left`, else `right`."""

    left: DFPattern
    right: DFPattern

    def children(self) -> tuple[DFPattern, ...]:
        return (self.left, self.right)

    def __repr__(self) -> str:
        return f"({self.left!r} | {self.right!r})"


@dataclass(eq=False, repr=False)
class AttrPattern(DFPattern):
    """`pattern`, whose match also has the attribute values `attrs`."""

    pattern: DFPattern
    attrs: dict[str, Any]

    def children(self) -> tuple[DFPattern, ...]:
        return (self.pattern,)

    def __repr__(self) -> str:
        return f"{self.pattern!r}.has_attr({self.attrs!r})"


@dataclass(eq=False, repr=False)
class TuplePattern(DFPattern):
    """A ``relay.tuple`` whose fields match `fields` (any fields if ``None``)."""

    fields: list[DFPattern] | None

    def children(self) -> tuple[DFPattern, ...]:
        return tuple(self.fields or ())

    def __repr__(self) -> str:
        fields = "..." if self.fields is None else ", ".join(map(repr, self.fields))
        return f"is_tuple([{fields}])"


@dataclass(eq=False, repr=False)
class TupleGetItemPattern(DFPattern):
    """Field `index` (any field if -1) of a tuple matching `tuple`."""

    tuple: DFPattern
    index: int = -1

    def children(self) -> builtins.tuple[DFPattern, ...]:  # `tuple` is the field here
        return (self.tuple,)

    def __repr__(self) -> str:
        index = "" if self.index == -1 else f", {self.index}"
        return f"is_tuple_get_item({self.tuple!r}{index})"


@dataclass(eq=False, repr=False)
class TypePattern(DFPattern):
    """`pattern`, whose value has type `type` (an MLIR type or Relay type text)."""

    pattern: DFPattern
    type: Attribute | str

    def children(self) -> tuple[DFPattern, ...]:
        return (self.pattern,)

    def __repr__(self) -> str:
        return f"{self.pattern!r}.has_type({self.type!r})"


@dataclass(eq=False, repr=False)
class DataTypePattern(DFPattern):
    """`pattern`, whose value is a tensor of Relay dtype `dtype`."""

    pattern: DFPattern
    dtype: str

    def children(self) -> tuple[DFPattern, ...]:
        return (self.pattern,)

    def __repr__(self) -> str:
        return f"{self.pattern!r}.has_dtype({self.dtype!r})"


@dataclass(eq=False, repr=False)
class ShapePattern(DFPattern):
    """`pattern`, whose value is a tensor of shape `shape`."""

    pattern: DFPattern
    shape: tuple[int, ...]

    def children(self) -> tuple[DFPattern, ...]:
        return (self.pattern,)

    def __repr__(self) -> str:
        return f"{self.pattern!r}.has_shape({list(self.shape)!r})"


# ---------------------------------------------------------------------------
# Constructors, as in tvm.relay.dataflow_pattern
# ---------------------------------------------------------------------------


def wildcard() -> WildcardPattern:
    """A pattern matching any value."""
    return WildcardPattern()


def is_constant() -> ConstantPattern:
    """A pattern matching a constant; MergeComposite keeps it inside the composite."""
    return ConstantPattern()


def is_var(name: str = "") -> VarPattern:
    """A pattern matching a function parameter, named `name` if given."""
    return VarPattern(name)


def is_op(op_name: str) -> OperatorPattern:
    """The operator `op_name`; call it with argument patterns to match a call."""
    if not isinstance(op_name, str) or not op_name:
        raise ValueError(f"is_op expects an operator name, got {op_name!r}")
    return OperatorPattern(op_name)


def is_tuple(fields: Sequence[DFPattern] | None) -> TuplePattern:
    """A tuple whose fields match `fields` (any fields if ``None``)."""
    return TuplePattern(None if fields is None else list(fields))


def is_tuple_get_item(tuple_value: DFPattern, index: int | None = None) -> TupleGetItemPattern:
    """Field `index` of a tuple matching `tuple_value` (any field if ``None``)."""
    return TupleGetItemPattern(tuple_value, -1 if index is None else index)


def has_attr(attrs: Mapping[str, Any], pattern: DFPattern | None = None) -> AttrPattern:
    """`pattern` (default: a wildcard) with attribute values `attrs`."""
    return (pattern or wildcard()).has_attr(attrs)


def has_type(type_: Attribute | str, pattern: DFPattern | None = None) -> TypePattern:
    """`pattern` (default: a wildcard) whose value has type `type_`."""
    return (pattern or wildcard()).has_type(type_)


def has_dtype(dtype: str, pattern: DFPattern | None = None) -> DataTypePattern:
    """`pattern` (default: a wildcard) whose value has Relay dtype `dtype`."""
    return (pattern or wildcard()).has_dtype(dtype)


def has_shape(shape: Sequence[int], pattern: DFPattern | None = None) -> ShapePattern:
    """`pattern` (default: a wildcard) whose value has shape `shape`."""
    return (pattern or wildcard()).has_shape(shape)


def match(pattern: DFPattern, value: SSAValue) -> bool:
    """Whether `value` matches `pattern`."""
    return PatternMatcher().match(pattern, value)


def pattern_nodes(pattern: DFPattern) -> list[DFPattern]:
    """The nodes of `pattern` in TVM's post-order (children first, each node once).

    This is the order of TVM's pattern ``IndexedGraph``; MergeComposite numbers
    a composite's parameters by it.
    """
    order: list[DFPattern] = []
    seen: set[int] = set()
    stack: list[tuple[DFPattern, int]] = [(pattern, 0)]
    seen.add(id(pattern))
    while stack:
        node, next_child = stack.pop()
        children = node.children()
        while next_child < len(children) and id(children[next_child]) in seen:
            next_child += 1
        if next_child < len(children):
            stack.append((node, next_child + 1))
            child = children[next_child]
            seen.add(id(child))
            stack.append((child, 0))
        else:
            order.append(node)
    return order


# ---------------------------------------------------------------------------
# Matching
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Callee:
    """What a call pattern's `op` is matched against: an operator or a called function."""

    operator_name: str | None
    """The operator's name; ``None`` for a function literal or a global function."""

    op: Operation
    """The call: an operator op, a ``relay.fn`` or a ``func.call``."""

    def _key(self) -> tuple[str, object]:
        # TVM compares callees by identity: one Op node per operator, one
        # GlobalVar per global function, and each function literal its own.
        if self.operator_name is not None:
            return ("operator", self.operator_name)
        if isinstance(self.op, CallOp):
            return ("global", self.op.callee.string_value())
        return ("literal", id(self.op))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Callee) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


Matched: TypeAlias = "SSAValue | Callee"


def callee_of(value: SSAValue) -> Callee | None:
    """The callee if `value` is the result of a call, else ``None``."""
    op = value.owner
    if isinstance(op, relay.OperatorOp):
        return Callee(op.operator_name, op)
    if isinstance(op, relay.FnOp | CallOp) and len(op.results) == 1:
        return Callee(None, op)
    return None


def call_args(value: SSAValue) -> tuple[SSAValue, ...]:
    """The arguments of the call defining `value`."""
    op = value.owner
    if isinstance(op, CallOp):
        return tuple(op.arguments)
    assert isinstance(op, relay.OperatorOp | relay.FnOp)
    return tuple(op.args)


def _operator_name(value: SSAValue) -> str | None:
    op = value.owner
    return op.operator_name if isinstance(op, relay.OperatorOp) else None


class PatternMatcher:
    """TVM's ``DFPatternMatcher``: matches a pattern at a value and records the node → match map."""

    def __init__(self) -> None:
        self._memo: dict[DFPattern, Matched] = {}
        self._matched: list[DFPattern] = []

    @property
    def memo(self) -> Mapping[DFPattern, Matched]:
        """Pattern node → the value (or callee) it matched, for the last successful match."""
        return self._memo

    def match(self, pattern: DFPattern, value: SSAValue) -> bool:
        """Whether `value` matches `pattern`; on success :attr:`memo` holds the match."""
        self._memo = {}
        self._matched = []
        return self._visit(pattern, value)

    def _clear(self, watermark: int) -> None:
        for pattern in self._matched[watermark:]:
            self._memo.pop(pattern, None)
        del self._matched[watermark:]

    def _visit(self, pattern: DFPattern, value: Matched) -> bool:
        if pattern in self._memo:
            return self._memo[pattern] == value
        watermark = len(self._matched)
        matched = self._dispatch(pattern, value)
        if matched:
            self._memo[pattern] = value
            self._matched.append(pattern)
        else:
            self._clear(watermark)
        return matched

    def _dispatch(self, pattern: DFPattern, value: Matched) -> bool:
        if isinstance(pattern, WildcardPattern):
            return True
        if isinstance(pattern, AltPattern):
            return self._visit(pattern.left, value) or self._visit(pattern.right, value)
        if isinstance(pattern, AttrPattern):
            return self._visit(pattern.pattern, value) and _has_attrs(value, pattern.attrs)
        if isinstance(value, Callee):
            # Only callee patterns apply to a callee.
            if isinstance(pattern, OperatorPattern):
                return value.operator_name == pattern.name
            return False
        if isinstance(pattern, CallPattern):
            return self._visit_call(pattern, value)
        if isinstance(pattern, ConstantPattern):
            return isinstance(value.owner, relay.ConstantOp)
        if isinstance(pattern, VarPattern):
            return isinstance(value, BlockArgument) and (
                not pattern.name or relay_name(value) == pattern.name
            )
        if isinstance(pattern, TuplePattern):
            op = value.owner
            if not isinstance(op, relay.TupleOp):
                return False
            return pattern.fields is None or self._visit_all(pattern.fields, op.fields)
        if isinstance(pattern, TupleGetItemPattern):
            op = value.owner
            return (
                isinstance(op, relay.TupleGetItemOp)
                and pattern.index in (-1, op.index.value.data)
                and self._visit(pattern.tuple, op.tuple_value)
            )
        if isinstance(pattern, TypePattern):
            return _type_matches(value.type, pattern.type) and self._visit(pattern.pattern, value)
        if isinstance(pattern, DataTypePattern):
            return _dtype_of(value.type) == pattern.dtype and self._visit(pattern.pattern, value)
        if isinstance(pattern, ShapePattern):
            return (
                isinstance(value.type, TensorType)
                and tuple(value.type.get_shape()) == pattern.shape
                and self._visit(pattern.pattern, value)
            )
        # An operator is not a value (TVM compares an Op to an expression).
        return False

    def _visit_all(self, patterns: Sequence[DFPattern], values: Sequence[SSAValue]) -> bool:
        if len(patterns) != len(values):
            return False
        return all(self._visit(p, v) for p, v in zip(patterns, values))

    def _visit_call(self, pattern: CallPattern, value: SSAValue) -> bool:
        callee = callee_of(value)
        if callee is None:
            return False
        args = call_args(value)
        watermark = len(self._matched)
        if self._visit(pattern.op, callee):
            watermark2 = len(self._matched)
            if pattern.args is None:
                return True
            if self._visit_all(pattern.args, args):
                return True
            self._clear(watermark2)
            # add and multiply commute.
            op_name = _pattern_operator(pattern)
            if op_name in ("add", "multiply") and len(pattern.args) == 2:
                if self._visit_all(pattern.args[::-1], args):
                    return True
                self._clear(watermark2)
            return False
        self._clear(watermark)
        return self._visit_reassociated(pattern, value, args)

    def _visit_reassociated(
        self, pattern: CallPattern, value: SSAValue, args: tuple[SSAValue, ...]
    ) -> bool:
        """TVM's divide/multiply reassociation: ``(a * b) / c`` matches ``a * (b / c)``."""
        op_name = _pattern_operator(pattern)
        expr_name = _operator_name(value)
        if pattern.args is None or len(pattern.args) != 2 or len(args) != 2:
            return False
        watermark = len(self._matched)
        arg_names = [_operator_name(a) for a in args]
        if op_name == "divide":
            inner = pattern.args[0]
            if (
                isinstance(inner, CallPattern)
                and _pattern_operator(inner) == "multiply"
                and inner.args is not None
                and len(inner.args) == 2
                and expr_name == "multiply"
                and "divide" in arg_names
            ):
                for arg_id in (0, 1):
                    div = CallPattern(pattern.op, [inner.args[arg_id], pattern.args[1]])
                    mul = CallPattern(inner.op, [inner.args[1 - arg_id], div])
                    if self._visit(mul, value):
                        return True
                    self._clear(watermark)
                return False
        if op_name == "multiply":
            for arg_id in (0, 1):
                inner = pattern.args[arg_id]
                if (
                    isinstance(inner, CallPattern)
                    and _pattern_operator(inner) == "divide"
                    and inner.args is not None
                    and len(inner.args) == 2
                    and expr_name == "divide"
                    and "multiply" in arg_names
                ):
                    mul = CallPattern(pattern.op, [inner.args[0], pattern.args[1 - arg_id]])
                    div = CallPattern(inner.op, [mul, inner.args[1]])
                    return self._visit(div, value)
        return False


def _pattern_operator(pattern: CallPattern) -> str | None:
    return pattern.op.name if isinstance(pattern.op, OperatorPattern) else None


def _type_matches(actual: Attribute, expected: Attribute | str) -> bool:
    if isinstance(expected, str):
        try:
            return "".join(relay_type(actual).split()) == "".join(expected.split())
        except RelayExportError:
            return False
    return actual == expected


def _dtype_of(type_: Attribute) -> str | None:
    if not isinstance(type_, TensorType):
        return None
    try:
        return dtypes.dtype_name(type_.element_type)
    except dtypes.UnknownDTypeError:
        return None


def _has_attrs(value: Matched, attrs: Mapping[str, Any]) -> bool:
    """TVM's AttrPattern check of `attrs` against whatever `value` is."""
    if isinstance(value, Callee):
        if isinstance(value.op, CallOp):
            return False  # a global function is not a function literal
        if value.operator_name is None:
            stored = value.op.attributes
            return all(
                key in stored and _value_matches(expected, relay.attr_value(stored[key]))
                for key, expected in attrs.items()
            )
        return all(
            _value_matches(expected, _operator_property(value.op, key))
            for key, expected in attrs.items()
        )
    op = value.owner
    if isinstance(op, relay.GenericOperatorOp):
        stored = dict(op.relay_attributes())
        return all(
            key in stored and _value_matches(expected, relay.attr_value(stored[key]))
            for key, expected in attrs.items()
        )
    if isinstance(op, relay.OperatorOp):
        return all(
            key in op.schema and _value_matches(expected, op.relay_attr(key))
            for key, expected in attrs.items()
        )
    # A call of a function literal has no call attributes; anything else is no call.
    return isinstance(op, relay.FnOp) and not attrs


_NO_PROPERTY = object()


def _operator_property(op: Operation, key: str) -> Any:
    """An operator-level property, as TVM's ``Op::GetAttrMap`` (only ``TOpPattern``)."""
    if (
        key == "TOpPattern"
        and isinstance(op, relay.OperatorOp)
        and not isinstance(op, relay.GenericOperatorOp)
    ):
        return op.pattern.value
    return _NO_PROPERTY


def _value_matches(expected: Any, actual: Any) -> bool:
    if actual is _NO_PROPERTY:
        return False
    if isinstance(expected, Attribute):
        expected = relay.attr_value(expected)
    if isinstance(expected, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(expected)
            and all(_value_matches(e, a) for e, a in zip(expected, actual))
        )
    if expected is None or actual is None:
        return expected is actual
    if isinstance(expected, str) or isinstance(actual, str):
        return isinstance(expected, str) and isinstance(actual, str) and expected == actual
    return expected == actual


# ---------------------------------------------------------------------------
# Pattern tables
# ---------------------------------------------------------------------------

Check: TypeAlias = Callable[[Operation], bool]
PatternTableEntry: TypeAlias = "tuple[str, DFPattern] | tuple[str, DFPattern, Check]"
PatternTable: TypeAlias = "list[PatternTableEntry]"


class PatternTableError(ValueError):
    """A pattern table that cannot be found or is malformed."""


def make_conv_add_relu_pattern() -> DFPattern:
    """``nn.conv2d``, then an optional ``add``, then an optional ``nn.relu`` (the seed's pattern)."""
    x = wildcard()
    w = wildcard()
    bias = wildcard()
    r: DFPattern = is_op("nn.conv2d")(x, w)
    r = is_op("add")(r, bias) | r
    r = r.optional(lambda x: is_op("nn.relu")(x))
    return r


def make_conv_bias_relu_pattern() -> DFPattern:
    """``nn.conv2d``, an optional ``add`` or ``nn.bias_add``, an optional ``nn.relu``."""
    x = wildcard()
    w = wildcard()
    bias = wildcard()
    r: DFPattern = is_op("nn.conv2d")(x, w)
    r = is_op("add")(r, bias) | is_op("nn.bias_add")(r, bias) | r
    r = r.optional(lambda x: is_op("nn.relu")(x))
    return r


ACTIVATIONS = (
    "nn.relu",
    "relax.nn.gelu",
    "relax.nn.gelu_tanh",
    "relax.nn.silu",
    "sigmoid",
    "tanh",
)
"""The activations the ``dense-bias-act`` table fuses."""


def make_dense_bias_act_pattern() -> DFPattern:
    """``nn.dense`` or ``nn.matmul``, an optional bias (``add``/``nn.bias_add``),
    an optional activation from :data:`ACTIVATIONS`."""
    x = wildcard()
    w = wildcard()
    bias = wildcard()
    r: DFPattern = (is_op("nn.dense") | is_op("nn.matmul"))(x, w)
    r = is_op("add")(r, bias) | is_op("nn.bias_add")(r, bias) | r
    activation: DFPattern = is_op(ACTIVATIONS[0])
    for name in ACTIVATIONS[1:]:
        activation = activation | is_op(name)
    return r.optional(lambda x: activation(x))


BUILTIN_PATTERN_TABLES: dict[str, Callable[[], PatternTable]] = {
    "conv2d-add-relu": lambda: [("ccompiler.conv_add_relu", make_conv_add_relu_pattern())],
    "conv2d-bias-relu": lambda: [("ccompiler.conv2d_bias_relu", make_conv_bias_relu_pattern())],
    "dense-bias-act": lambda: [("ccompiler.dense_bias_act", make_dense_bias_act_pattern())],
}
"""Built-in pattern tables by name; each call builds a fresh table."""


def builtin_pattern_table(name: str) -> PatternTable:
    """The built-in table `name`."""
    factory = BUILTIN_PATTERN_TABLES.get(name)
    if factory is None:
        valid = ", ".join(BUILTIN_PATTERN_TABLES)
        raise PatternTableError(f"unknown pattern table '{name}' (valid: {valid})")
    return factory()


def _import_from_path_or_cwd(module_name: str) -> Any:
    """Module `module_name` from ``sys.path``, else from the current directory
    (its top-level package or module found there, without editing ``sys.path``)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        top = module_name.partition(".")[0]
        if error.name != top:
            raise
        spec = importlib.machinery.PathFinder.find_spec(top, [os.getcwd()])
        if spec is None or spec.loader is None:
            raise
    module = importlib.util.module_from_spec(spec)
    sys.modules[top] = module  # as an import would: its submodules find their package
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[top]
        raise
    return importlib.import_module(module_name)


def load_pattern_table(spec: str) -> PatternTable:
    """Load the table ``"module:attr"``: a table, or a function returning one.

    `attr` may be dotted (``module:Class.TABLE``). The module is looked up on
    ``sys.path`` and then in the current directory, as ``python`` would find
    a script's neighbour (``xdsl-opt`` itself is not run from there).
    """
    module_name, sep, attr_path = spec.partition(":")
    if not sep or not module_name or not attr_path:
        raise PatternTableError(
            f"patterns must be 'module:attr' (an importable module and a table or a "
            f"function returning one), got '{spec}'"
        )
    try:
        obj: Any = _import_from_path_or_cwd(module_name)
    except ImportError as error:
        raise PatternTableError(
            f"cannot import module '{module_name}' for patterns '{spec}': {error}"
        ) from None
    for attr in attr_path.split("."):
        if not hasattr(obj, attr):
            raise PatternTableError(f"'{spec}': '{module_name}' has no attribute '{attr_path}'")
        obj = getattr(obj, attr)
    if callable(obj) and not isinstance(obj, DFPattern):
        try:
            obj = obj()
        except Exception as error:
            raise PatternTableError(
                f"'{spec}': calling {attr_path}() failed: {type(error).__name__}: {error}"
            ) from error
    return validate_pattern_table(obj, spec)


def validate_pattern_table(table: Any, source: str = "pattern table") -> PatternTable:
    """`table` as a checked list of ``(name, pattern[, check])`` entries."""
    if isinstance(table, DFPattern):
        raise PatternTableError(
            f"{source}: expected a list of (name, pattern) entries, got the single pattern {table!r}"
        )
    if isinstance(table, str | bytes) or not isinstance(table, Iterable):
        raise PatternTableError(
            f"{source}: expected a list of (name, pattern) entries, got {type(table).__name__}"
        )
    entries: PatternTable = []
    for index, entry in enumerate(table):
        if not isinstance(entry, tuple | list) or len(entry) not in (2, 3):
            raise PatternTableError(
                f"{source}: entry {index} must be (name, pattern) or (name, pattern, check), "
                f"got {entry!r}"
            )
        name, pattern, *check = entry
        if not isinstance(name, str) or not name:
            raise PatternTableError(f"{source}: entry {index} has no composite name: {name!r}")
        if not isinstance(pattern, DFPattern):
            raise PatternTableError(
                f"{source}: entry {index} ('{name}') has no pattern: {pattern!r}"
            )
        if check and not callable(check[0]):
            raise PatternTableError(
                f"{source}: entry {index} ('{name}') has a check that is not callable"
            )
        entries.append((name, pattern, check[0]) if check else (name, pattern))
    return entries
