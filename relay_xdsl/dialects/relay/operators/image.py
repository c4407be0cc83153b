"""Image operators: resizing, cropping and grid sampling."""

from __future__ import annotations

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import AttrKind, OpPattern, RelayAttr
from relay_xdsl.dialects.relay.registry import Operator, no_relax

IMAGE: tuple[Operator, ...] = (
    Operator(
        "image.resize1d",
        "Resizes the W dimension to `size` with nearest/linear/cubic interpolation.",
        attrs=(  # TVM's Resize1DAttrs
            RelayAttr("size", AttrKind.INTS, None),
            RelayAttr("roi", AttrKind.FLOATS, None),
            RelayAttr("layout", AttrKind.STR, "NCW"),
            RelayAttr("method", AttrKind.STR, "linear"),
            RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
            RelayAttr("rounding_method", AttrKind.STR, "round"),
            RelayAttr("cubic_alpha", AttrKind.FLOAT, -0.5),
            RelayAttr("cubic_exclude", AttrKind.INT, 0),
            RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        pattern=OpPattern.INJECTIVE,
        infer=inference.resize("W"),
        relax=no_relax("Relax has no resize1d"),
    ),
    Operator(
        "image.resize2d",
        "Resizes the H and W dimensions to `size` using nearest_neighbor/linear/cubic "
        "interpolation and the chosen coordinate transformation mode.",
        attrs=(  # TVM's Resize2DAttrs
            RelayAttr("size", AttrKind.INTS, None),
            RelayAttr("roi", AttrKind.FLOATS, None),
            RelayAttr("layout", AttrKind.STR, "NCHW"),
            RelayAttr("method", AttrKind.STR, "linear"),
            RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
            RelayAttr("rounding_method", AttrKind.STR, "round"),
            RelayAttr("cubic_alpha", AttrKind.FLOAT, -0.5),
            RelayAttr("cubic_exclude", AttrKind.INT, 0),
            RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        pattern=OpPattern.INJECTIVE,
        infer=inference.resize("HW"),
        relax=no_relax(
            "not mapped yet: Relax's resize2d takes the size as an argument and defaults "
            "cubic_alpha to -0.75"
        ),
    ),
    Operator(
        "image.resize3d",
        "Resizes D, H and W to `size`.",
        attrs=(  # TVM's Resize3DAttrs
            RelayAttr("size", AttrKind.INTS, None),
            RelayAttr("roi", AttrKind.FLOATS, None),
            RelayAttr("layout", AttrKind.STR, "NCDHW"),
            RelayAttr("method", AttrKind.STR, "linear"),
            RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
            RelayAttr("rounding_method", AttrKind.STR, "round"),
            RelayAttr("cubic_alpha", AttrKind.FLOAT, -0.5),
            RelayAttr("cubic_exclude", AttrKind.INT, 0),
            RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        pattern=OpPattern.INJECTIVE,
        infer=inference.resize("DHW"),
        relax=no_relax(
            "not mapped yet: Relax's resize3d takes the size as an argument and defaults "
            "cubic_alpha to -0.75"
        ),
    ),
    Operator(
        "image.crop_and_resize",
        "Crops boxes from the images and resizes each crop to crop_size; inputs (data, boxes, "
        "box_indices).",
        attrs=(  # TVM's CropAndResizeAttrs
            RelayAttr("crop_size", AttrKind.INTS, None),
            RelayAttr("layout", AttrKind.STR, "NCHW"),
            RelayAttr("method", AttrKind.STR, "bilinear"),
            RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=3,
        pattern=OpPattern.INJECTIVE,
        infer=inference.crop_and_resize,
        relax=no_relax("Relax has no crop_and_resize"),
    ),
    Operator(
        "image.grid_sample",
        "Samples data at the locations given by a grid tensor (bilinear/nearest/bicubic).",
        attrs=(  # TVM's GridSampleAttrs
            RelayAttr("method", AttrKind.STR, "bilinear"),
            RelayAttr("layout", AttrKind.STR, "NCHW"),
            RelayAttr("padding_mode", AttrKind.STR, "zeros"),
            RelayAttr("align_corners", AttrKind.BOOL, True),
        ),
        arity=2,
        pattern=OpPattern.INJECTIVE,
        infer=inference.grid_sample,
        relax=no_relax(
            "not mapped yet: relax.image.grid_sample defaults align_corners to False where Relay's "
            "is True"
        ),
    ),
)
