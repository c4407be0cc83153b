"""relay dialect → Relay text that TVM v0.19's parser accepts.

``print_relay(module)`` follows TVM's printer conventions:

* a ``#[version = "0.0.5"]`` header (TVM's module parser requires it), then
  one ``def @f(...) -> T {...}`` per ``func.func``, with the function's Relay
  attributes after its parameters;
* each body prints in TVM's order (print_order.py): a post-order walk from
  the result, so any order of the same graph gives one text, the one TVM
  prints, temp numbers and parameter names included;
* scalar constants print as literals (``1f``, ``2i64``, ``True``); other
  constants as ``meta[relay.Constant][i]``, with a ``#[metadata]`` section
  holding their values when they are known; a ``#[metadata]`` section the
  module keeps verbatim (``relay.metadata``, for nodes other than
  constants) prints as it was read.

The printer is a chain of classes, one layer a module: function bodies and
dataflow expressions (relay_expressions.py, spelling values with
relay_attributes.py), the constructs beyond dataflow (relay_lang.py),
algebraic data types (relay_adts.py), and here functions and the module.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_adts import RelayAdtPrinter, type_def_text
from relay_xdsl.exporters.relay_attributes import checked_name, function_attributes
from relay_xdsl.exporters.relay_expressions import (
    ModuleState,
    annotation,
    return_annotation,
    type_params,
)
from relay_xdsl.relay_text.metadata import decode_metadata, encode_metadata
from relay_xdsl.relay_text.types import RelayExportError
from relay_xdsl.support.depth import nesting_checked

VERSION_HEADER = '#[version = "0.0.5"]'
_FUNC_OWN_ATTRIBUTES = {
    "sym_name",
    "function_type",
    "sym_visibility",
    "arg_attrs",
    "res_attrs",
}


def print_relay(module: ModuleOp, *, header: bool = True) -> str:
    """Print `module` as Relay text.

    Nesting prints on the caller's stack; a module nested deeper than it
    has room for is a `NestingTooDeepError` that says how to opt in to
    ``run_deep``, within which function literals nested up to `MAX_NESTING`
    deep print. Indentation stops growing after `MAX_INDENT_LEVELS` levels
    (relay_expressions.py). To write a module with large constants to a file,
    `relay_chunks` avoids holding the whole text in memory.
    """
    return "".join(relay_chunks(module, header=header))


def relay_chunks(module: ModuleOp, *, header: bool = True) -> Iterator[str]:
    """`module` as Relay text in pieces: the program, then the ``#[metadata]``
    section one base64 array at a time, each built only when it is asked for.

    Every error (``RelayExportError``) is raised by this call, before the
    first piece, so a caller writing the pieces never leaves half a file.
    """
    printer = _RelayPrinter()
    program = nesting_checked(printer.program_text, module, header, what="the module")
    printer.check_metadata()
    return itertools.chain([program], printer.metadata_chunks())


class _RelayPrinter(ModuleState):
    """Prints a module: its type definitions and functions, then its metadata."""

    def __init__(self) -> None:
        super().__init__()
        # A metadata section kept verbatim (_kept_metadata).
        self.kept_metadata: str | None = None

    def program_text(self, module: ModuleOp, header: bool) -> str:
        """The module's functions; records the constants the metadata holds."""
        parts = [VERSION_HEADER + "\n"] if header else []
        self.kept_metadata = _kept_metadata(module)
        if self.kept_metadata is not None:
            # Constants keep their indices in the kept section.
            for value in decode_metadata(self.kept_metadata):
                self.meta_values.setdefault(value, len(self.meta_values))
        for op in module.ops:
            if isinstance(op, relay.TypeDefOp):
                parts.append(type_def_text(op) + "\n")
                continue
            if not isinstance(op, FuncOp):
                raise RelayExportError(f"'{op.name}' at module level has no Relay equivalent")
            if relay.EXPRESSION in op.attributes:
                parts.append(FunctionPrinter(self).expression_text(op))
            else:
                parts.append(FunctionPrinter(self).function(op))
            parts.append("\n")
        return "".join(parts)

    def check_metadata(self) -> None:
        if self.kept_metadata is not None:
            _check_kept_metadata(self.kept_metadata, list(self.meta_values))
            return
        if self.meta_values and self.opaque_meta:
            raise RelayExportError(
                "the module mixes constants with known values and opaque meta[...] "
                "references, so no consistent #[metadata] section can be written"
            )

    def metadata_chunks(self) -> Iterator[str]:
        if self.kept_metadata is not None:
            yield f"#[metadata]\n{self.kept_metadata}\n"
        elif self.meta_values:
            yield "#[metadata]\n"
            yield from encode_metadata(self.meta_values)
            yield "\n"


class FunctionPrinter(RelayAdtPrinter):
    """Prints one global function."""

    def function(self, func: FuncOp) -> str:
        lines: list[str] = []
        if len(func.body.blocks) != 1:
            # The relay region ops verify that they have one block; func.func does not.
            raise RelayExportError(
                f"@{func.sym_name.data} has {len(func.body.blocks)} blocks; "
                "a Relay function body is one block"
            )
        params = self.params(func.body.block.args, func.arg_attrs)
        attributes = function_attributes(
            {
                k: v
                for k, v in func.attributes.items()
                if k not in _FUNC_OWN_ATTRIBUTES and k != relay.TYPE_PARAMS
            }
        )
        outputs = func.function_type.outputs.data
        if len(outputs) != 1:
            raise RelayExportError(f"@{func.sym_name.data} must return exactly one value")
        name = checked_name(func.sym_name.data, "function name")
        generics = type_params(func.attributes.get(relay.TYPE_PARAMS))
        output = return_annotation(outputs[0])
        header = f"def @{name}{generics}({', '.join(params + attributes)}){output} {{"
        lines.append(header)
        self.block(func.body.block, lines, "  ")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def expression_text(self, func: FuncOp) -> str:
        """A function read from a bare expression whose types were left
        unchecked (``relay.expression``), as that expression: its parameters
        as ``free_var`` declarations, then its body, as TVM prints an
        expression."""
        lines: list[str] = []
        for arg in func.body.block.args:
            name = self.fresh_name(arg)
            lines.append(f"free_var {name}{annotation(arg.type)};")
        self.block(func.body.block, lines, "")
        return "\n".join(lines) + "\n"


def _kept_metadata(module: ModuleOp) -> str | None:
    """The ``#[metadata]`` section `module` keeps verbatim (``relay.metadata``), if any."""
    text = module.attributes.get(relay.METADATA)
    return text.data if isinstance(text, StringAttr) else None


def _check_kept_metadata(text: str, constants: list[DenseIntOrFPElementsAttr]) -> None:
    """Refuse to print a kept section that does not hold all the module's
    constants: its other nodes cannot be merged with new constants."""
    if len(constants) != len(decode_metadata(text)):
        raise RelayExportError(
            "the module keeps a #[metadata] section with nodes other than constants "
            "(relay.metadata), but it has constants the section does not hold"
        )
