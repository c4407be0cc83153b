"""The operator registry: every Relay operator written once, as one row.

An :class:`Operator` row holds all that the project knows about one
operator: its name, operands, attribute schema, fusion pattern, type
relation, Relax mapping and summary, its backward type relation, and why
it lacks an interpreter kernel or a lowering rule where it does (kernels and
rules register themselves by name from their own layers). The rows
live in :mod:`relay_xdsl.dialects.relay.operators`, grouped by family; the
op class of each operator (``Conv2DOp`` for ``nn.conv2d``, one named operand
per argument) is generated from its row as checked-in source,
:mod:`relay_xdsl.dialects.relay.operator_ops`, by ``python -m
relay_xdsl.tools.gen_operator_ops``, so nothing about an operator is
written twice.

The row tables are laid out by hand, between ``# fmt: off`` and
``# fmt: on``, so that a row reads as a few dense lines rather than one line
a field: ``Operator(name,`` and the summary; the schema, built with the
attribute constructors of :mod:`relay_xdsl.dialects.relay.attributes`
(``ints("strides", (1, 1))``, ``integer("axis", required=True)``), ending
with a comment naming TVM's attrs struct (above it when the line is full);
then ``arity`` (and the like), ``pattern`` and ``infer`` filling lines of at most 100
characters; then ``relax``. For example::

    Operator("reverse", "Reverses the order of elements along `axis`.",
        attrs=(integer("axis"),),  # TVM's ReverseAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.with_axis_check,
        relax=RelaxOp("relax.flip", "relax.attrs.FlipAttrs", (Field("axis", Kind.INT),))),
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.attributes import OpPattern, RelayAttr, accepts
from relay_xdsl.dialects.relay.backward import BackwardRelation
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.relax_mapping import RelaxOp

Relation = Callable[[Call], Attribute]
"""A type relation: the result type of a call, from its argument types and
attributes; it raises to reject the call (see
:mod:`relay_xdsl.dialects.relay.inference`)."""


@dataclass(frozen=True)
class NoRelax:
    """Why an operator has no Relax mapping: its Relax calls, if any, import
    as the generic ``relay.op`` and the op does not export to Relax."""

    reason: str


def no_relax(reason: str) -> NoRelax:
    """The documented absence of a Relax mapping."""
    return NoRelax(reason)


@dataclass(frozen=True)
class NoKernel:
    """Why an operator has no interpreter kernel: running it is an error that says so."""

    reason: str


def no_kernel(reason: str) -> NoKernel:
    """The documented absence of an interpreter kernel."""
    return NoKernel(reason)


@dataclass(frozen=True)
class NoLowering:
    """Why an operator has no lowering rule: lowering it is an error that says so."""

    reason: str


def no_lowering(reason: str) -> NoLowering:
    """The documented absence of a lowering rule."""
    return NoLowering(reason)


# Rows compare by identity (eq=False): hashing one is then as cheap as hashing
# a name, which matters to the memoised type inference keyed by row.
@dataclass(frozen=True, eq=False)
class Operator:
    """One Relay operator (or Relax-only operator) and everything about it."""

    name: str
    """The operator's name in Relay text (``nn.conv2d``); its op is ``relay.<name>``."""
    summary: str
    """What the operator computes: the op class's docstring."""
    _: KW_ONLY
    pattern: OpPattern
    """TVM's ``TOpPattern`` for the operator, which fusion follows."""
    infer: Relation
    """The forward type relation: argument types and attributes to result type."""
    relax: RelaxOp | NoRelax
    """How the Relax operator of the same semantics maps onto this op, or why none does."""
    attrs: tuple[RelayAttr, ...] = ()
    """The attribute schema: TVM's attrs struct fields, in TVM's order, with TVM's defaults."""
    arity: int | None = 1
    """The number of arguments; None for any number."""
    operands: tuple[str, ...] | None = None
    """The arguments' names, TVM's (``add_argument("data", ...)``), in order:
    the op class's operands (``Conv2DOp.weight``). Left out where they are
    the default for the arity (see :attr:`operand_names`)."""
    returns_tuple: bool | None = False
    """Whether the result is a tuple; None when the attributes decide (``topk``)."""
    tuple_input: bool = False
    """Whether the single argument is a tuple of tensors (``concatenate``)."""
    backward: BackwardRelation | None = None
    """The backward type relation: the argument types the call's data,
    attributes and result determine (see :mod:`~relay_xdsl.dialects.relay.backward`)."""
    kernel: NoKernel | None = None
    """Why the operator has no interpreter kernel, if it has none. Kernels
    register themselves by operator name in their own layer
    (``@kernel`` of :mod:`relay_xdsl.interpreter.registry`)."""
    lowering: NoLowering | None = None
    """Why the operator has no lowering rule, if it has none. Rules register
    themselves by operator name in their own layer (``@lowering`` of
    :mod:`relay_xdsl.conversion.registry`)."""
    schema: dict[str, RelayAttr] = field(init=False, repr=False)
    """``attrs`` by name."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", {a.name: a for a in self.attrs})
        if self.operands is not None and len(self.operands) != self.arity:
            raise ValueError(
                f"operator '{self.name}' names {len(self.operands)} operand(s) "
                f"but its arity is {self.arity}"
            )

    @property
    def operand_names(self) -> tuple[str, ...] | None:
        """The arguments' names: :attr:`operands`, or by default ``data`` for
        one argument, ``lhs`` and ``rhs`` for two (TVM's unary and binary
        operators), ``arg0``, ``arg1``, ... otherwise (a row with three or more
        arguments names them; a test checks it); None for any number."""
        if self.operands is not None:
            return self.operands
        if self.arity is None:
            return None
        return _DEFAULT_OPERANDS.get(self.arity) or tuple(f"arg{i}" for i in range(self.arity))

    def malformed(self, arg_count: int, attributes: Mapping[str, Attribute]) -> str | None:
        """Why a call with `arg_count` arguments and `attributes` is one the
        op's verifier refuses whatever the types (the number of arguments, an
        attribute not in the schema or not of its kind), or None. The
        relations see only calls that pass."""
        if self.arity is not None and arg_count != self.arity:
            return f"'{self.name}' expects {self.arity} argument(s), got {arg_count}"
        for name, attr in attributes.items():
            spec = self.schema.get(name)
            if spec is None:
                return f"'{self.name}' has no attribute '{name}'"
            if isinstance(attr, UnitAttr):
                if spec.default is not None and not spec.required:
                    return f"attribute '{name}' of '{self.name}' cannot be None"
            elif not accepts(spec.kind, attr):
                return f"attribute '{name}' of '{self.name}' expects {spec.kind.value}, got {attr}"
        return None

    @property
    def op_name(self) -> str:
        """The dialect op's name: ``relay.`` and the operator name."""
        return f"relay.{self.name}"

    @property
    def class_name(self) -> str:
        return class_name(self.name)


_DEFAULT_OPERANDS: dict[int, tuple[str, ...]] = {0: (), 1: ("data",), 2: ("lhs", "rhs")}
"""The argument names of a row that does not name them, by arity."""


_NAMESPACES = frozenset({"nn", "image"})
"""Operator name prefixes that class names leave out (``nn.relu`` is ``ReluOp``)."""


def class_name(operator_name: str) -> str:
    """The op class name for an operator: ``nn.conv2d`` → ``Conv2DOp``,
    ``gather_nd`` → ``GatherNdOp``, ``relax.nn.gelu`` → ``RelaxGeluOp``.

    The words of the name (split at ``.`` and ``_``, without the ``nn`` and
    ``image`` namespaces) are capitalised, and a trailing ``<digits>d``
    (a dimension count) is upper-cased.
    """
    words = [
        word
        for part in operator_name.split(".")
        if part not in _NAMESPACES
        for word in part.split("_")
    ]
    name = "".join(re.sub(r"(\d)d$", r"\1D", word.capitalize()) for word in words)
    return f"{name}Op"
