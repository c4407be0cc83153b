"""MLIR text of relay-dialect modules, for xDSL and for upstream MLIR (``mlir-opt``).

Going out, `print_mlir` writes the custom form, or for upstream tools the
generic form with locations, every Relay name recorded as a ``NameLoc``
(see names.py), and in both the blobs of ``dense_resource`` constants. It is
behind ``relay-xdsl import [--generic]`` and ``xdsl-opt -t upstream-mlir``.

Coming back, ``mlir-opt --mlir-print-debuginfo`` prints location aliases
(``#loc1 = loc("x")``) after the module, which xDSL's parser cannot read;
`hoist_location_aliases` moves them in front. ``xdsl-opt -f upstream-mlir``
and ``relay-xdsl`` do this for any input. (``--mlir-print-local-scope``
avoids the aliases, but then mlir-opt drops the resource blobs.)
"""

from __future__ import annotations

import re
from io import StringIO
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func

from relay_xdsl.dialects.relay import Relay
from relay_xdsl.dialects.relay.names import record_name_locations
from relay_xdsl.support.xdsl_internals import IndentCappedPrinter

MLIR_OPT_FLAGS = (
    "--allow-unregistered-dialect",
    "--mlir-print-op-generic",
    "--mlir-print-debuginfo",
    "--mlir-use-nameloc-as-prefix",
)
"""How to run mlir-opt on relay-dialect MLIR so that everything comes back."""

_ALIAS_DEFINITION = re.compile(r"^(#[\w.$-]+) = (loc\(.*\))[ \t]*$", re.MULTILINE)


def hoist_location_aliases(text: str) -> str:
    """`text` with its ``#loc = loc(...)`` definitions first, each after those it uses.

    Line numbers of the module stay as they were: the definitions are blanked
    where they stood and the hoisted copies share the first line.
    """
    if not text.startswith("#") and "\n#" not in text:
        # No line starts an alias. The pattern, anchored at line starts, would
        # be tried at each of the characters: seconds for a model's weights.
        return text
    definitions = {m[1]: m[2] for m in _ALIAS_DEFINITION.finditer(text)}
    if not definitions:
        return text
    ordered: list[str] = []
    placed: set[str] = set()

    def place(name: str, path: tuple[str, ...] = ()) -> None:
        if name in placed or name in path or name not in definitions:
            return
        for used in re.findall(r"#[\w.$-]+", definitions[name]):
            place(used, (*path, name))
        placed.add(name)
        ordered.append(f"{name} = {definitions[name]}")

    for name in definitions:
        place(name)
    body = _ALIAS_DEFINITION.sub("", text)
    return " ".join(ordered) + " " + body


def relay_context() -> Context:
    """A context with the dialects relay-dialect modules use: builtin, func and relay."""
    context = Context()
    for dialect in (Builtin, Func, Relay):
        context.load_dialect(dialect)
    return context


def print_mlir(
    module: ModuleOp, output: IO[str], *, generic: bool = False, ctx: Context | None = None
) -> None:
    """Write `module` as MLIR; `generic` is the form for upstream tools.

    Generic output includes locations, with every Relay name recorded as a
    ``NameLoc`` so that it survives ``mlir-opt``. Both forms end with the
    blobs of ``dense_resource`` constants, without which the text is incomplete.
    """
    if generic:
        record_name_locations(module)
    printer = IndentCappedPrinter(
        stream=output, print_generic_format=generic, print_debuginfo=generic
    )
    printer.print_op(module)
    printer.print_metadata((ctx or relay_context()).loaded_dialects)
    output.write("\n")


def mlir_text(module: ModuleOp, generic: bool = False) -> str:
    """`print_mlir` into a string."""
    stream = StringIO()
    print_mlir(module, stream, generic=generic)
    return stream.getvalue()
