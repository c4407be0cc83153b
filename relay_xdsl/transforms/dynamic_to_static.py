"""relay-dynamic-to-static: dynamic operators with constant shapes as static ones, TVM's ``DynamicToStatic``.

A ``dyn.*`` call whose shape-like arguments (a shape, bounds, a count, a
scale) are ``relay.constant`` ops with values becomes the call of its
static operator with those values as attributes: ``dyn.reshape(%x,
<constant [6, 4]>)`` is ``reshape(%x, newshape=[6, 4])``. The types
downstream are solved again, so dimensions the constants decide become
known. Which operators, and how they differ from TVM's, is in
:mod:`relay_xdsl.dialects.relay.dynamic_to_static`, which lowering and the
Relax export apply as well. Run ``relay-fold-constant`` first where shapes
are computed from constants, as TVM folds them first. The pass has no
options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from relay_xdsl.dialects.relay.dynamic_to_static import dynamic_to_static


@dataclass(frozen=True)
class RelayDynamicToStaticPass(ModulePass):
    """Make the dynamic calls with constant shape arguments static."""

    name = "relay-dynamic-to-static"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dynamic_to_static(op)
