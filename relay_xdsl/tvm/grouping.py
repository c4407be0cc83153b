"""Describe operator groups, ours and TVM Relax's, in one comparable form.

A *group* is described by the sequence of operator names inside it, in
program order. Two vocabularies meet here:

* Composite groups (``relay-merge-composite`` against TVM's
  ``FuseOpsByPattern``) are compared in the relay dialect's operator names
  (``nn.conv2d``, ``add``, ``nn.relu``), since TVM's composites come back
  through :func:`relay_xdsl.importers.relax.import_relax` as ``relay.fn``.
* Primitive groups (``relay-fuse-ops`` against TVM's ``LegalizeOps`` +
  ``AnnotateTIROpPattern`` + ``FuseOps``) are compared in the names of the
  PrimFuncs TVM legalises operators into (``conv2d``, ``add``, ``relu``,
  ``max_pool2d``, ``matmul``, ...): :func:`tir_name` strips TVM's uniquing
  suffix from a ``call_tir`` callee, :func:`legalized_name` maps a relay
  operator name to the same vocabulary.

TVM's ``FuseOps`` only outlines groups of two or more kernels; a group of
one stays a bare ``call_tir`` in ``main``. :func:`tvm_primitive_groups`
reports those too, as singleton groups, since ``relay-fuse-ops`` (like
Relay's ``FuseOps``) wraps every operator in a primitive function.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tvm
from tvm import relax
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from relay_xdsl.dialects import relay

Group = tuple[str, ...]
"""The operator names of one group, in program order."""

# Relay-dialect operator names whose legalised PrimFunc is not simply the
# name without its ``nn.``/``relax.`` namespace.
_LEGALIZED_NAMES: dict[str, str] = {
    # LegalizeOps lowers relax.clip with topi.clip, whose compute (and so
    # PrimFunc) is named "tir_clip".
    "clip": "tir_clip",
}

_TIR_SUFFIX = re.compile(r"(?<=[A-Za-z_])\d+$")


def tir_name(callee: str) -> str:
    """The operator name of legalised PrimFunc `callee`: ``conv2d12`` → ``conv2d``."""
    return _TIR_SUFFIX.sub("", callee)


def legalized_name(operator_name: str) -> str:
    """Relay-dialect operator name in TVM's legalised vocabulary: ``nn.conv2d`` → ``conv2d``."""
    if operator_name in _LEGALIZED_NAMES:
        return _LEGALIZED_NAMES[operator_name]
    for prefix in ("relax.", "nn."):
        operator_name = operator_name.removeprefix(prefix)
    return operator_name


def operator_names(fn: relay.FnOp) -> Group:
    """The operator names in `fn`'s body, in program order."""
    return tuple(op.operator_name for op in fn.body.walk() if isinstance(op, relay.OperatorOp))


def _fn_ops(module: ModuleOp) -> list[relay.FnOp]:
    return [op for op in module.walk() if isinstance(op, relay.FnOp)]


def _nonzero(attribute: object) -> bool:
    return isinstance(attribute, IntegerAttr) and attribute.value.data != 0


@dataclass(frozen=True)
class CompositeGroup:
    composite: str
    operators: Group


def composite_groups(module: ModuleOp) -> list[CompositeGroup]:
    """Every ``relay.fn`` with ``Composite``, in program order."""
    groups = []
    for fn in _fn_ops(module):
        name = fn.attributes.get("Composite")
        if isinstance(name, StringAttr):
            groups.append(CompositeGroup(name.data, operator_names(fn)))
    return groups


def primitive_groups(module: ModuleOp) -> list[Group]:
    """Every ``relay.fn`` with a nonzero ``Primitive``, in legalised names, program order."""
    return [
        tuple(legalized_name(n) for n in operator_names(fn))
        for fn in _fn_ops(module)
        if _nonzero(fn.attributes.get("Primitive"))
    ]


# -- TVM ----------------------------------------------------------------------


def tvm_fuse_ops(mod: tvm.IRModule) -> tvm.IRModule:
    """TVM's own operator fusion: ``LegalizeOps``, ``AnnotateTIROpPattern``, ``FuseOps``."""
    mod = relax.transform.LegalizeOps()(mod)
    mod = relax.transform.AnnotateTIROpPattern()(mod)
    return relax.transform.FuseOps()(mod)


@dataclass(frozen=True)
class TvmPrimitiveGroup:
    operators: Group
    outlined: bool
    """Whether TVM outlined it into a ``Primitive`` function (groups of one are not)."""


def _call_tir_callees(expr: object) -> list[str]:
    call_tir = tvm.ir.Op.get("relax.call_tir")
    callees: list[str] = []

    def visit(node: object) -> None:
        if isinstance(node, tvm.ir.Call) and node.op.same_as(call_tir):
            callees.append(tir_name(node.args[0].name_hint))

    relax.analysis.post_order_visit(expr, visit)
    return callees


def tvm_primitive_groups(mod: tvm.IRModule, function: str = "main") -> list[TvmPrimitiveGroup]:
    """The kernel groups of `function` after :func:`tvm_fuse_ops`, in binding order.

    A call of a ``Primitive`` function is one group (its ``call_tir`` callees);
    a ``call_tir`` left in `function` is a group of one.
    """
    call_tir = tvm.ir.Op.get("relax.call_tir")
    groups = []
    for block in mod[function].body.blocks:
        for binding in block.bindings:
            value = binding.value
            if not isinstance(value, tvm.ir.Call):
                continue
            if isinstance(value.op, tvm.ir.GlobalVar):
                callee = mod[value.op]
                if isinstance(callee, relax.Function) and "Primitive" in (callee.attrs or {}):
                    groups.append(TvmPrimitiveGroup(tuple(_call_tir_callees(callee)), True))
            elif value.op.same_as(call_tir):
                groups.append(TvmPrimitiveGroup((tir_name(value.args[0].name_hint),), False))
    return groups


# -- passes ---------------------------------------------------------------------


def apply_pass(pass_: ModulePass, module: ModuleOp) -> ModuleOp:
    """A copy of `module` with xDSL module pass `pass_` applied."""
    module = module.clone()
    pass_.apply(Context(), module)
    return module


def operator_count(module: ModuleOp) -> int:
    """The number of operator calls in `module`."""
    return sum(1 for op in module.walk() if is_operator(op))


def is_operator(op: Operation) -> bool:
    return isinstance(op, relay.OperatorOp)
