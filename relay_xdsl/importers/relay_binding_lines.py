"""The ops of a binding line read whole by the lexer (relay_text/binding_lines.py).

A LINE token stands for ``%N = name(args, attributes) /* ty=... */;`` with
each argument a graph variable, ``meta[relay.Constant][i]`` or a number
literal. `BindingLineBuilder.build` makes of it what the general rules make
of the same tokens (`parse_sequence`'s graph binding: `parse_call` and
`operator_call`), through the same methods, without going through the
grammar token by token:

* each argument, in order: a variable's binding, or the constant op with
  its comment's type and location (`meta_constant_op`, `scalar_constant`
  and `annotate_with`);
* the attributes: each distinct text is read once by `parse_attribute`
  (over its own tokens) and its values shared, as equal spellings are anyway;
* the call: `check_operator_arguments`, then `annotated_operator_call` with
  the comment's type and location.

A projection line, ``%N = %M.i /* ty=... */;``, is a ``relay.tuple_get_item``
annotated as `parse_postfix_operators` makes it.

It declines a line (returning False, having changed nothing) where the
general rules could read the line otherwise: an operator name not yet
known to start no keyword expression (``operator_names``), one the dialect
does not define, a variable not bound to a value in the scope, a
projection the general rules would reject, or nesting near its limit. The caller then reads the line's tokens by the general rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import TupleType
from xdsl.ir import Attribute, OpResult, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_ops import tuple_get_item_op
from relay_xdsl.importers.relay_scope import OperatorRef, Scope
from relay_xdsl.relay_text.binding_lines import BindingLine, ProjectionLine
from relay_xdsl.relay_text.lexer import Kind, Token, int_literal, meta_reference, tokenize
from relay_xdsl.support.depth import MAX_NESTING

if TYPE_CHECKING:
    from relay_xdsl.importers.relay_expressions import RelayExpressionParser

_META = Kind.META
_LEVELS = 4
"""The levels of nesting a binding line enters at most (its call, an
argument, an attribute array and one nested in it)."""


class BindingLineBuilder:
    """Builds the ops of the LINE tokens of one parse."""

    def __init__(self, parser: RelayExpressionParser):
        self.parser = parser
        # Each attribute text's values and its names' offsets in the text.
        self.attributes: dict[str, tuple[dict[str, Attribute], tuple[int, ...]]] = {}
        # Each call checked (`check`), by operator, attribute text and arity.
        self.checked: dict[
            tuple[str, str, int],
            tuple[type[relay.RegisteredOperatorOp] | None, dict[str, Attribute]],
        ] = {}

    def build(self, token: Token, scope: Scope) -> bool:
        """Bind the variable of the LINE `token` in `scope` to its call's
        result, its ops inserted; False, with nothing done, where the line is
        left to the general rules (see the module docstring)."""
        parser = self.parser
        line = token.value
        if line.__class__ is ProjectionLine:
            return self.build_projection(line, scope)
        assert isinstance(line, BindingLine)  # the value of a LINE token
        name = line.name
        op_class = relay.OPERATORS.get(name)
        if (
            op_class is None
            or line.name_token.text not in parser.operator_names
            or parser.depth + _LEVELS > MAX_NESTING
        ):
            return False
        names = scope.names
        # The variables looked up first: a line is declined before anything is built.
        values: list[SSAValue | tuple[Token, Token]] = []
        for argument in line.arguments:
            if isinstance(argument, str):
                # Where the scope's own names have it, as most lines do; else the lookup.
                value = names.get(argument)
                if value is None:
                    value, crossed = scope.lookup(argument)
                    if crossed:
                        return False
                # An op's result mostly: tested by class first, as SSAValue is an ABC (slow to test).
                if value.__class__ is not OpResult and not isinstance(value, SSAValue):
                    return False
                values.append(value)
            else:
                values.append(argument)
        args: list[SSAValue] = []
        for item in values:
            if isinstance(item, tuple):
                constant, comment = item
                annotation = parser.read_annotation(comment)
                if constant.kind is _META:
                    _, index = meta_reference(constant)
                    value = parser.meta_constant_op(constant, index, *annotation)
                else:
                    op = parser.scalar_constant(constant)
                    parser.annotate_with(op, constant, annotation)
                    (value,) = op.results  # unpacked: `op.result` is a Python descriptor
            else:
                value = item
            args.append(value)
        # Its fields as they are: a named tuple's constructor is a Python function.
        callee = tuple.__new__(OperatorRef, (name, line.name_token))
        # A call's check depends on its operator, attribute values and number
        # of arguments alone: each combination is checked once.
        key = (name, line.attributes, len(args))
        checked = self.checked.get(key)
        if checked is None:
            checked = self.checked[key] = self.check(callee, line, args)
        # The checked attributes themselves: the call leaves them unchanged.
        checked_class, checked_attributes = checked
        value = parser.annotated_operator_call(
            callee, checked_class, args, checked_attributes, parser.read_annotation(line.comment)
        )
        names[line.variable] = value
        return True

    def check(
        self, callee: OperatorRef, line: BindingLine, args: list[SSAValue]
    ) -> tuple[type[relay.RegisteredOperatorOp] | None, dict[str, Attribute]]:
        """`check_operator_arguments` for the call of `line`: the operator's
        class and the attributes as checked."""
        parser = self.parser
        attributes: dict[str, Attribute] = {}
        attribute_tokens: dict[str, Token] | None = None
        if line.attributes:
            known = self.attributes.get(line.attributes)
            if known is None:
                known = self.read_attributes(line)
            attributes = dict(known[0])
            start = line.attributes_start
            attribute_tokens = {
                key: Token(Kind.IDENT, key, start + offset, start + offset + len(key), key)
                for key, offset in zip(attributes, known[1])
            }
        op_class = parser.check_operator_arguments(callee, args, attributes, attribute_tokens)
        return op_class, attributes

    def build_projection(self, line: ProjectionLine, scope: Scope) -> bool:
        """`build` for a projection line, as `parse_postfix_operators` reads
        ``%M.i``: declined unless ``%M`` is a tuple value with field ``i``."""
        parser = self.parser
        value, crossed = scope.lookup(line.tuple_variable)
        if crossed or parser.depth + _LEVELS > MAX_NESTING or not isinstance(value, SSAValue):
            return False
        tuple_type = value.type
        index, _ = int_literal(line.field)
        if not isinstance(tuple_type, TupleType) or index >= len(tuple_type.types.data):
            return False
        op = tuple_get_item_op(value, index)
        parser.annotate_with(op, line.field, parser.read_annotation(line.comment))
        (scope.names[line.variable],) = op.results
        return True

    def read_attributes(self, line: BindingLine) -> tuple[dict[str, Attribute], tuple[int, ...]]:
        """The attributes of `line`, read from their tokens as a call's are."""
        parser = self.parser
        start = line.attributes_start
        end = start + len(line.attributes)
        saved = parser.tokens, parser.pos
        tokens = line.attribute_tokens
        if tokens is None:  # read first on another line
            tokens = tokenize(parser.source, start, end, int_arrays=True)
        parser.tokens = tokens
        parser.pos = 0
        parser.depth += 1  # in the call, as `parse_call` reads them
        attributes: dict[str, Attribute] = {}
        names: dict[str, Token] = {}
        try:
            while True:
                parser.parse_attribute(parser.peek(), attributes, names)
                if not parser.accept(","):
                    break
            if parser.peek().kind is not Kind.EOF:
                parser.expect(")", "to close the argument list")
        finally:
            parser.depth -= 1
            parser.tokens, parser.pos = saved
        known = self.attributes[line.attributes] = (
            attributes,
            tuple(token.start - start for token in names.values()),
        )
        return known
