"""Variable bindings: ``relay.let``, and which values are bound to a variable.

SSA names are cosmetic. Whether a value is bound to a variable, and to
which kind, is recorded in the IR:

* ``relay.let`` binds its operand to a variable, its result: Relay's
  ``let %x = e;``, a Relax variable binding (``dataflow``: a Relax
  ``DataflowVar``, otherwise a ``Var``). When the operand is the result of
  an op that nothing else uses, that op is the binding's expression
  (``let %x = exp(%0);``); otherwise the binding is an alias of the operand
  (``let %y = %x;``, Relax's ``gv = lv``), which for an operand used
  elsewhere too is the shared expression itself (Relay's graph temps).
* Relay has no other variables: every other value is an anonymous graph
  node (``%0 = ...;``).
* A function imported from Relax carries ``relax.dataflow`` or
  ``relax.binding_block``, and its body, with the ``relay.fn`` bodies
  inside it, is in Relax's A-normal form: every op other than a tuple, a
  constant or a ``relay.let`` is bound to a variable of its own, unless it
  is the expression of a ``relay.let``. That variable is a ``Var`` in a
  binding block and a ``DataflowVar`` in a dataflow block, except for what
  a dataflow block returns (the value, or the fields of a returned tuple):
  that is bound to an output ``Var``, implicitly too. In a body carrying
  ``relax.dataflow`` itself (as imported) that binding is part of the body,
  printed as a let in Relay text; in a ``relay.fn`` a pass made inside one,
  the returned value is the body's result expression, which export binds
  to an output ``Var`` all the same. A ``relay.let`` without ``dataflow``
  in a dataflow block is an output ``Var`` too: one the block does not
  return, or an alias. Tuples and constants are bound only through
  ``relay.let``; otherwise they are inline arguments.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from xdsl.dialects.builtin import UnitAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.syntax import parse_relay_type, print_type
from relay_xdsl.dialects.relay.verified import verified_by_key

BINDING_BLOCK = "relax.binding_block"
"""On a function or ``relay.fn``: its body is a Relax binding block, not a dataflow block."""
DATAFLOW = "relax.dataflow"
"""On a function or ``relay.fn``: its body is a Relax dataflow block."""

BodyKind = Literal["dataflow", "binding"]


@verified_by_key()
@irdl_op_definition
class LetOp(IRDLOperation):
    """Binds its operand to a variable, the result: ``let %x = e;`` in Relay.

    With ``dataflow``, the variable is a Relax ``DataflowVar``, visible only
    in its dataflow block; otherwise it is a Relay variable or a Relax
    ``Var``. The operand is the bound expression when nothing else uses it,
    else the binding is an alias (see the module docstring). Reading the
    variable is reading the value, but passes do not look through it: a
    let-bound value is a barrier to operator fusion and to pattern matching,
    as in TVM.

    With ``unchecked``, the variable has a declared type (the result type,
    Relay's ``let %x: T = e;``) that the value's type contradicts: TVM's
    parser keeps a variable's declared type without checking it against the
    bound value (its ``parse_expr`` runs no type inference), so such a
    binding imports as written, and only type inference (``relay-infer-type``)
    rejects it.

    Syntax::

        %y = relay.let %0 : tensor<4xf32>
        %lv = relay.let dataflow %1 : tuple<tensor<4xf32>, tensor<4xf32>>
        %b = relay.let unchecked %2 : tuple<> to tensor<i1>
    """

    name = "relay.let"
    value = operand_def()
    result = result_def()
    dataflow = opt_attr_def(UnitAttr)
    unchecked = opt_attr_def(UnitAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue | Operation,
        *,
        dataflow: bool = False,
        declared: Attribute | None = None,
    ):
        """A binding of `value`; with a `declared` type other than the
        value's, an ``unchecked`` one whose variable has that type."""
        value = SSAValue.get(value)
        attributes: dict[str, Attribute] = {"dataflow": UnitAttr()} if dataflow else {}
        if declared is not None and declared != value.type:
            attributes["unchecked"] = UnitAttr()
        else:
            declared = value.type
        # As ``Operation.create`` builds it: the IRDL builder's generic checks
        # of the arguments cost more than the op, and these have its shape.
        Operation.__init__(self, operands=(value,), result_types=(declared,), attributes=attributes)

    def verify_(self) -> None:
        if self.unchecked is None and self.result.type != self.value.type:
            raise VerifyException(
                f"'relay.let' binds a {self.value.type} to a variable of type {self.result.type}"
            )

    def print(self, printer: Printer) -> None:
        if self.dataflow is not None:
            printer.print_string(" dataflow")
        if self.unchecked is not None:
            printer.print_string(" unchecked")
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_op_attributes(
            {k: v for k, v in self.attributes.items() if k not in ("dataflow", "unchecked")}
        )
        printer.print_string(" : ")
        print_type(printer, self.value.type)
        if self.unchecked is not None:
            printer.print_string(" to ")
            print_type(printer, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> LetOp:
        dataflow = parser.parse_optional_keyword("dataflow") is not None
        unchecked = parser.parse_optional_keyword("unchecked") is not None
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parse_relay_type(parser)
        declared = None
        if unchecked:
            parser.parse_keyword("to")
            declared = parse_relay_type(parser)
        op = cls(parser.resolve_operand(operand, type_), dataflow=dataflow, declared=declared)
        if unchecked:
            op.attributes["unchecked"] = UnitAttr()
        op.attributes |= attributes
        return op


def expression_let(value: SSAValue) -> LetOp | None:
    """The ``relay.let`` that `value` is the expression of, if any.

    That is the case when `value` is the result of an op (other than a
    ``relay.let``) and its only use is a ``relay.let`` in the same block.
    """
    if not isinstance(value, OpResult) or isinstance(value.owner, LetOp):
        return None
    use = value.get_unique_use()
    if use is None:
        return None
    user = use.operation
    if isinstance(user, LetOp) and user.parent is value.owner.parent:
        return user
    return None


def let_expression(let: LetOp) -> Operation | None:
    """The op whose result `let` binds as its expression (None for an alias)."""
    value = let.value
    if isinstance(value, OpResult) and expression_let(value) is let:
        return value.owner
    return None


def resolve_lets(value: SSAValue) -> SSAValue:
    """The value a chain of ``relay.let`` variables stands for."""
    while isinstance(value, OpResult) and isinstance(value.owner, LetOp):
        value = value.owner.value
    return value


def relax_body_kind(
    block: Block, known: dict[Block, BodyKind | None] | None = None
) -> BodyKind | None:
    """The kind of Relax binding block `block` is, or None in a Relay function.

    A function or ``relay.fn`` says so with ``relax.binding_block`` or
    ``relax.dataflow``; a ``relay.fn`` without either, inside a function
    imported from Relax, is a dataflow block (as export makes it).

    `known` keeps the kinds found (of `block` and the blocks around it), so
    that a caller asking for every block of a nest walks each level once.
    """
    known = {} if known is None else known
    # Up to the nearest block whose kind its own op says (or is known), then down.
    chain: list[tuple[Block, Operation]] = []
    current: Block | None = block
    kind: BodyKind | None = None
    while current is not None:
        if current in known:
            kind = known[current]
            break
        op = current.parent_op()
        if op is None:
            break
        if isinstance(op, FuncOp) or op.name == "relay.fn":
            attributes = op.attributes
            if BINDING_BLOCK in attributes or DATAFLOW in attributes:
                kind = "binding" if BINDING_BLOCK in attributes else "dataflow"
                known[current] = kind
                break
            if isinstance(op, FuncOp):
                known[current] = None
                break
        chain.append((current, op))
        current = op.parent_block()
    for inner, op in reversed(chain):
        # A relay.fn inside a Relax function is a dataflow block; if and match
        # bodies are of the kind of the body around them.
        if op.name == "relay.fn" and kind is not None:
            kind = "dataflow"
        known[inner] = kind
    return kind


_INLINE_OPS = frozenset({"relay.tuple", "relay.constant"})


def implicitly_bound(op: Operation, kind: BodyKind, returned: set[SSAValue]) -> bool:
    """Whether `op`, in a Relax body of `kind`, is bound to a variable without a ``relay.let``.

    `returned` is what a dataflow body returns as its result expression
    (`result_expressions`): those values are bound to no variable of the
    body (see the module docstring).
    """
    if op.name in _INLINE_OPS or isinstance(op, LetOp) or len(op.results) != 1:
        return False
    result = op.results[0]
    if expression_let(result) is not None:
        return False
    return kind == "binding" or result not in returned


def result_expressions(block: Block) -> set[SSAValue]:
    """What a Relax dataflow body `block` returns as its result expression, not bound in it.

    That is every returned value (`returned_values`) of a ``relay.fn`` a pass
    made, and nothing in a body carrying ``relax.dataflow``, whose returned
    values are bound to its output variables (see the module docstring).
    """
    op = block.parent_op()
    return set() if op is None or DATAFLOW in op.attributes else returned_values(block)


def returned_values(block: Block) -> set[SSAValue]:
    """What `block` returns: its terminator's operands, and the fields of inline tuples among them."""
    terminator = block.last_op
    if terminator is None:
        return set()
    return {v for operand in terminator.operands for v in _exposed(operand)}


def _exposed(value: SSAValue) -> Iterator[SSAValue]:
    yield value
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "relay.tuple":
        for field in owner.operands:
            yield from _exposed(field)
