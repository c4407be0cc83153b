"""Bindings, ``if`` and references: the sixth layer of the Relay text parser.

How these constructs become IR:

* ``%N = e;`` → the SSA value of ``e`` (a graph temp is only a name);
  ``let %x = e;`` → ``relay.let`` of ``e``'s value (see bindings.py), kept
  whether used or not; ``e1; e2`` is ``let _ = e1; e2``, as TVM parses it;
  let names become SSA name hints; a let-bound function literal, see
  relay_functions.py;
* ``if (c) {...} else {...}`` → ``relay.if``; ``ref``, ``ref_read`` and
  ``ref_write`` → ``relay.ref``, ``relay.ref_read`` and ``relay.ref_write``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.dialects.relay.types import is_complete
from relay_xdsl.importers.relay_binding_lines import BindingLineBuilder
from relay_xdsl.importers.relay_functions import RelayFunctionParser
from relay_xdsl.importers.relay_ops import let_op
from relay_xdsl.importers.relay_scope import Binding, ExpressionValue, LetFunction, Scope
from relay_xdsl.relay_text.lexer import Kind, Token, tokenize
from relay_xdsl.relay_text.source import SourceFile

_REFERENCE_ARITY = {"ref": 1, "ref_read": 1, "ref_write": 2}


class RelayLangParser(RelayFunctionParser):
    """Binding sequences, ``if`` and references."""

    def __init__(self, source: SourceFile, tokens: list[Token]):
        super().__init__(source, tokens)
        self.binding_lines = BindingLineBuilder(self)

    def parse_keyword_expression(self, token: Token, scope: Scope) -> ExpressionValue | None:
        value = super().parse_keyword_expression(token, scope)
        if value is not None:
            return value
        if token.text == "if":
            return self.parse_if(scope)
        if token.text in _REFERENCE_ARITY:
            return self.parse_reference(scope)
        return None

    def parse_sequence(self, scope: Scope, nested: bool = True) -> ExpressionValue:
        """TVM's ``ParseExpr``: graph and let bindings and ``e1; e2`` sequencing,
        then an expression. A `nested` sequence (a call argument, a tuple field)
        binds its variables in a scope of its own."""
        if nested and self._at_binding():
            scope = scope.child()
        deferred: list[LetFunction] = []
        while True:
            token = self.peek()
            if token.kind is Kind.LINE:
                self.pos += 1
                if not self.binding_lines.build(token, scope):
                    self.parse_line_tokens(token, scope)
                continue
            if token.kind is Kind.GRAPH and self.peek(1).text == "=":
                self.parse_graph_binding(scope)
                continue
            if token.kind is Kind.IDENT and token.text == "let":
                self.next()
                name = self.expect_kind(Kind.LOCAL, "a variable name after 'let'")
                declared = self.parse_type() if self.accept(":") else None
                self.expect("=", "in a let binding")
                if self.binds_function():
                    deferred.append(self.parse_let_function(scope, name, declared))
                else:
                    self._let(scope, name, declared, self.parse_binding_value(scope))
                self.expect(";", "after a let binding")
                continue
            result = self.parse_expr(scope)
            if self.accept(";"):
                # `e1; e2` is `let _ = e1; e2`, as TVM parses it.
                self.insert(relay.LetOp(self.value_of(result, token)))
                continue
            for binding in deferred:
                if binding.value is None:
                    self.materialize(binding, None)
            return result

    def parse_graph_binding(self, scope: Scope) -> None:
        """``%N = e;``, the next tokens: binds ``%N`` to the value of ``e``."""
        token = self.next()
        self.next()
        scope.names[token.text] = self.parse_binding_value(scope)
        self.expect(";", "after a binding")

    def parse_line_tokens(self, line: Token, scope: Scope) -> None:
        """The binding that the LINE token `line` (just read) stands for, read
        from its tokens by the general rules (`parse_graph_binding`)."""
        saved = self.tokens, self.pos
        self.tokens = tokenize(
            self.source, line.start, line.end, tensor_types=True, int_arrays=True
        )
        self.pos = 0
        try:
            self.parse_graph_binding(scope)
        finally:
            self.tokens, self.pos = saved

    def _at_binding(self) -> bool:
        token = self.peek()
        return (
            token.kind is Kind.LINE
            or (token.kind is Kind.GRAPH and self.peek(1).text == "=")
            or (token.kind is Kind.IDENT and token.text == "let")
        )

    def _let(self, scope: Scope, name: Token, declared: Attribute | None, bound: Binding) -> None:
        """``let %x = e;``: a ``relay.let`` of `bound`."""
        value = self.value_of(bound, name)
        if declared is not None and not relay.compatible(declared, value.type):
            # TVM's parser keeps the declared type unchecked (bindings.py): only
            # type inference rejects the binding, at the let.
            let = relay.LetOp(value, declared=self.known(declared))
            line, column = self.source.line_col(name.start)
            let.location = FileLineColLoc(
                StringAttr(self.source.name), IntAttr(line), IntAttr(column)
            )
            self.insert(let)
            self.op_tokens[let] = name
            set_relay_name(let.result, name.text[1:])
            scope.names[name.text] = let.result
            return
        let = let_op(value)
        self.insert(let)
        self.op_tokens[let] = name
        bound_value: SSAValue = let.result
        if declared is not None and not is_complete(value.type):
            # The declared type is what the solver unifies the value with (type_solver.py).
            bound_value = Rewriter.replace_value_with_new_type(bound_value, self.known(declared))
        set_relay_name(bound_value, name.text[1:])
        scope.names[name.text] = bound_value

    def parse_if(self, scope: Scope) -> SSAValue:
        """``if (c) { ... } else { ... }`` → ``relay.if``."""
        token = self.expect("if")
        self.expect("(", "after 'if'")
        condition = self.value_of(self.parse_sequence(scope), token)
        self.expect(")", "to close the condition")
        branches: list[tuple[Region, SSAValue]] = []
        for what in ("then", "else"):
            if what == "else":
                self.expect("else", "after the then branch")
            self.expect("{", f"to open the {what} branch")
            block = Block()
            result = self.parse_body_into(block, scope.child(), None)
            block.add_op(relay.ReturnOp(result))
            self.expect("}", f"to close the {what} branch")
            branches.append((Region(block), result))
        (then_region, then_value), (else_region, else_value) = branches
        result_type = then_value.type
        if isinstance(result_type, relay.IncompleteType):
            result_type = else_value.type
        if not relay.compatible(then_value.type, else_value.type):
            self.error(
                token,
                f"the branches of 'if' have different types: {self.type_text(then_value.type)} "
                f"and {self.type_text(else_value.type)}",
            )
        op = relay.IfOp(condition, result_type, then_region, else_region)
        self.annotate(op, token, check=False)
        return op.result

    def parse_reference(self, scope: Scope) -> SSAValue:
        """``ref(v)``, ``ref_read(r)``, ``ref_write(r, v)``."""
        token = self.next()
        open_token = self.expect("(", f"after '{token.text}'")
        args: list[SSAValue] = []
        while not self.at(")"):
            args.append(self.value_of(self.parse_sequence(scope), open_token))
            if not self.accept(","):
                break
        self.expect(")", "to close the argument list")
        arity = _REFERENCE_ARITY[token.text]
        if len(args) != arity:
            self.error(token, f"'{token.text}' takes {arity} argument(s), got {len(args)}")
        op: Operation
        if token.text == "ref":
            op = relay.RefOp(args[0])
        else:
            reference = args[0].type
            if not isinstance(reference, relay.RefType | relay.IncompleteType):
                self.error(
                    token,
                    f"'{token.text}' needs a reference, got a {self.type_text(reference)}",
                )
            if token.text == "ref_read":
                op = relay.RefReadOp(args[0])
            else:
                if not relay.compatible(
                    reference.value_type if isinstance(reference, relay.RefType) else args[1].type,
                    args[1].type,
                ):
                    self.error(
                        token,
                        f"cannot write a {self.type_text(args[1].type)} to a "
                        f"{self.type_text(reference)}",
                    )
                op = relay.RefWriteOp(args[0], args[1])
        self.annotate(op, token, check=False)
        return op.results[0]
