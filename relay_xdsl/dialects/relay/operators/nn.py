"""Neural-network operators: convolutions and dense layers, activations,
normalization and dropout, and data movement (padding, resampling, pixel shuffles).
"""

from __future__ import annotations

from relay_xdsl.dialects.relay import backward, inference
from relay_xdsl.dialects.relay.attributes import (
    OpPattern,
    RelayAttr,
    anything,
    boolean,
    dtype,
    floating,
    integer,
    ints,
    string,
)
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.dialects.relay.registry import NoRelax, Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import Field, Kind, RelaxOp, layouts_hook


def _relax_conv(dims: int, transposed: bool) -> RelaxOp:
    """``relax.nn.conv<dims>d[_transpose]``: Relay's fields but ``channels``
    and ``kernel_size``, which Relax derives from the weight."""
    suffix = f"conv{dims}d" + ("_transpose" if transposed else "")
    windows = ("strides", "padding", *(("output_padding",) if transposed else ()), "dilation")
    layouts = ("data_layout", "kernel_layout", "out_layout")
    fields = (
        *(Field(name, Kind.INTS) for name in windows),
        Field("groups", Kind.INT),
        *(Field(name, Kind.STR) for name in layouts),
        Field("out_dtype", Kind.DTYPE),
    )
    return RelaxOp(
        f"relax.nn.{suffix}",
        f"relax.attrs.Conv{dims}D{'Transpose' if transposed else ''}Attrs",
        fields,
        export_hook=layouts_hook("data_layout", spatial=dims),
    )


def _conv_attrs(dims: int, transposed: bool) -> tuple[RelayAttr, ...]:
    """Fields of TVM's ``Conv<dims>D[Transpose]Attrs``, in TVM's order: the
    transposed structs lead with ``channels`` and ``kernel_size`` and add
    ``output_padding``; the weight layout is ``OI<spatial>`` (``IO<spatial>``
    when transposed)."""
    spatial = spatial_axes(dims)
    ones, zeros = (1,) * dims, (0,) * dims
    shape = (
        integer("channels"),
        ints("kernel_size"),
    )
    layouts = (
        string("data_layout", "NC" + spatial),
        string("kernel_layout", ("IO" if transposed else "OI") + spatial),
        string("out_layout", ""),
        dtype("out_dtype", ""),
    )
    if transposed:
        return (
            *shape,
            ints("strides", ones),
            ints("output_padding", zeros),
            ints("padding", zeros),
            ints("dilation", ones),
            integer("groups", 1),
            *layouts,
        )
    return (
        ints("strides", ones),
        # TVM's Conv1DAttrs defaults padding to two entries (before and after), like Conv2DAttrs.
        ints("padding", (0,) * max(dims, 2)),
        ints("dilation", ones),
        integer("groups", 1),
        *shape,
        *layouts,
    )


def _conv(dims: int, summary: str, *, transposed: bool = False) -> Operator:
    """``nn.conv<dims>d[_transpose]``: data and weight (``OUT_ELEMWISE_FUSABLE``)."""
    return Operator(
        f"nn.conv{dims}d" + ("_transpose" if transposed else ""),
        summary,
        attrs=_conv_attrs(dims, transposed),
        operands=("data", "weight"),
        arity=2,
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.conv(spatial_axes(dims), transposed=transposed),
        backward=backward.conv(spatial_axes(dims), transposed=transposed),
        relax=_relax_conv(dims, transposed),
    )


def _softmax(name: str, summary: str, *, mapped: bool) -> Operator:
    """A softmax along ``axis`` (TVM's ``SoftmaxAttrs``); Relax's op of the same
    name, where `mapped`, has the same field."""
    short = name.removeprefix("nn.")
    relax = (
        RelaxOp(f"relax.nn.{short}", "relax.attrs.SoftmaxAttrs", (Field("axis", Kind.INT),))
        if mapped
        else no_relax(f"Relax has no {short} to import")
    )
    return Operator(
        name,
        summary,
        attrs=(integer("axis", -1),),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.with_axis_check,
        relax=relax,
    )


def _norm_attrs(axis: int) -> tuple[RelayAttr, ...]:
    """The fields TVM's normalization attrs structs share, with the default `axis`."""
    return (
        integer("axis", axis),
        floating("epsilon", 1e-05),
        boolean("center", True),
        boolean("scale", True),
    )


