"""Neural-network operators: convolutions and dense layers, activations,
normalization and dropout, and data movement (padding, resampling, pixel shuffles).
"""

from __future__ import annotations

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import AttrKind, OpPattern, RelayAttr
from relay_xdsl.dialects.relay.registry import Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import Field, Kind, RelaxOp, layouts_hook


def _relax_conv(dims: int, transpose: bool = False) -> RelaxOp:
    """``relax.nn.conv<dims>d[_transpose]``: Relay's fields but ``channels``
    and ``kernel_size``, which Relax derives from the weight."""
    suffix = f"conv{dims}d" + ("_transpose" if transpose else "")
    fields = [
        Field("strides", Kind.INTS),
        Field("padding", Kind.INTS),
        *([Field("output_padding", Kind.INTS)] if transpose else []),
        Field("dilation", Kind.INTS),
        Field("groups", Kind.INT),
        Field("data_layout", Kind.STR),
        Field("kernel_layout", Kind.STR),
        Field("out_layout", Kind.STR),
        Field("out_dtype", Kind.DTYPE),
    ]
    return RelaxOp(
        f"relax.nn.{suffix}",
        f"relax.attrs.Conv{dims}D{'Transpose' if transpose else ''}Attrs",
        tuple(fields),
        export_hook=layouts_hook("data_layout", spatial=dims),
    )


_SOFTMAX_ATTRS = (RelayAttr("axis", AttrKind.INT, -1),)
"""Fields of TVM's ``SoftmaxAttrs``."""

_SUB_PIXEL_ATTRS = (
    RelayAttr("block_size", AttrKind.INT, 1),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("mode", AttrKind.STR, "DCR"),
)
"""Fields of TVM's ``SubPixelAttrs``."""


