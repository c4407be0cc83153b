"""Image operators: resizing, cropping and grid sampling."""

from __future__ import annotations

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import (
    OpPattern,
    RelayAttr,
    boolean,
    dtype,
    floating,
    floats,
    integer,
    ints,
    string,
)
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.dialects.relay.registry import Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import Field, Kind, RelaxOp


def _resize_attrs(dims: int) -> tuple[RelayAttr, ...]:
    """Fields of TVM's ``Resize<dims>DAttrs``."""
    return (
        ints("size"),
        # Unset, TVM's relation rejects the call: relay.image.resize<dims>d sets zeros.
        floats("roi", builder_default=(0.0,) * (2 * dims)),
        string("layout", "NC" + spatial_axes(dims)),
        string("method", "linear"),
        string("coordinate_transformation_mode", "half_pixel"),
        string("rounding_method", "round"),
        floating("cubic_alpha", -0.5),
        integer("cubic_exclude", 0),
        floating("extrapolation_value", 0.0),
        dtype("out_dtype", ""),
    )


def _resize(dims: int, summary: str) -> Operator:
    """``image.resize<dims>d``: the spatial axes become ``size`` (``INJECTIVE``)."""
    reason = (
        "Relax has no resize1d to import"
        if dims == 1
        else f"not mapped yet: Relax's resize{dims}d takes the size as an argument and defaults "
        "cubic_alpha to -0.75"
    )
    return Operator(
        f"image.resize{dims}d",
        summary,
        attrs=_resize_attrs(dims),
        pattern=OpPattern.INJECTIVE,
        infer=inference.resize(spatial_axes(dims)),
        relax=no_relax(reason),
    )


# fmt: off
IMAGE: tuple[Operator, ...] = (
    _resize(1, "Resizes the W dimension to `size` with nearest/linear/cubic interpolation."),
    _resize(2,
        "Resizes the H and W dimensions to `size` using nearest_neighbor/linear/cubic "
        "interpolation and the chosen coordinate transformation mode."),
    _resize(3, "Resizes D, H and W to `size`."),
    Operator("image.crop_and_resize",
        "Crops boxes from the images and resizes each crop to crop_size; inputs (data, boxes, "
        "box_indices).",
        attrs=(
            ints("crop_size"), string("layout", "NCHW"), string("method", "bilinear"),
            floating("extrapolation_value", 0.0), dtype("out_dtype", "")
        ),  # TVM's CropAndResizeAttrs
        operands=("data", "boxes", "box_indices"),
        arity=3, pattern=OpPattern.INJECTIVE, infer=inference.crop_and_resize,
        relax=no_relax("Relax has no crop_and_resize to import")),
    Operator("image.grid_sample",
        "Samples data at the locations given by a grid tensor (bilinear/nearest/bicubic).",
        attrs=(
            string("method", "bilinear"), string("layout", "NCHW"), string("padding_mode", "zeros"),
            boolean("align_corners", True)
        ),  # TVM's GridSampleAttrs
        operands=("data", "grid"),
        arity=2, pattern=OpPattern.INJECTIVE, infer=inference.grid_sample,
        # Relax's default align_corners is False, Relay's True: both are always spelled out.
        relax=RelaxOp(
            "relax.image.grid_sample", "relax.attrs.GridSampleAttrs",
            (Field("method", Kind.STR), Field("layout", Kind.STR),
             Field("padding_mode", Kind.STR), Field("align_corners", Kind.BOOL)),
        )),
)
# fmt: on