def _no_relax_norm(name: str) -> NoRelax:
    """Why Relax's `name`, which names the channel axis and the normalised axes, does not
    import as the Relay operator."""
    return no_relax(
        f"not mapped yet: Relax's {name} names the channel axis and the normalised "
        "axes, Relay's only the channel axis"
    )


_SUB_PIXEL_ATTRS = (
    integer("block_size", 1),
    string("layout", "NCHW"),
    string("mode", "DCR"),
)
"""Fields of TVM's ``SubPixelAttrs``."""


# fmt: off
CONVOLUTION_AND_DENSE: tuple[Operator, ...] = (
    _conv(2,
        "2D convolution of data (N,C,H,W by default) with weight (O, I/groups, KH, KW); padding "
        "may have 1, 2 or 4 entries (top, left, bottom, right)."),
    _conv(2,
        "2D transposed convolution (gradient of conv2d w.r.t. its input); default weight layout "
        "IOHW; output_padding adds extra size on one side of the output.",
        transposed=True),
    _conv(1, "1D convolution of data (N,C,W) with weight (O, I/groups, KW)."),
    _conv(1, "1D transposed convolution; default weight layout IOW.", transposed=True),
    _conv(3, "3D convolution of data (N,C,D,H,W) with weight (O, I/groups, KD, KH, KW)."),
    _conv(3, "3D transposed convolution; default weight layout IODHW.", transposed=True),
    Operator("nn.dense",
        "Fully connected layer: Y = X * W^T, with data (..., K) and weight (units, K).",
        attrs=(integer("units", required=True), dtype("out_dtype", "")),  # TVM's DenseAttrs
        operands=("data", "weight"),
        arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE, infer=inference.matmul(dense=True),
        backward=backward.matmul(dense=True),
        relax=no_relax("no Relax call imports as nn.dense: Relax transposes the weight with "
                       "permute_dims, and its matmul (NumPy semantics) imports as relax.matmul")),
    Operator("nn.matmul",
        "General matrix multiply Y = A * B where either operand may be marked transposed via "
        "transpose_a / transpose_b.",
        attrs=(
            integer("units", required=True), dtype("out_dtype", ""), boolean("transpose_a", False),
            boolean("transpose_b", False)
        ),  # TVM's MatmulAttrs
        operands=("tensor_a", "tensor_b"),
        arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE, infer=inference.matmul(dense=False),
        backward=backward.matmul(dense=False),
        relax=no_relax("no Relax call imports as nn.matmul: Relax's matmul has NumPy semantics "
                       "and no transpose flags, and imports as relax.matmul")),
    Operator("nn.batch_matmul",
        "Batched matrix multiply of 3D tensors A (b,M,K) and B (b,K,N) or transposed variants; C++ "
        "default transpose_b=false but the Python wrapper defaults transpose_b=True (so it is "
        "printed).",
        attrs=(
            dtype("out_dtype", ""), boolean("transpose_a", False), boolean("transpose_b", False)
        ),  # TVM's BatchMatmulAttrs
        operands=("tensor_a", "tensor_b"),
        arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE, infer=inference.batch_matmul,
        relax=no_relax("no Relax call imports as nn.batch_matmul: Relax's matmul has NumPy "
                       "semantics and no transpose flags, and imports as relax.matmul")),
    Operator("nn.bias_add",
        "Adds a 1D bias tensor to data along dimension `axis` (broadcast over all other "
        "dimensions).",
        attrs=(integer("axis", 1),),  # TVM's BiasAddAttrs
        operands=("data", "bias"),
        arity=2, pattern=OpPattern.BROADCAST, infer=inference.bias_add, backward=backward.bias_add,
        relax=no_relax("no Relax call imports as nn.bias_add: Relax's frontends add a bias "
                       "reshaped to broadcast")),
)
# fmt: on


