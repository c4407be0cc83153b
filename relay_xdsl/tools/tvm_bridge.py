"""The commands' bridge to TVM and PyTorch (the ``tvm`` and ``torch`` extras):
loading them with a message that says what to install, torchvision model
names, and the Relax export of a module as the commands need it."""

from __future__ import annotations

import re
import sys
from types import ModuleType
from typing import TYPE_CHECKING

from relay_xdsl.tools.io import CommandError, check_constants_have_values

if TYPE_CHECKING:
    import tvm
    from xdsl.dialects.builtin import ModuleOp


def tvm_models() -> ModuleType:
    try:
        from relay_xdsl.tvm import models as tvm_models
    except ImportError as error:
        raise CommandError(
            f"this command needs TVM and PyTorch ({error.name} is missing): "
            "pip install torch==2.14.1 torchvision==0.29.1 && pip install 'relay-xdsl[tvm]'"
        ) from None
    return tvm_models


def check_model(name: str) -> None:
    """Reject a name torchvision does not know, without importing it (torchvision_names.py)."""
    from relay_xdsl.tools import torchvision_names

    if torchvision_names.installed_torchvision() is None:
        tvm_models()  # the message that says what to install
    names = torchvision_names.model_names()
    if name not in names:
        raise CommandError(torchvision_names.unknown_model_message(name, names))


def relax_module(module: ModuleOp, random_constants: int | None = None) -> tvm.IRModule:
    from relay_xdsl.exporters.relax import RelaxExportError, export_relax

    check_constants_have_values(module, random_constants)
    try:
        return export_relax(module, random_constants=random_constants)
    except RelaxExportError as error:
        raise CommandError(str(error)) from None


def relax_script(mod: tvm.IRModule, show_meta: bool) -> str:
    """TVMScript of `mod`; with `show_meta`, followed by the values of its constants.

    TVM 0.27's ``script(show_meta=True)`` (and ``tvm.ir.save_json``) crash on
    modules with constants, so the values are printed here, as comments
    under the names the script gives them: ``metadata["ir.GenericConst"][i]``
    numbers constants in the order the script first shows them, which is
    the order of the functions it prints and, in each, of its expressions.
    """
    import numpy as np
    import tvm

    script = mod.script() + "\n"
    if not show_meta:
        return script
    # TVM's note that the metadata is omitted, and how to show it: here it is shown.
    script = re.sub(r"^# Metadata omitted\..*\n", "", script, flags=re.MULTILINE)
    constants: list[tvm.ir.GenericConst] = []

    def visit(expr: object) -> None:
        if isinstance(expr, tvm.ir.GenericConst) and not any(expr.same_as(c) for c in constants):
            constants.append(expr)

    for _, function in sorted(mod.functions.items(), key=lambda item: item[0].name_hint):
        tvm.relax.analysis.post_order_visit(function, visit)
    referenced = set(re.findall(r'metadata\["ir\.GenericConst"\]\[(\d+)\]', script))
    if len(referenced) != len(constants):
        raise CommandError(
            f"the script names {len(referenced)} constants and the module holds "
            f"{len(constants)}: cannot tell which is which for --show-meta"
        )
    lines = ["", "# Metadata: the constants the script names metadata[...]"]
    with np.printoptions(threshold=sys.maxsize, linewidth=100):
        for index, constant in enumerate(constants):
            value = constant.value.numpy()
            lines.append(
                f'# metadata["ir.GenericConst"][{index}]: {value.dtype}{list(value.shape)}'
            )
            lines.extend(f"#   {line}" for line in np.array2string(value).splitlines())
    return script + "\n".join(lines) + "\n"
