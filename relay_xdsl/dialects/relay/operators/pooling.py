"""Pooling operators: windowed, global and adaptive, in 1, 2 or 3 dimensions."""

from __future__ import annotations

from typing import Any

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import AttrKind, OpPattern, RelayAttr
from relay_xdsl.dialects.relay.ops import OperatorOp
from relay_xdsl.dialects.relay.registry import Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import Field, Kind, RelaxOp, layouts_hook


def _relax_pool(kind: str, dims: int) -> RelaxOp:
    """``relax.nn.<kind>_pool<dims>d``; Relax's max pooling also has
    ``count_include_pad``, which Relay's lacks (so only False maps)."""
    fields = [
        Field("pool_size", Kind.INTS),
        Field("strides", Kind.INTS),
        Field("dilation", Kind.INTS),
        Field("padding", Kind.INTS),
        Field("ceil_mode", Kind.BOOL),
        *([Field("count_include_pad", Kind.BOOL)] if kind == "avg" else []),
        Field("layout", Kind.STR),
        Field("out_layout", Kind.STR),
    ]
    return RelaxOp(
        f"relax.nn.{kind}_pool{dims}d",
        f"relax.attrs.Pool{dims}DAttrs",
        tuple(fields),
        implied=(("count_include_pad", False),) if kind == "max" else (),
        export_hook=layouts_hook("layout", spatial=dims),
    )


def _adaptive_hook(op: OperatorOp, values: dict[str, Any]) -> None:
    if not values.get("out_layout"):
        values["out_layout"] = values["layout"]


_GLOBAL_POOL2D_ATTRS = (
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
)
"""Fields of TVM's ``GlobalPool2DAttrs``."""

_ADAPTIVE_POOL2D_ATTRS = (
    RelayAttr("output_size", AttrKind.INTS, ()),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
)
"""Fields of TVM's ``AdaptivePool2DAttrs``."""


POOLING: tuple[Operator, ...] = (
    Operator(
        "nn.max_pool1d",
        "1D max pooling over the W dimension.",
        attrs=(  # TVM's MaxPool1DAttrs
            RelayAttr("pool_size", AttrKind.INTS, None, required=True),
            RelayAttr("strides", AttrKind.INTS, (1,)),
            RelayAttr("dilation", AttrKind.INTS, (1,)),
            RelayAttr("padding", AttrKind.INTS, (0,)),
            RelayAttr("layout", AttrKind.STR, "NCW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("ceil_mode", AttrKind.BOOL, False),
        ),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.pool("W"),
        relax=_relax_pool("max", 1),
    ),
    Operator(
        "nn.max_pool2d",
        "2D max pooling over windows of size pool_size with given strides/dilation/padding on the "
        "H and W dimensions.",
        attrs=(  # TVM's MaxPool2DAttrs
            RelayAttr("pool_size", AttrKind.INTS, None, required=True),
            RelayAttr("strides", AttrKind.INTS, (1, 1)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1)),
            RelayAttr("padding", AttrKind.INTS, (0, 0)),
            RelayAttr("layout", AttrKind.STR, "NCHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("ceil_mode", AttrKind.BOOL, False),
        ),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.pool("HW"),
        relax=_relax_pool("max", 2),
    ),
    Operator(
        "nn.max_pool3d",
        "3D max pooling over D, H and W.",
        attrs=(  # TVM's MaxPool3DAttrs
            RelayAttr("pool_size", AttrKind.INTS, None, required=True),
            RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
            RelayAttr("layout", AttrKind.STR, "NCDHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("ceil_mode", AttrKind.BOOL, False),
        ),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.pool("DHW"),
        relax=_relax_pool("max", 3),
    ),
    Operator(
        "nn.avg_pool1d",
        "1D average pooling over the W dimension.",
        attrs=(  # TVM's AvgPool1DAttrs
            RelayAttr("pool_size", AttrKind.INTS, None, required=True),
            RelayAttr("strides", AttrKind.INTS, (1,)),
            RelayAttr("dilation", AttrKind.INTS, (1,)),
            RelayAttr("padding", AttrKind.INTS, (0,)),
            RelayAttr("layout", AttrKind.STR, "NCW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("ceil_mode", AttrKind.BOOL, False),
            RelayAttr("count_include_pad", AttrKind.BOOL, False),
        ),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.pool("W"),
        relax=_relax_pool("avg", 1),
    ),
    Operator(
        "nn.avg_pool2d",
        "2D average pooling; count_include_pad decides whether padded zeros count in the divisor.",
        attrs=(  # TVM's AvgPool2DAttrs
            RelayAttr("pool_size", AttrKind.INTS, None, required=True),
            RelayAttr("strides", AttrKind.INTS, (1, 1)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1)),
            RelayAttr("padding", AttrKind.INTS, (0, 0)),
            RelayAttr("layout", AttrKind.STR, "NCHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("ceil_mode", AttrKind.BOOL, False),
            RelayAttr("count_include_pad", AttrKind.BOOL, False),
        ),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.pool("HW"),
        relax=_relax_pool("avg", 2),
    ),
    Operator(
        "nn.avg_pool3d",
        "3D average pooling over D, H and W.",
        attrs=(  # TVM's AvgPool3DAttrs
            RelayAttr("pool_size", AttrKind.INTS, None, required=True),
            RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
            RelayAttr("layout", AttrKind.STR, "NCDHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("ceil_mode", AttrKind.BOOL, False),
            RelayAttr("count_include_pad", AttrKind.BOOL, False),
        ),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.pool("DHW"),
        relax=_relax_pool("avg", 3),
    ),
    Operator(
        "nn.global_avg_pool2d",
        "Averages each channel over the whole H x W plane, producing spatial size 1x1.",
        attrs=_GLOBAL_POOL2D_ATTRS,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.global_pool,
        relax=no_relax(
            "Relax has no global pooling; its frontends use adaptive_avg_pool2d with output size 1"
        ),
    ),
    Operator(
        "nn.global_max_pool2d",
        "Takes the maximum of each channel over the whole H x W plane, producing spatial size 1x1.",
        attrs=_GLOBAL_POOL2D_ATTRS,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.global_pool,
        relax=no_relax("Relax has no global or adaptive max pooling"),
    ),
    Operator(
        "nn.adaptive_avg_pool2d",
        "Average pooling whose windows are chosen so the output has spatial size output_size "
        "(empty output_size keeps the input size).",
        attrs=_ADAPTIVE_POOL2D_ATTRS,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.adaptive_pool("HW"),
        relax=RelaxOp(
            "relax.nn.adaptive_avg_pool2d",
            "relax.attrs.AdaptivePool2DAttrs",
            (
                # Relay's empty output size and Relax's None both mean the input's size.
                Field("output_size", Kind.INTS_OR_NONE),
                Field("layout", Kind.STR),
                Field("out_layout", Kind.STR),
            ),
            export_hook=_adaptive_hook,
        ),
    ),
    Operator(
        "nn.adaptive_max_pool2d",
        "Max pooling whose windows are chosen so the output has spatial size output_size.",
        attrs=_ADAPTIVE_POOL2D_ATTRS,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.adaptive_pool("HW"),
        relax=no_relax("Relax has no adaptive max pooling"),
    ),
)