# fmt: off
ACTIVATIONS: tuple[Operator, ...] = (
    Operator("nn.relu", "Elementwise rectified linear unit max(x, 0).", pattern=OpPattern.ELEMWISE,
        infer=inference.same_type, backward=backward.same_type,
        relax=RelaxOp("relax.nn.relu")),
    Operator("nn.leaky_relu", "Elementwise x if x > 0 else alpha * x.",
        attrs=(floating("alpha", 0.25),),  # TVM's LeakyReluAttrs
        pattern=OpPattern.ELEMWISE, infer=inference.same_type, backward=backward.same_type,
        relax=RelaxOp(
            "relax.nn.leakyrelu", "relax.attrs.LeakyReluAttrs", (Field("alpha", Kind.FLOAT),)
        )),
    Operator("nn.prelu",
        "Parametric ReLU: x if x > 0 else alpha[c] * x, with a learned 1D alpha tensor indexed "
        "along `axis`.",
        attrs=(integer("axis", 1),),  # TVM's PReluAttrs
        operands=("data", "alpha"),
        arity=2, pattern=OpPattern.BROADCAST, infer=inference.same_type,
        relax=RelaxOp("relax.nn.prelu", "relax.attrs.PReluAttrs", (Field("axis", Kind.INT),))),
    _softmax("nn.softmax", "Softmax normalization along `axis`: exp(x) / sum(exp(x)).",
        mapped=True),
    _softmax("nn.fast_softmax", "Softmax along `axis` using a fast approximate exp.", mapped=False),
    _softmax("nn.log_softmax",
        "log(softmax(x)) along `axis`, computed in a numerically stable way.", mapped=True),
)
# fmt: on


# fmt: off
NORMALIZATION: tuple[Operator, ...] = (
    Operator("nn.batch_norm",
        "Batch normalization with inputs (data, gamma, beta, moving_mean, moving_var); returns a "
        "3-tuple (normalized output, new moving mean, new moving var). Usually decomposed by "
        "SimplifyInference.",
        attrs=_norm_attrs(1),  # TVM's BatchNormAttrs
        operands=("data", "gamma", "beta", "moving_mean", "moving_var"),
        arity=5, returns_tuple=True, pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.batch_norm, backward=backward.batch_norm,
        relax=RelaxOp(
            "relax.nn.batch_norm",
            "relax.attrs.BatchNormAttrs",
            (Field("axis", Kind.INT), Field("epsilon", Kind.FLOAT), Field("center", Kind.BOOL),
             Field("scale", Kind.BOOL)),
            # Relay's batch_norm is the inference form; momentum only matters in training.
            implied=(("momentum", 0.1), ("training", False)),
        )),
    Operator("nn.layer_norm",
        "Layer normalization: normalizes data along `axis` with inputs (data, gamma, beta).",
        attrs=_norm_attrs(-1),  # TVM's LayerNormAttrs
        operands=("data", "gamma", "beta"),
        arity=3, pattern=OpPattern.OPAQUE, infer=inference.norm, backward=backward.scale_and_shift,
        relax=RelaxOp(
            "relax.nn.layer_norm",
            "relax.attrs.LayerNormAttrs",
            (
                Field("axes", Kind.SINGLE_AXIS, "axis"),
                Field("epsilon", Kind.FLOAT),
                Field("center", Kind.BOOL),
                Field("scale", Kind.BOOL),
            ),
        )),
    Operator("nn.instance_norm",
        "Instance normalization: normalizes each sample and channel over the spatial dims, inputs "
        "(data, gamma, beta).",
        attrs=_norm_attrs(1),  # TVM's InstanceNormAttrs
        operands=("data", "gamma", "beta"),
        arity=3, pattern=OpPattern.OPAQUE, infer=inference.norm, backward=backward.scale_and_shift,
        relax=_no_relax_norm("instance_norm")),
    Operator("nn.group_norm",
        "Group normalization: splits channels (along axis) into num_groups groups and normalizes "
        "within each, inputs (data, gamma, beta).",
        attrs=(integer("num_groups", 0), *_norm_attrs(1)),  # TVM's GroupNormAttrs
        operands=("data", "gamma", "beta"),
        arity=3, pattern=OpPattern.OPAQUE, infer=inference.norm, backward=backward.scale_and_shift,
        relax=_no_relax_norm("group_norm")),
    Operator("nn.lrn",
        "Local response normalization across `size` neighbouring channels along `axis`.",
        attrs=(
            integer("size", 5), integer("axis", 1), floating("bias", 2.0),
            floating("alpha", 0.0001), floating("beta", 0.75)
        ),  # TVM's LRNAttrs
        pattern=OpPattern.OPAQUE, infer=inference.same_type,
        relax=no_relax("Relax has no lrn to import")),
    Operator("nn.l2_normalize",
        "Divides data by the L2 norm computed over `axis` (with lower bound eps).",
        # TVM's L2NormalizeAttrs
        attrs=(floating("eps", required=True), ints("axis", required=True)),
        pattern=OpPattern.OPAQUE, infer=inference.same_type,
        relax=no_relax("Relax has no l2_normalize to import")),
    Operator("nn.dropout",
        "Dropout; returns a 2-tuple (output, mask). It is an identity at inference and is removed "
        "by SimplifyInference.",
        attrs=(floating("rate", 0.5),),  # TVM's DropoutAttrs
        returns_tuple=True, pattern=OpPattern.OPAQUE, infer=inference.dropout,
        relax=RelaxOp(
            "relax.nn.dropout", "relax.attrs.DropoutAttrs", (Field("rate", Kind.FLOAT),)
        )),
)
# fmt: on


