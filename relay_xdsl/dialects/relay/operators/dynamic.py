"""Dynamic operators: ``dyn.*``, whose shape-like values are tensor arguments.

TVM's frontends emit them where a shape, a size, a count or a scale is
computed rather than written (``src/relay/op/dyn/``): ``dyn.reshape(%x,
%shape)`` is ``reshape`` with ``newshape`` read from the tensor ``%shape``
at run time. Each takes the attrs struct of its static counterpart, whose
fields the dynamic arguments stand for are left unset (TVM prints them as
``newshape=[]``, ``k=None``). Their relations follow TVM's: the rank of
the result is known from the static shapes of the arguments, and a
dimension the values decide is unknown (``?``).

Where those arguments are ``relay.constant`` ops, ``relay-dynamic-to-static``
rewrites the call into the static operator
(:mod:`relay_xdsl.dialects.relay.dynamic_to_static`); lowering and the Relax
export apply it first, so that a dynamic operator lowers and exports exactly
where its static counterpart does. None has a Relax mapping of its own:
Relax passes shapes as symbolic ``R.shape`` values, not as tensors.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerType, TensorType, TupleType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.attributes import OpPattern, RelayAttr, integer
from relay_xdsl.dialects.relay.inference import ANY, Call, Reject
from relay_xdsl.dialects.relay.layouts import convert_layout
from relay_xdsl.dialects.relay.operators import elementwise, image, nn, reductions, shape
from relay_xdsl.dialects.relay.registry import (
    NoLowering,
    Operator,
    Relation,
    no_lowering,
    no_relax,
)

_STATIC: dict[str, Operator] = {
    row.name: row
    for row in (
        *elementwise.CLIP_CAST_AND_CREATION,
        *shape.SHAPE_MANIPULATION,
        *shape.GATHER_REPEAT_AND_LAYOUT,
        *reductions.SORTING,
        *nn.DATA_MOVEMENT,
        *image.IMAGE,
    )
}
"""The static counterparts, by name."""

_INT32 = IntegerType(32)

_NO_RELAX = no_relax(
    "Relax passes shapes as symbolic R.shape values, not tensors; the static operator "
    "relay-dynamic-to-static makes of it (constant shape arguments) exports"
)

_NO_LOWERING = no_lowering(
    "TOSA needs static shapes; lowering first runs relay-dynamic-to-static, which makes the "
    "call static when its shape arguments are constants"
)


def _attrs(static: str) -> tuple[RelayAttr, ...]:
    """The attrs struct of static operator `static`: the dynamic one takes the
    same, with no builder defaults (its arguments stand for those fields, which
    TVM's dynamic builders leave unset)."""
    return tuple(
        RelayAttr(attr.name, attr.kind, attr.default, attr.required)
        for attr in _STATIC[static].attrs
    )


def _length(call: Call, index: int, what: str) -> int:
    """The static length of the 1D tensor argument `index` (a shape, axes, bounds)."""
    dims = call.shape(index)
    if len(dims) != 1 or dims[0] == ANY:
        raise Reject(f"the {what} must be a 1D tensor of static length")
    return dims[0]


def _scalar(call: Call, index: int, what: str) -> None:
    if call.shape(index):
        raise Reject(f"the {what} must be a scalar")


def _unknown(rank: int, element: Attribute) -> Attribute:
    return TensorType(element, [ANY] * rank)


def _to_shape(call: Call) -> Attribute:
    """``DynamicReshape``, ``DynamicBroadCastTo``: the data's elements, as many
    unknown dimensions as the shape tensor has entries."""
    return _unknown(_length(call, 1, "shape"), call.element(0))


def _init(call: Call) -> Attribute:
    """``DynamicInitOp``: zeros and ones of rank the shape's length, of ``dtype``."""
    return _unknown(_length(call, 0, "shape"), call.dtype("dtype"))


def _full(call: Call) -> Attribute:
    """``DynamicFull``: ``dtype`` unset takes the fill value's."""
    _scalar(call, 0, "fill value")
    return _unknown(_length(call, 1, "shape"), call.dtype("dtype", call.element(0)))


def _tile(call: Call) -> Attribute:
    """``DynamicTile``: the rank is the larger of the data's and the repetitions' count."""
    return _unknown(max(len(call.shape(0)), _length(call, 1, "reps")), call.element(0))


def _strided_slice(call: Call) -> Attribute:
    """``DynStridedSlice``: the leading axes the bounds cover are unknown, the rest kept."""
    data = call.shape(0)
    count = _length(call, 1, "begin")
    if _length(call, 2, "end") != count or _length(call, 3, "strides") != count:
        raise Reject("begin, end and strides must have the same length")
    if count > len(data):
        raise Reject(f"{count} bounds for a tensor of rank {len(data)}")
    return TensorType(call.element(0), [ANY] * count + data[count:])


def _squeeze(call: Call) -> Attribute:
    """``DynSqueeze``: one dimension fewer per listed axis."""
    rank = len(call.shape(0)) - _length(call, 1, "axes")
    if rank < 0:
        raise Reject("more axes than the data has dimensions")
    return _unknown(rank, call.element(0))


def _expand_dims(call: Call) -> Attribute:
    """``DynamicExpandDims``: ``num_newaxis`` more dimensions, all unknown."""
    _scalar(call, 1, "axis")
    count = call.integer("num_newaxis")
    if count < 0:
        raise Reject("num_newaxis must be >= 0")
    return _unknown(len(call.shape(0)) + count, call.element(0))


def _topk(call: Call) -> Attribute:
    """``DynTopK``: the sorted axis unknown; ``dtype`` unset is int32."""
    data = call.shape(0)
    k = call.shape(1)
    if k not in ([], [1]):
        raise Reject("k must be a scalar or a tensor of shape (1,)")
    axis = call.integer("axis")
    if not -len(data) <= axis < len(data):
        raise Reject(f"axis {axis} is out of range for rank {len(data)}")
    out = list(data)
    out[axis] = ANY
    values = TensorType(call.element(0), out)
    indices = TensorType(call.dtype("dtype", _INT32), out)
    kind = call.attr("ret_type")
    if kind == "values":
        return values
    if kind == "indices":
        return indices
    if kind != "both":
        raise Reject(f"unknown ret_type {kind!r}")
    return TupleType(ArrayAttr((values, indices)))


def _one_hot(call: Call) -> Attribute:
    """``DynOneHot``: the depth, an unknown dimension, inserted at ``axis``."""
    indices = call.shape(0)
    _scalar(call, 1, "on value")
    _scalar(call, 2, "off value")
    _scalar(call, 3, "depth")
    axis = call.integer("axis")
    axis = len(indices) if axis == -1 else axis
    if not 0 <= axis <= len(indices):
        raise Reject(f"axis {call.integer('axis')} is out of range")
    return TensorType(call.dtype("dtype"), indices[:axis] + [ANY] + indices[axis:])


def _pad(call: Call) -> Attribute:
    """``DynamicPad``: the pad widths a 2D tensor; every dimension unknown."""
    data = call.shape(0)
    if not data or len(call.shape(1)) != 2:
        raise Reject("the pad width must be a 2D tensor, the data of rank 1 or more")
    call.tensor(2)
    return _unknown(len(data), call.element(0))


def _resampled(call: Call, canonical: str) -> list[int]:
    """The data's shape, in its ``layout``, with the spatial axes (those of `canonical`) unknown."""
    layout = call.attr("layout")
    dims = convert_layout(call.shape(0), layout, canonical)
    dims[2:] = [ANY] * (len(canonical) - 2)
    return convert_layout(dims, canonical, layout)


def _upsampling(call: Call) -> Attribute:
    """``DynamicUpSampling``: H and W unknown; the scales are scalars."""
    _scalar(call, 1, "scale_h")
    _scalar(call, 2, "scale_w")
    return TensorType(call.element(0), _resampled(call, "NCHW"))


def _upsampling3d(call: Call) -> Attribute:
    """``DynamicUpSampling3D``: D, H and W unknown; the scales are scalars."""
    for index, scale in enumerate(("scale_d", "scale_h", "scale_w"), start=1):
        _scalar(call, index, scale)
    return TensorType(call.element(0), _resampled(call, "NCDHW"))


def _resize2d(call: Call) -> Attribute:
    """``DynResize2D``: H and W unknown; ``out_dtype`` unset is the data's."""
    element = call.dtype("out_dtype", call.element(0))
    call.tensor(1)
    call.tensor(2)
    return TensorType(element, _resampled(call, "NCHW"))


def _sparse_to_dense(call: Call) -> Attribute:
    """``DynSparseToDense``: integer indices of rank 3 or less and values of rank 2
    or less (TVM's bounds), a scalar default; the values' dtype, of rank the
    shape's length."""
    indices = call.tensor(0)
    if not isinstance(indices.get_element_type(), IntegerType) or len(call.shape(0)) > 3:
        raise Reject("the sparse indices must be integers of rank 3 or less")
    if len(call.shape(1)) > 2:
        raise Reject("the sparse values must have rank 2 or less")
    _scalar(call, 2, "default value")
    return _unknown(_length(call, 3, "output shape"), call.element(1))


def _dynamic(
    name: str,
    summary: str,
    *,
    infer: Relation,
    attrs: tuple[RelayAttr, ...],
    operands: tuple[str, ...],
    pattern: OpPattern,
    returns_tuple: bool | None = False,
    lowering: NoLowering = _NO_LOWERING,
) -> Operator:
    """A dynamic operator: no Relax mapping, and no lowering unless made static first."""
    return Operator(
        name,
        summary,
        attrs=attrs,
        operands=operands,
        arity=len(operands),
        returns_tuple=returns_tuple,
        pattern=pattern,
        infer=infer,
        relax=_NO_RELAX,
        lowering=lowering,
    )


# TVM registers no TOpPattern for dyn.zeros, dyn.ones and dyn.topk: fusion
# takes them as opaque.
# fmt: off
DYNAMIC: tuple[Operator, ...] = (
    _dynamic("dyn.reshape",
        "`reshape` to the shape held by the 1D tensor second input; 0 copies a dimension, -1 "
        "is inferred, -3 merges two.",
        attrs=_attrs("reshape"),  # TVM's ReshapeAttrs
        operands=("data", "newshape"),
        pattern=OpPattern.INJECTIVE, infer=_to_shape),
    _dynamic("dyn.broadcast_to", "`broadcast_to` the shape held by the 1D tensor second input.",
        attrs=_attrs("broadcast_to"),  # TVM's InitOpAttrs
        operands=("data", "shape"),
        pattern=OpPattern.BROADCAST, infer=_to_shape),
    _dynamic("dyn.full",
        "`full`: the shape held by the 1D tensor second input, filled with the scalar first input.",
        attrs=_attrs("full"),  # TVM's InitOpAttrs
        operands=("fill_value", "shape"),
        pattern=OpPattern.ELEMWISE, infer=_full),
    _dynamic("dyn.zeros", "`zeros` of the shape held by the 1D tensor input, of `dtype`.",
        attrs=_attrs("zeros"),  # TVM's InitOpAttrs
        operands=("shape",),
        pattern=OpPattern.OPAQUE, infer=_init),
    _dynamic("dyn.ones", "`ones` of the shape held by the 1D tensor input, of `dtype`.",
        attrs=_attrs("ones"),  # TVM's InitOpAttrs
        operands=("shape",),
        pattern=OpPattern.OPAQUE, infer=_init),
    _dynamic("dyn.tile", "`tile` by the repetitions held by the 1D tensor second input.",
        attrs=_attrs("tile"),  # TVM's TileAttrs
        operands=("data", "reps"),
        pattern=OpPattern.INJECTIVE, infer=_tile),
    _dynamic("dyn.strided_slice",
        "`strided_slice` of the leading axes by the 1D tensors begin, end and strides (inputs "
        "2 to 4); slice_mode 'size' treats end as sizes.",
        attrs=_attrs("strided_slice"),  # TVM's StridedSliceAttrs
        operands=("data", "begin", "end", "strides"),
        pattern=OpPattern.INJECTIVE, infer=_strided_slice),
    _dynamic("dyn.squeeze", "`squeeze` of the axes held by the 1D tensor second input.",
        attrs=_attrs("squeeze"),  # TVM's SqueezeAttrs
        operands=("data", "axes"),
        pattern=OpPattern.INJECTIVE, infer=_squeeze),
    _dynamic("dyn.expand_dims",
        "`expand_dims`: num_newaxis size-1 dimensions at the position held by the scalar "
        "second input.",
        attrs=(integer("num_newaxis", 1),),  # TVM's DynExpandDimsAttrs
        operands=("data", "axis"),
        pattern=OpPattern.INJECTIVE, infer=_expand_dims),
    _dynamic("dyn.topk",
        "`topk` with k held by the second input (a scalar or a tensor of shape (1,)); a "
        "2-tuple (values, indices) when ret_type='both'.",
        attrs=_attrs("topk"),  # TVM's TopKAttrs
        operands=("data", "k"),
        returns_tuple=None, pattern=OpPattern.OPAQUE, infer=_topk),
    _dynamic("dyn.one_hot",
        "`one_hot` with the depth held by the scalar fourth input; inputs (indices, on_value, "
        "off_value, depth).",
        attrs=_attrs("one_hot"),  # TVM's OneHotAttrs
        operands=("indices", "on_value", "off_value", "depth"),
        pattern=OpPattern.OUT_ELEMWISE_FUSABLE, infer=_one_hot),
    _dynamic("dyn.nn.pad",
        "`nn.pad` by the widths held by the 2D tensor second input ((before, after) per "
        "axis); inputs (data, pad_width, pad_value).",
        attrs=_attrs("nn.pad"),  # TVM's PadAttrs
        operands=("data", "pad_width", "pad_val"),
        pattern=OpPattern.INJECTIVE, infer=_pad),
    _dynamic("dyn.nn.upsampling",
        "`nn.upsampling` by the scalar scales held by inputs 2 (scale_h) and 3 (scale_w).",
        attrs=_attrs("nn.upsampling"),  # TVM's UpSamplingAttrs
        operands=("data", "scale_h", "scale_w"),
        pattern=OpPattern.INJECTIVE, infer=_upsampling),
    _dynamic("dyn.nn.upsampling3d",
        "`nn.upsampling3d` by the scalar scales held by inputs 2 to 4 (scale_d, scale_h, "
        "scale_w).",
        attrs=_attrs("nn.upsampling3d"),  # TVM's UpSampling3DAttrs
        operands=("data", "scale_d", "scale_h", "scale_w"),
        pattern=OpPattern.INJECTIVE, infer=_upsampling3d),
    _dynamic("dyn.image.resize2d",
        "`image.resize2d` to the size held by the second input (height, width); the third is "
        "the region of interest (roi).",
        attrs=_attrs("image.resize2d"),  # TVM's Resize2DAttrs
        operands=("data", "size", "roi"),
        pattern=OpPattern.INJECTIVE, infer=_resize2d),
    _dynamic("dyn.sparse_to_dense",
        "A dense tensor of the shape held by the fourth input: the values (second input) at the "
        "sparse indices (first), the scalar default (third) elsewhere.",
        operands=("sparse_indices", "sparse_values", "default_value", "output_shape"),
        attrs=(), pattern=OpPattern.OPAQUE, infer=_sparse_to_dense,
        lowering=no_lowering("the dialect has no static sparse_to_dense to make of it; a "
                             "scatter is not lowered yet")),
)
# fmt: on
