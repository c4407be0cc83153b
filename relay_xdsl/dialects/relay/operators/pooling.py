"""Pooling operators: windowed, global and adaptive, in 1, 2 or 3 dimensions."""

from __future__ import annotations

from typing import Any

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import OpPattern, RelayAttr, boolean, ints, string
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.dialects.relay.ops import OperatorOp
from relay_xdsl.dialects.relay.registry import Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import Field, Kind, RelaxOp, layouts_hook


def _relax_pool(kind: str, dims: int) -> RelaxOp:
    """``relax.nn.<kind>_pool<dims>d``; Relax's max pooling also has
    ``count_include_pad``, which Relay's lacks (so only False maps)."""
    flags = ("ceil_mode", "count_include_pad") if kind == "avg" else ("ceil_mode",)
    fields = (
        *(Field(name, Kind.INTS) for name in ("pool_size", "strides", "dilation", "padding")),
        *(Field(name, Kind.BOOL) for name in flags),
        *(Field(name, Kind.STR) for name in ("layout", "out_layout")),
    )
    return RelaxOp(
        f"relax.nn.{kind}_pool{dims}d",
        f"relax.attrs.Pool{dims}DAttrs",
        fields,
        implied=(("count_include_pad", False),) if kind == "max" else (),
        export_hook=layouts_hook("layout", spatial=dims),
    )


def _adaptive_hook(op: OperatorOp, values: dict[str, Any]) -> None:
    if not values.get("out_layout"):
        values["out_layout"] = values["layout"]


def _pool_attrs(kind: str, dims: int) -> tuple[RelayAttr, ...]:
    """Fields of TVM's ``MaxPool<dims>DAttrs`` or ``AvgPool<dims>DAttrs``
    (`kind` ``max`` or ``avg``); average pooling adds ``count_include_pad``."""
    return (
        ints("pool_size", required=True),
        ints("strides", (1,) * dims),
        ints("dilation", (1,) * dims),
        ints("padding", (0,) * dims),
        string("layout", "NC" + spatial_axes(dims)),
        string("out_layout", ""),
        boolean("ceil_mode", False),
        *([boolean("count_include_pad", False)] if kind == "avg" else []),
    )


def _pool(kind: str, dims: int, summary: str) -> Operator:
    """``nn.<kind>_pool<dims>d``: windows over the spatial axes (``OUT_ELEMWISE_FUSABLE``)."""
    return Operator(
        f"nn.{kind}_pool{dims}d",
        summary,
        attrs=_pool_attrs(kind, dims),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.pool(spatial_axes(dims)),
        relax=_relax_pool(kind, dims),
    )


_GLOBAL_POOL2D_ATTRS = (
    string("layout", "NCHW"),
    string("out_layout", ""),
)
"""Fields of TVM's ``GlobalPool2DAttrs``."""

_ADAPTIVE_POOL2D_ATTRS = (
    ints("output_size", ()),
    string("layout", "NCHW"),
    string("out_layout", ""),
)
"""Fields of TVM's ``AdaptivePool2DAttrs``."""


# fmt: off
POOLING: tuple[Operator, ...] = (
    _pool("max", 1, "1D max pooling over the W dimension."),
    _pool("max", 2,
        "2D max pooling over windows of size pool_size with given strides/dilation/padding on the "
        "H and W dimensions."),
    _pool("max", 3, "3D max pooling over D, H and W."),
    _pool("avg", 1, "1D average pooling over the W dimension."),
    _pool("avg", 2,
        "2D average pooling; count_include_pad decides whether padded zeros count in the divisor."),
    _pool("avg", 3, "3D average pooling over D, H and W."),
    Operator("nn.global_avg_pool2d",
        "Averages each channel over the whole H x W plane, producing spatial size 1x1.",
        attrs=_GLOBAL_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.global_pool,
        relax=no_relax("Relax has no global pooling to import; its frontends use "
                       "adaptive_avg_pool2d with output size 1")),
    Operator("nn.global_max_pool2d",
        "Takes the maximum of each channel over the whole H x W plane, producing spatial size 1x1.",
        attrs=_GLOBAL_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.global_pool,
        relax=no_relax("Relax has no global or adaptive max pooling to import")),
    Operator("nn.adaptive_avg_pool2d",
        "Average pooling whose windows are chosen so the output has spatial size output_size "
        "(empty output_size keeps the input size).",
        attrs=_ADAPTIVE_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.adaptive_pool("HW"),
        relax=RelaxOp(
            "relax.nn.adaptive_avg_pool2d",
            "relax.attrs.AdaptivePool2DAttrs",
            # Relay's empty output size and Relax's None both mean the input's size.
            (Field("output_size", Kind.INTS_OR_NONE), Field("layout", Kind.STR),
             Field("out_layout", Kind.STR)),
            export_hook=_adaptive_hook,
        )),
    Operator("nn.adaptive_max_pool2d",
        "Max pooling whose windows are chosen so the output has spatial size output_size.",
        attrs=_ADAPTIVE_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.adaptive_pool("HW"),
        relax=no_relax("Relax has no adaptive max pooling to import")),
)
# fmt: on
