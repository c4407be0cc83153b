"""Modules as upstream MLIR's tools read them: the generic form.

xDSL's custom forms of some upstream ops differ from upstream's, so every
module handed to mlir-opt or IREE is printed generic, with the blobs of its
``dense_resource`` attributes.
"""

from __future__ import annotations

from io import StringIO

from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.printer import Printer


def module_text(module: ModuleOp) -> str:
    """`module` in MLIR's generic form, with the blobs of its ``dense_resource`` attributes."""
    stream = StringIO()
    printer = Printer(stream=stream, print_generic_format=True)
    printer.print_op(module)
    printer.print_metadata([Builtin])
    stream.write("\n")
    return stream.getvalue()
