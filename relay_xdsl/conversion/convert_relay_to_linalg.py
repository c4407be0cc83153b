"""convert-relay-to-linalg: every Relay function to TOSA, and to linalg where TOSA is bad.

The same conversion as ``convert-relay-to-tosa``, except for the calls TOSA
expresses badly, which it writes as ``linalg`` operations on tensors: a
grouped convolution with ``1 < groups < channels`` becomes one
``linalg.generic`` over all groups rather than a convolution per group. The
rest is TOSA, which upstream's ``tosa-to-linalg`` takes on; ``relay-xdsl
compile`` runs this pass. Pools stay TOSA: ``count_include_pad`` is a
``tosa.pad`` of zeros before ``tosa.avg_pool2d`` and ``ceil_mode`` is padding
after, which TOSA's average leaves out of the count as TVM does.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from relay_xdsl.conversion.convert_relay_to_tosa import convert_functions


@dataclass(frozen=True)
class ConvertRelayToLinalgPass(ModulePass):
    """Lower every Relay function to TOSA and linalg (see the module docstring)."""

    name = "convert-relay-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_functions(op, prefer_linalg=True)