# fmt: off
DATA_MOVEMENT: tuple[Operator, ...] = (
    Operator("nn.batch_flatten",
        "Flattens all dimensions except the first: (N, d1, d2, ...) -> (N, d1*d2*...).",
        pattern=OpPattern.INJECTIVE, infer=inference.batch_flatten,
        relax=RelaxOp("relax.nn.batch_flatten")),
    Operator("nn.pad",
        "Pads data; 2 inputs (data, pad_value scalar tensor); pad_width is ((before_0, after_0), "
        "...) per axis; pad_mode constant/edge/reflect.",
        # TVM's PadAttrs
        attrs=(anything("pad_width", required=True), string("pad_mode", "constant")), arity=2,
        operands=("data", "pad_val"),
        pattern=OpPattern.INJECTIVE, infer=inference.pad(mirror=False),
        relax=no_relax("Relax's pad takes pad_value as a float "
                       "attribute, Relay's as a tensor argument")),
    Operator("nn.mirror_pad", "Pads data by mirroring (mode SYMMETRIC or REFLECT); one input.",
        # TVM's MirrorPadAttrs
        attrs=(string("mode", "SYMMETRIC"), anything("pad_width", required=True)),
        pattern=OpPattern.INJECTIVE, infer=inference.pad(mirror=True),
        relax=no_relax("Relax has no mirror_pad to import")),
    Operator("nn.upsampling",
        "Upsamples H and W by scale_h / scale_w using nearest_neighbor, bilinear or bicubic "
        "interpolation.",
        attrs=(
            floating("scale_h", required=True), floating("scale_w", required=True),
            string("layout", "NCHW"), string("method", "nearest_neighbor"),
            boolean("align_corners", False)
        ),  # TVM's UpSamplingAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.upsampling("HW", ("scale_h", "scale_w")),
        relax=no_relax("Relax has no upsampling to import; it resizes with image.resize2d")),
    Operator("nn.upsampling3d", "Upsamples D, H and W by scale_d/scale_h/scale_w.",
        attrs=(
            floating("scale_d", required=True), floating("scale_h", required=True),
            floating("scale_w", required=True), string("layout", "NCDHW"),
            string("method", "nearest_neighbor"),
            string("coordinate_transformation_mode", "half_pixel")
        ),  # TVM's UpSampling3DAttrs
        pattern=OpPattern.INJECTIVE,
        infer=inference.upsampling("DHW", ("scale_d", "scale_h", "scale_w")),
        relax=no_relax("Relax has no upsampling3d to import; it resizes with image.resize3d")),
    Operator("nn.depth_to_space",
        "Rearranges blocks of channel data into spatial blocks (block_size), DCR or CDR ordering.",
        attrs=_SUB_PIXEL_ATTRS, pattern=OpPattern.INJECTIVE,
        infer=inference.sub_pixel(to_space=True),
        relax=no_relax("Relax has no depth_to_space to import; its nn.pixel_shuffle is the NCHW, "
                       "CRD-mode case only")),
    Operator("nn.space_to_depth",
        "Rearranges spatial blocks of size block_size into the channel dimension.",
        attrs=_SUB_PIXEL_ATTRS, pattern=OpPattern.INJECTIVE,
        infer=inference.sub_pixel(to_space=False),
        relax=no_relax("Relax has no space_to_depth to import")),
)
# fmt: on
