"""Upstream MLIR (``mlir-opt``) and relay-xdsl: what each needs from the other.

Going out, generic MLIR with locations, every Relay name recorded as a
``NameLoc`` (see names.py) and the blobs of ``dense_resource`` constants:
`print_for_upstream`, behind ``xdsl-opt -t upstream-mlir`` and
``relay-xdsl import --generic``.

Coming back, ``mlir-opt --mlir-print-debuginfo`` prints location aliases
(``#loc1 = loc("x")``) after the module, which xDSL's parser cannot read;
`hoist_location_aliases` moves them in front. ``xdsl-opt -f upstream-mlir``
and ``relay-xdsl`` do this for any input. (``--mlir-print-local-scope``
avoids the aliases, but then mlir-opt drops the resource blobs.)
"""

from __future__ import annotations

import re
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

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


def print_for_upstream(ctx: Context, module: ModuleOp, output: IO[str]) -> None:
    """Generic MLIR of `module` for upstream tools, names and resources included."""
    from relay_xdsl.names import record_name_locations

    record_name_locations(module)
    printer = Printer(stream=output, print_generic_format=True, print_debuginfo=True)
    printer.print_op(module)
    printer.print_metadata(ctx.loaded_dialects)  # the blobs of dense_resource constants
    output.write("\n")
