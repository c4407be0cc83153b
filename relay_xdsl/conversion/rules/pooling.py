"""Pools in NHWC: ``tosa.max_pool2d`` and ``tosa.avg_pool2d``.

TOSA's average leaves padding out of the count; Relay's
``count_include_pad=True`` pads with explicit zeros first. Global pools are
pools whose window is the whole image, adaptive pools to a size that divides
the input's are pools whose stride is their window.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.rules.windows import (
    exact_window,
    nhwc_input,
    nhwc_perm,
    window_attributes,
)
from relay_xdsl.conversion.values import Tensor, permuted_type


def _pool(
    call: RuleCall,
    kind: str,
    kernel: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[int],
    count_include_pad: bool = False,
) -> Tensor:
    layout = call.call.attr("layout")
    x = nhwc_input(call, layout)
    perm = nhwc_perm(layout)
    if (call.call.attr("out_layout") or layout) != layout:
        raise call.error("an out_layout other than the layout is not supported")
    dilation = call.call.optional_ints("dilation") or [1, 1]
    if any(d != 1 for d in dilation):
        raise call.error("dilated pools are not supported")
    result = permuted_type(call.result_type, perm)
    out_hw = result.get_shape()[1:3]
    data = call.value(x, perm)
    if count_include_pad and any(padding):
        top, left, bottom, right = _four(padding)
        data = call.emit.pad(data, [0, 0, top, bottom, left, right, 0, 0])
        padding = [0, 0, 0, 0]
    data, pads = exact_window(call, data, padding, kernel, strides, (1, 1), out_hw)
    return call.result(_emit_pool(call, kind, data, pads, kernel, strides, result), perm)


def _emit_pool(
    call: RuleCall,
    kind: str,
    data: SSAValue,
    pads: list[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    result: TensorType,
) -> SSAValue:
    attributes = window_attributes(pads, kernel, strides)
    if kind == "max":
        return call.emit.op("max_pool2d", [data], result, attributes)
    element = result.get_element_type()
    zero = call.emit.zero_point(element)
    attributes["acc_type"] = element
    return call.emit.op("avg_pool2d", [data, zero, zero], result, attributes)


def _four(padding: Sequence[int]) -> list[int]:
    if len(padding) == 1:
        return list(padding) * 4
    if len(padding) == 2:
        return [padding[0], padding[1], padding[0], padding[1]]
    return list(padding)


def max_pool2d(call: RuleCall) -> Tensor:
    return _pool(
        call,
        "max",
        call.call.ints("pool_size"),
        call.call.ints("strides"),
        call.call.ints("padding"),
    )


def avg_pool2d(call: RuleCall) -> Tensor:
    return _pool(
        call,
        "avg",
        call.call.ints("pool_size"),
        call.call.ints("strides"),
        call.call.ints("padding"),
        bool(call.call.attr("count_include_pad")),
    )


def _global(call: RuleCall, kind: str) -> Tensor:
    layout = call.call.attr("layout")
    x = nhwc_input(call, layout)
    h, w = permuted_type(x.type, nhwc_perm(layout)).get_shape()[1:3]
    return _pool(call, kind, [h, w], [1, 1], [0, 0, 0, 0])


def global_avg_pool2d(call: RuleCall) -> Tensor:
    return _global(call, "avg")


def global_max_pool2d(call: RuleCall) -> Tensor:
    return _global(call, "max")


def _adaptive(call: RuleCall, kind: str) -> Tensor:
    """An adaptive pool whose output size divides the input's: windows of
    ``in / out``, as many as the stride; Relay's windows are exactly these."""
    layout = call.call.attr("layout")
    x = nhwc_input(call, layout)
    perm = nhwc_perm(layout)
    h, w = permuted_type(x.type, perm).get_shape()[1:3]
    out_h, out_w = permuted_type(call.result_type, perm).get_shape()[1:3]
    if h % out_h or w % out_w:
        raise call.error(
            f"adaptive pools from {h}×{w} to {out_h}×{out_w} are not supported, "
            "only to sizes that divide the input's"
        )
    window = [h // out_h, w // out_w]
    return _pool(call, kind, window, window, [0, 0, 0, 0])


def adaptive_avg_pool2d(call: RuleCall) -> Tensor:
    return _adaptive(call, "avg")


def adaptive_max_pool2d(call: RuleCall) -> Tensor:
    return _adaptive(call, "max")
