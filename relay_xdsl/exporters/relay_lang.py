"""Printing the constructs beyond dataflow as Relay text: function values and
their calls, ``if`` and references.

* ``relay.function`` prints as a ``fn [A] (%x: T) -> R { ... }`` literal
  followed by its type (``/* ty=fn (T) -> R */``), bound where it stands
  (``let %f = fn ...;`` through its ``relay.let``); a recursive one refers
  to itself by its let variable's name;
* ``relay.call`` prints as ``%f(%x)``;
* ``relay.if`` prints as ``if (%c) { ... } else { ... }``, each branch a
  body of its own;
* ``relay.ref``, ``relay.ref_read`` and ``relay.ref_write`` print as
  ``ref(%x)``, ``ref_read(%r)`` and ``ref_write(%r, %v)``, without a type
  comment (TVM's printer gives them none).
"""

from __future__ import annotations

from xdsl.ir import Operation

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.bindings import let_expression
from relay_xdsl.exporters.relay_expressions import (
    RelayExpressionPrinter,
    function_type_comment,
    inner_indent,
    return_annotation,
    type_params,
)
from relay_xdsl.relay_text.types import RelayExportError


class RelayLangPrinter(RelayExpressionPrinter):
    """Function values and their calls, ``if`` and references."""

    def prebind_let(self, let: relay.LetOp, source: Operation | None) -> None:
        """Name a recursive function's let variable before its body, which uses it."""
        if (
            isinstance(source, relay.FunctionOp)
            and source.self_value is not None
            and id(source.self_value) not in self.names
        ):
            self.names[id(source.self_value)] = self.fresh_name(let.result)

    def language_expression(self, op: Operation, indent: str, comment: str) -> str | None:
        if isinstance(op, relay.FunctionOp):
            return self.function_value(op, indent)
        if isinstance(op, relay.CallOp):
            return f"{self.ref(op.callee)}({self.call_arguments(op, op.args)}){comment}"
        if isinstance(op, relay.IfOp):
            inner = inner_indent(indent)
            then_lines: list[str] = []
            self.block(op.then_region.block, then_lines, inner)
            else_lines: list[str] = []
            self.block(op.else_region.block, else_lines, inner)
            return "\n".join(
                [
                    f"if ({self.ref(op.condition)}) {{",
                    *then_lines,
                    f"{indent}}} else {{",
                    *else_lines,
                    f"{indent}}}",
                ]
            )
        if isinstance(op, relay.RefOp):
            return f"ref({self.ref(op.value)})"
        if isinstance(op, relay.RefReadOp):
            return f"ref_read({self.ref(op.reference)})"
        if isinstance(op, relay.RefWriteOp):
            return f"ref_write({self.ref(op.reference)}, {self.ref(op.value)})"
        return super().language_expression(op, indent, comment)

    def function_value(self, op: relay.FunctionOp, indent: str) -> str:
        """``fn [A] (%x: T, Attr=v) -> R { body }``."""
        if op.self_value is not None and id(op.self_value) not in self.names:
            # TVM names the let variable before printing its value, which uses it.
            for use in op.results[0].uses:
                if isinstance(use.operation, relay.LetOp) and let_expression(use.operation) is op:
                    self.prebind_let(use.operation, op)
                    break
        if op.self_value is not None and id(op.self_value) not in self.names:
            raise RelayExportError("a recursive function must be bound by a let to print as Relay")
        params = self.params(op.params, op.attributes.get(relay.ARG_ATTRS))
        attributes = self.attribute_list(op.relay_attributes())
        body: list[str] = []
        self.block(op.body.block, body, inner_indent(indent))
        generics = type_params(op.attributes.get(relay.TYPE_PARAMS))
        output = return_annotation(op.function_type.outputs.data[0])
        head = f"fn {generics}({', '.join(params + attributes)}){output} {{"
        comment = function_type_comment(
            op.attributes.get(relay.TYPE_PARAMS),
            [p.type for p in op.params],
            op.function_type.outputs.data[0],
        )
        return "\n".join([head, *body, f"{indent}}}{comment}"])
