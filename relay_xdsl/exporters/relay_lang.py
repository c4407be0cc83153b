"""Printing the constructs beyond dataflow as Relay text: function values and
their calls, ``if`` and references (the printer in relay_text.py calls in
here).

* ``relay.function`` prints as a ``fn [A] (%x: T) -> R { ... }`` literal
  followed by its type (``/* ty=fn (T) -> R */``), bound where it stands
  (``let %f = fn ...;`` through its ``relay.let``); a recursive one refers
  to itself by its let variable's name;
* ``relay.call`` prints as ``%f(%x)``;
* ``relay.if`` prints as ``if (%c) { ... } else { ... }``, each branch a
  body of its own;
* ``relay.ref``, ``relay.ref_read`` and ``relay.ref_write`` print as
  ``ref(%x)``, ``ref_read(%r)`` and ``ref_write(%r, %v)``, without a type
  comment (TVM's printer gives them none);
* a ``#[metadata]`` section the module keeps verbatim (``relay.metadata``,
  for nodes other than constants) prints as it was read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Operation

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.bindings import let_expression
from relay_xdsl.relay_text.metadata import decode_metadata
from relay_xdsl.relay_text.types import RelayExportError, relay_type

if TYPE_CHECKING:
    from relay_xdsl.exporters.relay_text import _FunctionPrinter

MAX_INDENT_LEVELS = 32
"""Bodies nested deeper than this print at this indentation (see relay_text.py)."""


def type_params(attribute: Attribute | None) -> str:
    """``[A, B]`` for a function's ``type_params``, or nothing."""
    if not isinstance(attribute, ArrayAttr) or not attribute.data:
        return ""
    names = [t.var_name.data for t in attribute.data if isinstance(t, relay.TypeVarType)]
    return "[" + ", ".join(names) + "]"


def annotation(type_: Attribute) -> str:
    """``: T`` after a parameter or let variable; nothing for an unknown type."""
    if isinstance(type_, relay.IncompleteType):
        return ""
    return f": {relay_type(type_)}"


def return_annotation(type_: Attribute) -> str:
    """`` -> R`` after a parameter list; nothing for an unknown type."""
    if isinstance(type_, relay.IncompleteType):
        return ""
    return f" -> {relay_type(type_)}"


def prebind_let(printer: _FunctionPrinter, let: relay.LetOp, source: Operation | None) -> None:
    """Name a recursive function's let variable before its body, which uses it."""
    if (
        isinstance(source, relay.FunctionOp)
        and source.self_value is not None
        and source.self_value not in printer.names
    ):
        printer.names[source.self_value] = printer.fresh_name(let.result)


def expression(printer: _FunctionPrinter, op: Operation, indent: str, comment: str) -> str | None:
    """The Relay text of `op`, or None when the op is not one of this module's."""
    if isinstance(op, relay.FunctionOp):
        return function(printer, op, indent)
    if isinstance(op, relay.CallOp):
        return f"{printer.ref(op.callee)}({printer.call_arguments(op, op.args)}){comment}"
    if isinstance(op, relay.IfOp):
        inner = _inner(indent)
        then_lines: list[str] = []
        printer.block(op.then_region.block, then_lines, inner)
        else_lines: list[str] = []
        printer.block(op.else_region.block, else_lines, inner)
        return "\n".join(
            [
                f"if ({printer.ref(op.condition)}) {{",
                *then_lines,
                f"{indent}}} else {{",
                *else_lines,
                f"{indent}}}",
            ]
        )
    if isinstance(op, relay.RefOp):
        return f"ref({printer.ref(op.value)})"
    if isinstance(op, relay.RefReadOp):
        return f"ref_read({printer.ref(op.reference)})"
    if isinstance(op, relay.RefWriteOp):
        return f"ref_write({printer.ref(op.reference)}, {printer.ref(op.value)})"
    return None


def function(printer: _FunctionPrinter, op: relay.FunctionOp, indent: str) -> str:
    """``fn [A] (%x: T, Attr=v) -> R { body }``."""
    if op.self_value is not None and op.self_value not in printer.names:
        # TVM names the let variable before printing its value, which uses it.
        for use in op.results[0].uses:
            if isinstance(use.operation, relay.LetOp) and let_expression(use.operation) is op:
                prebind_let(printer, use.operation, op)
                break
    if op.self_value is not None and op.self_value not in printer.names:
        raise RelayExportError("a recursive function must be bound by a let to print as Relay")
    params = printer.params(op.params, op.attributes.get(relay.ARG_ATTRS))
    attributes = printer.attribute_list(op.relay_attributes())
    body: list[str] = []
    printer.block(op.body.block, body, _inner(indent))
    generics = type_params(op.attributes.get(relay.TYPE_PARAMS))
    output = return_annotation(op.function_type.outputs.data[0])
    head = f"fn {generics}({', '.join(params + attributes)}){output} {{"
    comment = function_type_comment(
        op.attributes.get(relay.TYPE_PARAMS),
        [p.type for p in op.params],
        op.function_type.outputs.data[0],
    )
    return "\n".join([head, *body, f"{indent}}}{comment}"])


def function_type_comment(
    type_parameters: Attribute | None, inputs: Sequence[Attribute], output: Attribute
) -> str:
    """`` /* ty=fn (T) -> R */``, the type TVM writes after a function
    literal's ``}``; nothing while a part of it is unknown, nor for a generic
    literal (TVM writes ``fn [A](A) -> A``, which the importer does not read)."""
    if type_params(type_parameters) or any(
        isinstance(t, relay.IncompleteType) for t in (*inputs, output)
    ):
        return ""
    arguments = ", ".join(relay_type(t) for t in inputs)
    return f" /* ty=fn ({arguments}) -> {relay_type(output)} */"


def _inner(indent: str) -> str:
    return indent + "  " if len(indent) < 2 * MAX_INDENT_LEVELS else indent


def kept_metadata(module: ModuleOp) -> str | None:
    """The ``#[metadata]`` section `module` keeps verbatim (``relay.metadata``), if any."""
    text = module.attributes.get(relay.METADATA)
    return text.data if isinstance(text, StringAttr) else None


def check_kept_metadata(text: str, constants: list[DenseIntOrFPElementsAttr]) -> None:
    """Refuse to print a kept section that does not hold all the module's
    constants: its other nodes cannot be merged with new constants."""
    if len(constants) != len(decode_metadata(text)):
        raise RelayExportError(
            "the module keeps a #[metadata] section with nodes other than constants "
            "(relay.metadata), but it has constants the section does not hold"
        )


def param_attribute_texts(
    arg_attrs: Attribute | None, count: int, value_text: Callable[[Attribute], str]
) -> list[str]:
    """`` {key=value}`` after each of `count` parameters, from ``arg_attrs``
    (`value_text` spells a value)."""
    if not isinstance(arg_attrs, ArrayAttr) or len(arg_attrs.data) != count:
        return [""] * count
    texts = []
    for entry in arg_attrs.data:
        items = entry.data.items() if isinstance(entry, DictionaryAttr) else ()
        pairs = [f"{key.removeprefix('relay.')}={value_text(value)}" for key, value in items]
        texts.append(f" {{{', '.join(pairs)}}}" if pairs else "")
    return texts
