"""Channel blocks to spatial blocks and back: ``nn.depth_to_space`` and
``nn.space_to_depth``, in NHWC.

Each is a reshape that splits axes, one ``tosa.transpose`` of rank 6, and
a reshape that merges them again; the activation is held in NHWC, so the
channels stay innermost.
"""

from __future__ import annotations

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.windows import window_input
from relay_xdsl.conversion.values import Tensor, permuted_type


def _shuffled(call: RuleCall, split: list[int], order: tuple[int, ...]) -> Tensor:
    """Argument 0 in NHWC reshaped to `split`, transposed by `order`, and
    reshaped to the result (in NHWC)."""
    x, perm = window_input(call, str(call.call.attr("layout")), "HW")
    emit = call.emit
    value = emit.transpose(emit.reshape(call.value(x, perm), split), order)
    return call.result(emit.reshape(value, permuted_type(call.result_type, perm).get_shape()), perm)


def _nhwc_shape(call: RuleCall) -> tuple[list[int], int]:
    x, perm = window_input(call, str(call.call.attr("layout")), "HW")
    return list(permuted_type(x.type, perm).get_shape()), int(call.call.attr("block_size"))


@lowering("nn.depth_to_space")
def depth_to_space(call: RuleCall) -> Tensor:
    """``nn.depth_to_space``: channel ``c`` of block ``(by, bx)`` read as
    ``(by, bx, c)`` (``DCR``) or ``(c, by, bx)`` (``CRD``) moves to row
    ``h * block + by``, column ``w * block + bx``."""
    (n, h, w, c), block = _nhwc_shape(call)
    mode = call.call.attr("mode")
    if mode == "DCR":
        return _shuffled(call, [n, h, w, block, block, c // block**2], (0, 1, 3, 2, 4, 5))
    if mode == "CRD":
        return _shuffled(call, [n, h, w, c // block**2, block, block], (0, 1, 4, 2, 5, 3))
    raise call.error(f"mode {mode!r} is not supported")


@lowering("nn.space_to_depth")
def space_to_depth(call: RuleCall) -> Tensor:
    """``nn.space_to_depth``: each ``block x block`` block to the channels, read
    as ``(by, bx, c)`` whatever the mode (as TVM's topi)."""
    (n, h, w, c), block = _nhwc_shape(call)
    return _shuffled(call, [n, h // block, block, w // block, block, c], (0, 1, 3, 2, 4, 5))