CONVOLUTION_AND_DENSE: tuple[Operator, ...] = (
    Operator(
        "nn.conv2d",
        "2D convolution of data (N,C,H,W by default) with weight (O, I/groups, KH, KW); padding "
        "may have 1, 2 or 4 entries (top, left, bottom, right).",
        attrs=(  # TVM's Conv2DAttrs
            RelayAttr("strides", AttrKind.INTS, (1, 1)),
            RelayAttr("padding", AttrKind.INTS, (0, 0)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1)),
            RelayAttr("groups", AttrKind.INT, 1),
            RelayAttr("channels", AttrKind.INT, None),
            RelayAttr("kernel_size", AttrKind.INTS, None),
            RelayAttr("data_layout", AttrKind.STR, "NCHW"),
            RelayAttr("kernel_layout", AttrKind.STR, "OIHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.conv("HW", transposed=False),
        relax=_relax_conv(2),
    ),
    Operator(
        "nn.conv2d_transpose",
        "2D transposed convolution (gradient of conv2d w.r.t. its input); default weight layout "
        "IOHW; output_padding adds extra size on one side of the output.",
        attrs=(  # TVM's Conv2DTransposeAttrs
            RelayAttr("channels", AttrKind.INT, None),
            RelayAttr("kernel_size", AttrKind.INTS, None),
            RelayAttr("strides", AttrKind.INTS, (1, 1)),
            RelayAttr("output_padding", AttrKind.INTS, (0, 0)),
            RelayAttr("padding", AttrKind.INTS, (0, 0)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1)),
            RelayAttr("groups", AttrKind.INT, 1),
            RelayAttr("data_layout", AttrKind.STR, "NCHW"),
            RelayAttr("kernel_layout", AttrKind.STR, "IOHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.conv("HW", transposed=True),
        relax=_relax_conv(2, transpose=True),
    ),
    Operator(
        "nn.conv1d",
        "1D convolution of data (N,C,W) with weight (O, I/groups, KW).",
        attrs=(  # TVM's Conv1DAttrs
            RelayAttr("strides", AttrKind.INTS, (1,)),
            RelayAttr("padding", AttrKind.INTS, (0, 0)),
            RelayAttr("dilation", AttrKind.INTS, (1,)),
            RelayAttr("groups", AttrKind.INT, 1),
            RelayAttr("channels", AttrKind.INT, None),
            RelayAttr("kernel_size", AttrKind.INTS, None),
            RelayAttr("data_layout", AttrKind.STR, "NCW"),
            RelayAttr("kernel_layout", AttrKind.STR, "OIW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.conv("W", transposed=False),
        relax=_relax_conv(1),
    ),
    Operator(
        "nn.conv1d_transpose",
        "1D transposed convolution; default weight layout IOW.",
        attrs=(  # TVM's Conv1DTransposeAttrs
            RelayAttr("channels", AttrKind.INT, None),
            RelayAttr("kernel_size", AttrKind.INTS, None),
            RelayAttr("strides", AttrKind.INTS, (1,)),
            RelayAttr("output_padding", AttrKind.INTS, (0,)),
            RelayAttr("padding", AttrKind.INTS, (0,)),
            RelayAttr("dilation", AttrKind.INTS, (1,)),
            RelayAttr("groups", AttrKind.INT, 1),
            RelayAttr("data_layout", AttrKind.STR, "NCW"),
            RelayAttr("kernel_layout", AttrKind.STR, "IOW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.conv("W", transposed=True),
        relax=no_relax(
            "not mapped yet: relax.nn.conv1d_transpose has the same fields, but no mapping has "
            "been written and tested"
        ),
    ),
    Operator(
        "nn.conv3d",
        "3D convolution of data (N,C,D,H,W) with weight (O, I/groups, KD, KH, KW).",
        attrs=(  # TVM's Conv3DAttrs
            RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("groups", AttrKind.INT, 1),
            RelayAttr("channels", AttrKind.INT, None),
            RelayAttr("kernel_size", AttrKind.INTS, None),
            RelayAttr("data_layout", AttrKind.STR, "NCDHW"),
            RelayAttr("kernel_layout", AttrKind.STR, "OIDHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.conv("DHW", transposed=False),
        relax=_relax_conv(3),
    ),
    Operator(
        "nn.conv3d_transpose",
        "3D transposed convolution; default weight layout IODHW.",
        attrs=(  # TVM's Conv3DTransposeAttrs
            RelayAttr("channels", AttrKind.INT, None),
            RelayAttr("kernel_size", AttrKind.INTS, None),
            RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("output_padding", AttrKind.INTS, (0, 0, 0)),
            RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
            RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
            RelayAttr("groups", AttrKind.INT, 1),
            RelayAttr("data_layout", AttrKind.STR, "NCDHW"),
            RelayAttr("kernel_layout", AttrKind.STR, "IODHW"),
            RelayAttr("out_layout", AttrKind.STR, ""),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.conv("DHW", transposed=True),
        relax=no_relax(
            "not mapped yet: relax.nn.conv3d_transpose has the same fields, but no mapping has "
            "been written and tested"
        ),
    ),
    Operator(
        "nn.dense",
        "Fully connected layer: Y = X * W^T, with data (..., K) and weight (units, K).",
        attrs=(  # TVM's DenseAttrs
            RelayAttr("units", AttrKind.INT, None, required=True),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.matmul(dense=True),
        relax=no_relax(
            "Relax has no dense; its matmul has NumPy semantics and imports as relax.matmul"
        ),
    ),
    Operator(
        "nn.matmul",
        "General matrix multiply Y = A * B where either operand may be marked transposed via "
        "transpose_a / transpose_b.",
        attrs=(  # TVM's MatmulAttrs
            RelayAttr("units", AttrKind.INT, None, required=True),
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
            RelayAttr("transpose_a", AttrKind.BOOL, False),
            RelayAttr("transpose_b", AttrKind.BOOL, False),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.matmul(dense=False),
        relax=no_relax(
            "Relax's matmul has NumPy semantics and no transpose flags; it imports as relax.matmul"
        ),
    ),
    Operator(
        "nn.batch_matmul",
        "Batched matrix multiply of 3D tensors A (b,M,K) and B (b,K,N) or transposed variants; C++ "
        "default transpose_b=false but the Python wrapper defaults transpose_b=True (so it is "
        "printed).",
        attrs=(  # TVM's BatchMatmulAttrs
            RelayAttr("out_dtype", AttrKind.DTYPE, ""),
            RelayAttr("transpose_a", AttrKind.BOOL, False),
            RelayAttr("transpose_b", AttrKind.BOOL, False),
        ),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.batch_matmul,
        relax=no_relax(
            "Relax has no batch_matmul; its matmul has NumPy semantics and imports as relax.matmul"
        ),
    ),
    Operator(
        "nn.bias_add",
        "Adds a 1D bias tensor to data along dimension `axis` (broadcast over all other "
        "dimensions).",
        attrs=(  # TVM's BiasAddAttrs
            RelayAttr("axis", AttrKind.INT, 1),
        ),
        arity=2,
        pattern=OpPattern.BROADCAST,
        infer=inference.bias_add,
        relax=no_relax("Relax has no bias_add; its frontends add a bias shaped to broadcast"),
    ),
)


ACTIVATIONS: tuple[Operator, ...] = (
    Operator(
        "nn.relu",
        "Elementwise rectified linear unit max(x, 0).",
        pattern=OpPattern.ELEMWISE,
        infer=inference.same_type,
        relax=RelaxOp("relax.nn.relu"),
    ),
    Operator(
        "nn.leaky_relu",
        "Elementwise x if x > 0 else alpha * x.",
        attrs=(  # TVM's LeakyReluAttrs
            RelayAttr("alpha", AttrKind.FLOAT, 0.25),
        ),
        pattern=OpPattern.ELEMWISE,
        infer=inference.same_type,
        relax=RelaxOp(
            "relax.nn.leakyrelu", "relax.attrs.LeakyReluAttrs", (Field("alpha", Kind.FLOAT),)
        ),
    ),
    Operator(
        "nn.prelu",
        "Parametric ReLU: x if x > 0 else alpha[c] * x, with a learned 1D alpha tensor indexed "
        "along `axis`.",
        attrs=(  # TVM's PReluAttrs
            RelayAttr("axis", AttrKind.INT, 1),
        ),
        arity=2,
        pattern=OpPattern.BROADCAST,
        infer=inference.same_type,
        relax=RelaxOp("relax.nn.prelu", "relax.attrs.PReluAttrs", (Field("axis", Kind.INT),)),
    ),
    Operator(
        "nn.softmax",
        "Softmax normalization along `axis`: exp(x) / sum(exp(x)).",
        attrs=_SOFTMAX_ATTRS,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.with_axis_check,
        relax=RelaxOp("relax.nn.softmax", "relax.attrs.SoftmaxAttrs", (Field("axis", Kind.INT),)),
    ),
    Operator(
        "nn.fast_softmax",
        "Softmax along `axis` using a fast approximate exp.",
        attrs=_SOFTMAX_ATTRS,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.with_axis_check,
        relax=no_relax("Relax has no fast_softmax"),
    ),
    Operator(
        "nn.log_softmax",
        "log(softmax(x)) along `axis`, computed in a numerically stable way.",
        attrs=_SOFTMAX_ATTRS,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.with_axis_check,
        relax=RelaxOp(
            "relax.nn.log_softmax", "relax.attrs.SoftmaxAttrs", (Field("axis", Kind.INT),)
        ),
    ),
)


NORMALIZATION: tuple[Operator, ...] = (
    Operator(
        "nn.batch_norm",
        "Batch normalization with inputs (data, gamma, beta, moving_mean, moving_var); returns a "
        "3-tuple (normalized output, new moving mean, new moving var). Usually decomposed by "
        "SimplifyInference.",
        attrs=(  # TVM's BatchNormAttrs
            RelayAttr("axis", AttrKind.INT, 1),
            RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
            RelayAttr("center", AttrKind.BOOL, True),
            RelayAttr("scale", AttrKind.BOOL, True),
        ),
        arity=5,
        returns_tuple=True,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.batch_norm,
        relax=RelaxOp(
            "relax.nn.batch_norm",
            "relax.attrs.BatchNormAttrs",
            (
                Field("axis", Kind.INT),
                Field("epsilon", Kind.FLOAT),
                Field("center", Kind.BOOL),
                Field("scale", Kind.BOOL),
            ),
            # Relay's batch_norm is the inference form; momentum only matters in training.
            implied=(("momentum", 0.1), ("training", False)),
        ),
    ),
    Operator(
        "nn.layer_norm",
        "Layer normalization: normalizes data along `axis` with inputs (data, gamma, beta).",
        attrs=(  # TVM's LayerNormAttrs
            RelayAttr("axis", AttrKind.INT, -1),
            RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
            RelayAttr("center", AttrKind.BOOL, True),
            RelayAttr("scale", AttrKind.BOOL, True),
        ),
        arity=3,
        pattern=OpPattern.OPAQUE,
        infer=inference.norm,
        relax=RelaxOp(
            "relax.nn.layer_norm",
            "relax.attrs.LayerNormAttrs",
            (
                Field("axes", Kind.SINGLE_AXIS, "axis"),
                Field("epsilon", Kind.FLOAT),
                Field("center", Kind.BOOL),
                Field("scale", Kind.BOOL),
            ),
        ),
    ),
    Operator(
        "nn.instance_norm",
        "Instance normalization: normalizes each sample and channel over the spatial dims, inputs "
        "(data, gamma, beta).",
        attrs=(  # TVM's InstanceNormAttrs
            RelayAttr("axis", AttrKind.INT, 1),
            RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
            RelayAttr("center", AttrKind.BOOL, True),
            RelayAttr("scale", AttrKind.BOOL, True),
        ),
        arity=3,
        pattern=OpPattern.OPAQUE,
        infer=inference.norm,
        relax=no_relax(
            "Relax's instance_norm names the channel axis and the normalised axes; no mapping from "
            "Relay's single axis has been written"
        ),
    ),
    Operator(
        "nn.group_norm",
        "Group normalization: splits channels (along axis) into num_groups groups and normalizes "
        "within each, inputs (data, gamma, beta).",
        attrs=(  # TVM's GroupNormAttrs
            RelayAttr("num_groups", AttrKind.INT, 0),
            RelayAttr("axis", AttrKind.INT, 1),
            RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
            RelayAttr("center", AttrKind.BOOL, True),
            RelayAttr("scale", AttrKind.BOOL, True),
        ),
        arity=3,
        pattern=OpPattern.OPAQUE,
        infer=inference.norm,
        relax=no_relax(
            "Relax's group_norm names the channel axis and the normalised axes; no mapping from "
            "Relay's single axis has been written"
        ),
    ),
    Operator(
        "nn.lrn",
        "Local response normalization across `size` neighbouring channels along `axis`.",
        attrs=(  # TVM's LRNAttrs
            RelayAttr("size", AttrKind.INT, 5),
            RelayAttr("axis", AttrKind.INT, 1),
            RelayAttr("bias", AttrKind.FLOAT, 2.0),
            RelayAttr("alpha", AttrKind.FLOAT, 0.0001),
            RelayAttr("beta", AttrKind.FLOAT, 0.75),
        ),
        pattern=OpPattern.OPAQUE,
        infer=inference.same_type,
        relax=no_relax("Relax has no lrn"),
    ),
    Operator(
        "nn.l2_normalize",
        "Divides data by the L2 norm computed over `axis` (with lower bound eps).",
        attrs=(  # TVM's L2NormalizeAttrs
            RelayAttr("eps", AttrKind.FLOAT, None, required=True),
            RelayAttr("axis", AttrKind.INTS, None, required=True),
        ),
        pattern=OpPattern.OPAQUE,
        infer=inference.same_type,
        relax=no_relax("Relax has no l2_normalize"),
    ),
    Operator(
        "nn.dropout",
        "Dropout; returns a 2-tuple (output, mask). It is an identity at inference and is removed "
        "by SimplifyInference.",
        attrs=(  # TVM's DropoutAttrs
            RelayAttr("rate", AttrKind.FLOAT, 0.5),
        ),
        returns_tuple=True,
        pattern=OpPattern.OPAQUE,
        infer=inference.dropout,
        relax=RelaxOp("relax.nn.dropout", "relax.attrs.DropoutAttrs", (Field("rate", Kind.FLOAT),)),
    ),
)


DATA_MOVEMENT: tuple[Operator, ...] = (
    Operator(
        "nn.batch_flatten",
        "Flattens all dimensions except the first: (N, d1, d2, ...) -> (N, d1*d2*...).",
        pattern=OpPattern.INJECTIVE,
        infer=inference.batch_flatten,
        relax=RelaxOp("relax.nn.batch_flatten"),
    ),
    Operator(
        "nn.pad",
        "Pads data; 2 inputs (data, pad_value scalar tensor); pad_width is ((before_0, after_0), "
        "...) per axis; pad_mode constant/edge/reflect.",
        attrs=(  # TVM's PadAttrs
            RelayAttr("pad_width", AttrKind.ANY, None, required=True),
            RelayAttr("pad_mode", AttrKind.STR, "constant"),
        ),
        arity=2,
        pattern=OpPattern.INJECTIVE,
        infer=inference.pad(mirror=False),
        relax=no_relax(
            "Relax's pad takes pad_value as a float attribute, Relay's as a tensor argument"
        ),
    ),
    Operator(
        "nn.mirror_pad",
        "Pads data by mirroring (mode SYMMETRIC or REFLECT); one input.",
        attrs=(  # TVM's MirrorPadAttrs
            RelayAttr("mode", AttrKind.STR, "SYMMETRIC"),
            RelayAttr("pad_width", AttrKind.ANY, None, required=True),
        ),
        pattern=OpPattern.INJECTIVE,
        infer=inference.pad(mirror=True),
        relax=no_relax("Relax has no mirror_pad"),
    ),
    Operator(
        "nn.upsampling",
        "Upsamples H and W by scale_h / scale_w using nearest_neighbor, bilinear or bicubic "
        "interpolation.",
        attrs=(  # TVM's UpSamplingAttrs
            RelayAttr("scale_h", AttrKind.FLOAT, None, required=True),
            RelayAttr("scale_w", AttrKind.FLOAT, None, required=True),
            RelayAttr("layout", AttrKind.STR, "NCHW"),
            RelayAttr("method", AttrKind.STR, "nearest_neighbor"),
            RelayAttr("align_corners", AttrKind.BOOL, False),
        ),
        pattern=OpPattern.INJECTIVE,
        infer=inference.upsampling("HW", ("scale_h", "scale_w")),
        relax=no_relax("Relax has no upsampling; it resizes with image.resize2d"),
    ),
    Operator(
        "nn.upsampling3d",
        "Upsamples D, H and W by scale_d/scale_h/scale_w.",
        attrs=(  # TVM's UpSampling3DAttrs
            RelayAttr("scale_d", AttrKind.FLOAT, None, required=True),
            RelayAttr("scale_h", AttrKind.FLOAT, None, required=True),
            RelayAttr("scale_w", AttrKind.FLOAT, None, required=True),
            RelayAttr("layout", AttrKind.STR, "NCDHW"),
            RelayAttr("method", AttrKind.STR, "nearest_neighbor"),
            RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
        ),
        pattern=OpPattern.INJECTIVE,
        infer=inference.upsampling("DHW", ("scale_d", "scale_h", "scale_w")),
        relax=no_relax("Relax has no upsampling3d; it resizes with image.resize3d"),
    ),
    Operator(
        "nn.depth_to_space",
        "Rearranges blocks of channel data into spatial blocks (block_size), DCR or CDR ordering.",
        attrs=_SUB_PIXEL_ATTRS,
        pattern=OpPattern.INJECTIVE,
        infer=inference.sub_pixel(to_space=True),
        relax=no_relax(
            "Relax has no depth_to_space; its nn.pixel_shuffle is the NCHW, CRD-mode case only"
        ),
    ),
    Operator(
        "nn.space_to_depth",
        "Rearranges spatial blocks of size block_size into the channel dimension.",
        attrs=_SUB_PIXEL_ATTRS,
        pattern=OpPattern.INJECTIVE,
        infer=inference.sub_pixel(to_space=False),
        relax=no_relax("Relax has no space_to_depth"),
    ),
)
