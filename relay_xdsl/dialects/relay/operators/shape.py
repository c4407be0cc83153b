"""Shape manipulation, gathering, repetition and layout operators."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import BoolAttr, TensorType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import (
    OpPattern,
    anything,
    attr_value,
    boolean,
    dtype,
    integer,
    ints,
    string,
)
from relay_xdsl.dialects.relay.operators.elementwise import INIT_OP_ATTRS
from relay_xdsl.dialects.relay.ops import OperatorOp
from relay_xdsl.dialects.relay.registry import Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import TENSOR, Arg, ArgRole, Field, Kind, RelaxOp


def _reshape_hook(op: OperatorOp, values: dict[str, Any]) -> None:
    # Relax has no copy (0) or -1/-2/-3/-4 dimensions: use the inferred shape.
    shape = values["newshape"]
    if any(d < 0 for d in shape) or (0 in shape and not op.relay_attr("allowzero")):
        result = op.result.type
        if not isinstance(result, TensorType) or any(d < 0 for d in result.get_shape()):
            raise ValueError("reshape with Relay's special dimensions needs a static result")
        values["newshape"] = list(result.get_shape())


def _reshape_import_hook(attributes: dict[str, Attribute]) -> None:
    # A Relax 0 is a literal empty dimension, Relay's `allowzero` spelling of it.
    if 0 in attr_value(attributes["newshape"]):
        attributes["allowzero"] = BoolAttr.from_bool(True)


def _expand_dims_hook(op: OperatorOp, values: dict[str, Any]) -> None:
    axis = op.relay_attr("axis")
    count = op.relay_attr("num_newaxis")
    if count == 1:
        values["axis"] = [axis]
        return
    if axis < 0:
        data = op.args[0].type
        if not isinstance(data, TensorType):
            raise ValueError("expand_dims takes a tensor")
        axis += data.get_num_dims() + 1
    values["axis"] = list(range(axis, axis + count))


# fmt: off
SHAPE_MANIPULATION: tuple[Operator, ...] = (
    Operator("squeeze",
        "Removes size-1 dimensions: the listed `axis` entries, or all of them if axis is None.",
        attrs=(ints("axis"),),  # TVM's SqueezeAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.squeeze,
        relax=RelaxOp(
            "relax.squeeze", "relax.attrs.SqueezeAttrs", (Field("axis", Kind.OPT_INTS),)
        )),
    Operator("expand_dims", "Inserts num_newaxis size-1 dimensions at position `axis`.",
        attrs=(integer("axis", required=True), integer("num_newaxis", 1)),  # TVM's ExpandDimsAttrs
        pattern=OpPattern.BROADCAST, infer=inference.expand_dims,
        relax=RelaxOp(
            "relax.expand_dims", "relax.attrs.ExpandDimsAttrs", (Field("axis", Kind.SINGLE_AXIS),),
            export_hook=_expand_dims_hook
        )),
    Operator("reshape",
        "Reshapes to newshape; supports the special values 0 (copy dim, unless allowzero), -1 "
        "(infer), -2, -3, -4.",
        attrs=(ints("newshape", required=True), boolean("allowzero", False)),  # TVM's ReshapeAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.reshape,
        relax=RelaxOp(
            "relax.reshape", args=(TENSOR, Arg(ArgRole.SHAPE, "newshape")),
            export_hook=_reshape_hook, import_hook=_reshape_import_hook
        )),
    Operator("reshape_like",
        "Reshapes data to the shape of the second tensor (optionally only a sub-range of axes).",
        attrs=(
            integer("lhs_begin", 0), integer("lhs_end"), integer("rhs_begin", 0), integer("rhs_end")
        ),  # TVM's ReshapeLikeAttrs
        operands=("data", "shape_like"),
        arity=2, pattern=OpPattern.INJECTIVE, infer=inference.reshape_like,
        relax=no_relax("Relax has no reshape_like to import")),
    Operator("transpose",
        "Permutes dimensions by `axes`; reverses the dimension order when axes is None.",
        attrs=(ints("axes", required=True),),  # TVM's TransposeAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.transpose,
        relax=RelaxOp(
            "relax.permute_dims", "relax.attrs.PermuteDimsAttrs", (Field("axes", Kind.OPT_INTS),)
        )),
    Operator("concatenate",
        "Joins a tuple of tensors along `axis`; the single Relay argument is a tuple expression.",
        attrs=(integer("axis", 0),),  # TVM's ConcatenateAttrs
        tuple_input=True, pattern=OpPattern.INJECTIVE, infer=inference.concatenate,
        relax=RelaxOp("relax.concat", "relax.attrs.ConcatAttrs", (Field("axis", Kind.OPT_INT),))),
    Operator("stack", "Stacks a tuple of equally shaped tensors along a new dimension `axis`.",
        attrs=(integer("axis", 0),),  # TVM's StackAttrs
        tuple_input=True, pattern=OpPattern.INJECTIVE, infer=inference.stack,
        relax=RelaxOp("relax.stack", "relax.attrs.StackAttrs", (Field("axis", Kind.OPT_INT),))),
    Operator("split",
        "Splits data along `axis` into equal sections (int) or at the given indices (array); "
        "returns a tuple.",
        # TVM's SplitAttrs
        attrs=(anything("indices_or_sections", required=True), integer("axis", 0)),
        returns_tuple=True, pattern=OpPattern.INJECTIVE, infer=inference.split,
        relax=RelaxOp(
            "relax.split", "relax.attrs.SplitAttrs",
            (Field("indices_or_sections", Kind.INT64_OR_INT64S), Field("axis", Kind.INT))
        )),
    Operator("strided_slice",
        "NumPy-style slice with begin/end/strides (optionally only along `axes`); slice_mode "
        "'size' treats end as sizes.",
        attrs=(
            ints("begin", required=True), ints("end", required=True),
            # Unset, TVM's relation rejects the call: relay.strided_slice sets [1].
            ints("strides", required=True, builder_default=(1,)), string("slice_mode", "end"),
            ints("axes", required=True)
        ),  # TVM's StridedSliceAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.strided_slice,
        relax=no_relax("Relax's strided_slice slices only the listed axes and takes the bounds "
                       "as arguments; it imports as relax.strided_slice")),
    Operator("slice_like",
        "Slices data to the shape of the second tensor along `axes` (all axes if empty/None).",
        attrs=(ints("axes", required=True),),  # TVM's SliceLikeAttrs
        operands=("data", "shape_like"),
        arity=2, pattern=OpPattern.INJECTIVE, infer=inference.slice_like,
        relax=no_relax("Relax has no slice_like to import")),
)
# fmt: on


# fmt: off
GATHER_REPEAT_AND_LAYOUT: tuple[Operator, ...] = (
    Operator("take",
        "Gathers elements of data at `indices` along `axis` (flattened data when axis is None); "
        "mode clip/wrap/fast for out-of-bound indices.",
        # TVM's TakeAttrs
        attrs=(integer("batch_dims", 0), integer("axis"), string("mode", "clip")), arity=2,
        operands=("data", "indices"),
        pattern=OpPattern.INJECTIVE, infer=inference.take,
        relax=RelaxOp(
            "relax.take", "relax.attrs.TakeAttrs",
            (Field("axis", Kind.OPT_INT), Field("mode", Kind.STR)),
            relay_defaults_only=("batch_dims",)
        )),
    Operator("gather",
        "Gathers values along `axis` using an index tensor of the same rank (like torch.gather).",
        attrs=(integer("axis"),),  # TVM's GatherAttrs
        operands=("data", "indices"),
        arity=2, pattern=OpPattern.INJECTIVE, infer=inference.gather,
        relax=RelaxOp(
            "relax.gather_elements", "relax.attrs.GatherElementsAttrs", (Field("axis", Kind.INT),)
        )),
    Operator("gather_nd",
        "Gathers slices of data addressed by the leading dimension of the indices tensor.",
        attrs=(integer("batch_dims", 0), integer("index_rank")),  # TVM's GatherNDAttrs
        operands=("data", "indices"),
        arity=2, pattern=OpPattern.INJECTIVE, infer=inference.gather_nd,
        relax=no_relax("Relax's gather_nd indexes with the last dimension of the indices, "
                       "Relay's with the first")),
    Operator("tile", "Repeats the whole tensor reps[i] times along each dimension.",
        attrs=(ints("reps", required=True),),  # TVM's TileAttrs
        pattern=OpPattern.BROADCAST, infer=inference.tile,
        relax=RelaxOp(
            "relax.tile", "relax.attrs.TileAttrs", (Field("repeats", Kind.INTS, "reps"),)
        )),
    Operator("repeat", "Repeats each element `repeats` times along `axis`.",
        attrs=(integer("repeats", required=True), integer("axis")),  # TVM's RepeatAttrs
        pattern=OpPattern.BROADCAST, infer=inference.repeat,
        relax=RelaxOp(
            "relax.repeat", "relax.attrs.RepeatAttrs",
            (Field("repeats", Kind.INT), Field("axis", Kind.OPT_INT))
        )),
    Operator("reverse", "Reverses the order of elements along `axis`.",
        attrs=(integer("axis"),),  # TVM's ReverseAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.with_axis_check,
        relax=RelaxOp("relax.flip", "relax.attrs.FlipAttrs", (Field("axis", Kind.INT),))),
    Operator("broadcast_to", "Broadcasts data to `shape` (uses InitOpAttrs; dtype unused).",
        attrs=INIT_OP_ATTRS, pattern=OpPattern.BROADCAST, infer=inference.broadcast_to,
        relax=RelaxOp(
            "relax.broadcast_to", args=(TENSOR, Arg(ArgRole.SHAPE, "shape")),
            relay_defaults_only=("dtype",)
        )),
    Operator("broadcast_to_like", "Broadcasts data to the shape of the second tensor.", arity=2,
        operands=("data", "broadcast_type"),
        pattern=OpPattern.BROADCAST, infer=inference.broadcast_to_like,
        relax=no_relax("Relax has no broadcast_to_like to import")),
    Operator("one_hot",
        "One-hot encoding of integer indices with depth `depth` on `axis`; inputs (indices, "
        "on_value, off_value).",
        attrs=(integer("depth", 1), integer("axis", -1), dtype("dtype", "")),  # TVM's OneHotAttrs
        operands=("indices", "on_value", "off_value"),
        arity=3, pattern=OpPattern.OUT_ELEMWISE_FUSABLE, infer=inference.one_hot,
        relax=no_relax("Relax's one_hot takes on_value and off_value as scalars, Relay's as "
                       "tensors")),
    Operator("layout_transform", "Converts a tensor between layouts, e.g. NCHW -> NCHW16c.",
        # TVM's LayoutTransformAttrs
        attrs=(string("src_layout", required=True), string("dst_layout", required=True)),
        pattern=OpPattern.INJECTIVE, infer=inference.layout_transform,
        relax=no_relax("Relax's layout_transform takes an index map, not layout names")),
    Operator("shape_of", "Returns the shape of the input as a 1D tensor of dtype `dtype`.",
        # Unset, TVM's result has no dtype and its VM fails: relay.shape_of sets int32.
        attrs=(dtype("dtype", "", builder_default="int32"),),  # TVM's ShapeOfAttrs
        pattern=OpPattern.OPAQUE, infer=inference.shape_of,
        relax=no_relax("Relax's shape_of returns a shape, not a tensor")),
)
# fmt: on
