"""Type relations of Relay operators, following TVM v0.19's.

A relation is a function from a :class:`Call` (the argument types and the
attributes of one call) to the call's result type: a builtin ``tensor<...>``
or, for operators with several outputs (``split``, ``nn.batch_norm``,
``nn.dropout``, ``topk``), a ``tuple<...>``. Both shape and element type
follow the operator's relation in ``src/relay/op/**`` (``out_dtype``/``dtype``
attributes included); the Relax-only operators follow Relax's struct-info
inference. Each operator's registry row names its relation (``infer``);
:func:`infer_type` applies it.

Semantics:

* A missing attribute takes the TVM default from the operator's schema.
* Dynamic dimensions are ``DYNAMIC_INDEX`` (Relay's ``?``/``Any``). They
  propagate as in TVM: a relation that keeps ``Any`` keeps it, and any
  arithmetic on an unknown dimension gives an unknown dimension.
* Layouts (``NCHW``, ``NHWC``, ``OIHW``, ``HWIO``, blocked ones such as
  ``NCHW4c`` or ``OIHW4i4o``) are converted like TVM's ``BijectiveLayout``
  (:mod:`~relay_xdsl.dialects.relay.layouts`): shapes go through the
  operator's canonical layout, blocked primal axes are divided rounding up.
* A relation rejects a call TVM would report a type error for (wrong rank,
  out-of-range axis, inconsistent shapes, missing required attribute, unknown
  dtype); :func:`infer_type` then gives None. Constraints TVM imposes on
  *other* arguments by unification (the shape of a bias, of batch-norm
  parameters, ...) are not checked: they never change the result type.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from math import prod
from typing import TYPE_CHECKING, Any, TypeVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerType,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.attributes import RelayAttr, attr_value
from relay_xdsl.dialects.relay.layouts import (
    convert_layout,
    layout_index,
    parse_layout,
    primal_axes,
)
from relay_xdsl.dialects.relay.rejection import Reject
from relay_xdsl.dialects.relay.rejection import require as _require
from relay_xdsl.dialects.relay.shapes import ANY
from relay_xdsl.dialects.relay.shapes import broadcast as _broadcast
from relay_xdsl.dialects.relay.shapes import check_groups as _check_groups
from relay_xdsl.dialects.relay.shapes import check_in_channels as _check_in_channels
from relay_xdsl.dialects.relay.shapes import dims as _dims
from relay_xdsl.dialects.relay.shapes import div as _div
from relay_xdsl.dialects.relay.shapes import known as _known
from relay_xdsl.dialects.relay.shapes import mul as _mul
from relay_xdsl.dialects.relay.shapes import normalize_axis as _normalize_axis
from relay_xdsl.dialects.relay.shapes import padding_totals as _padding_totals
from relay_xdsl.dialects.relay.shapes import reduce_shape as _reduce_shape
from relay_xdsl.dialects.relay.shapes import shape_text as _shape_text
from relay_xdsl.dialects.relay.shapes import trunc_div as _trunc_div
from relay_xdsl.dialects.relay.tensor_types import tensor_type
from relay_xdsl.support.memo import register

if TYPE_CHECKING:
    from relay_xdsl.dialects.relay.registry import Operator

_BOOL = IntegerType(1)
_INT32 = IntegerType(32)

_Reject = Reject


_T = TypeVar("_T")


def _given(value: _T | None) -> _T:
    """`value`, which must not be None."""
    if value is None:
        raise _Reject
    return value


_INFERRED: dict[tuple[Any, ...], Attribute | None] = {}
"""Recent inferences by operator, argument types and attributes: a graph
repeats a few signatures thousands of times (a conv2d layer's, a relu's)."""
_INFERRED_LIMIT = 4096
register(_INFERRED.clear)


def infer_type(
    operator: Operator, arg_types: Sequence[Attribute], attributes: Mapping[str, Attribute]
) -> Attribute | None:
    """The result type of a call of `operator` (its registry row), or None if
    the operator's relation rejects the call."""
    try:
        key = (operator, tuple(arg_types), tuple(attributes.items()))
        return _INFERRED[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable attribute: infer without the cache
        return _infer_type(operator, arg_types, attributes)
    result = _infer_type(operator, arg_types, attributes)
    if len(_INFERRED) >= _INFERRED_LIMIT:
        _INFERRED.clear()
    _INFERRED[key] = result
    return result


def _infer_type(
    operator: Operator, arg_types: Sequence[Attribute], attributes: Mapping[str, Attribute]
) -> Attribute | None:
    if operator.malformed(len(arg_types), attributes) is not None:
        return None
    try:
        return operator.infer(Call(operator.schema, arg_types, attributes))
    except (
        Reject,
        ArithmeticError,  # a zero stride or window, as TVM's division by zero
        ValueError,  # LayoutError and UnknownDTypeError among them
    ):
        # Malformed attributes fail like TVM's ICHECKs; the caller only needs
        # to know there is no type. Any other exception is a bug in the relation.
        return None


# ---------------------------------------------------------------------------
# Call view: arguments and attributes with TVM's defaults
# ---------------------------------------------------------------------------


class Call:
    """Typed access to one call's arguments and attributes."""

    def __init__(
        self,
        schema: Mapping[str, RelayAttr],
        arg_types: Sequence[Attribute],
        attributes: Mapping[str, Attribute],
        result_type: Attribute | None = None,
    ):
        self.schema = schema
        self.args = list(arg_types)
        self.attributes = attributes
        self.result_type = result_type
        """The call's result type where it is known (an interpreter kernel's call)."""

    def attr(self, name: str) -> Any:
        if name in self.attributes:
            return attr_value(self.attributes[name])
        spec = self.schema.get(name)
        return spec.default if spec is not None else None

    def integer(self, name: str) -> int:
        """An integer attribute, which must be set."""
        return int(_given(self.attr(name)))

    def ints(self, name: str) -> list[int]:
        """An integer-array attribute, which must be set."""
        return _given(self.optional_ints(name))

    def string(self, name: str) -> str:
        """A string attribute, which must be set."""
        return str(_given(self.attr(name)))

    def optional_ints(self, name: str) -> list[int] | None:
        """An integer-array attribute (a lone integer counts as one entry), or
        None where the attribute is None."""
        value = self.attr(name)
        if value is None:
            return None
        if isinstance(value, (tuple, list)):
            return [int(v) for v in value]
        return [int(value)]

    def dtype(self, name: str, default: Attribute | None = None) -> Attribute:
        """The element type named by a dtype attribute; "" means `default`."""
        value = self.attr(name)
        if not value:
            return _given(default)
        return dtypes.element_type(value)  # UnknownDTypeError is a ValueError

    def tensor(self, index: int) -> TensorType:
        type_ = self.args[index] if index < len(self.args) else None
        if not isinstance(type_, TensorType):
            raise _Reject
        return type_

    def shape(self, index: int = 0) -> list[int]:
        return _dims(self.tensor(index))

    def element(self, index: int = 0) -> Attribute:
        return self.tensor(index).get_element_type()

    def fields(self, index: int = 0) -> list[TensorType]:
        """The tensors of a tuple argument (concatenate, stack)."""
        type_ = self.args[index] if index < len(self.args) else None
        if not isinstance(type_, TupleType):
            raise _Reject
        fields = [f for f in type_.types.data if isinstance(f, TensorType)]
        _require(bool(fields) and len(fields) == len(type_.types.data))
        return fields


def _tensor(shape: Sequence[int], element: Attribute) -> TensorType:
    # A negative size means the attributes do not fit the input (a window
    # larger than the padded data, ...).
    _require(all(d >= 0 or d == ANY for d in shape))
    return tensor_type(element, shape)


# ---------------------------------------------------------------------------
# Elementwise and broadcasting operators
# ---------------------------------------------------------------------------


def same_type(call: Call) -> Attribute:
    """``IdentityRel``: the result has the type of the (first) argument."""
    return call.tensor(0)


def bool_like(call: Call) -> Attribute:
    """``IdentityCompRel``: the argument's shape with bool elements."""
    return _tensor(call.shape(0), _BOOL)


def _broadcast_binary(result_element: Attribute | None) -> Callable[[Call], Attribute]:
    def rule(call: Call) -> Attribute:
        _require(len(call.args) == 2)
        _require(
            call.element(0) == call.element(1),
            f"the arguments have different dtypes ({dtypes.dtype_name(call.element(0))} and "
            f"{dtypes.dtype_name(call.element(1))})",
        )
        element = result_element or call.element(0)
        return _tensor(_broadcast(call.shape(0), call.shape(1)), element)

    return rule


broadcast = _broadcast_binary(None)
"""``BroadcastRel``: two tensors of one element type, broadcast; that element type."""

broadcast_comparison = _broadcast_binary(_BOOL)
"""``BroadcastCompRel``: two tensors of one element type, broadcast; bool elements."""


def with_axis_check(call: Call) -> Attribute:
    """Softmax, reverse: identity once `axis` is in range."""
    _normalize_axis(call.integer("axis"), len(call.shape(0)))
    return call.tensor(0)


def cast(call: Call) -> Attribute:
    return _tensor(call.shape(0), call.dtype("dtype"))


def cast_like(call: Call) -> Attribute:
    return _tensor(call.shape(0), call.element(1))


def where(call: Call) -> Attribute:
    _require(call.element(1) == call.element(2))
    values = _broadcast(call.shape(1), call.shape(2))
    return _tensor(_broadcast(call.shape(0), values), call.element(1))


def full(call: Call) -> Attribute:
    shape = call.ints("shape")
    _require(call.shape(0) == [])  # a scalar fill value
    return _tensor(shape, call.dtype("dtype", call.element(0)))


def init(call: Call) -> Attribute:
    return _tensor(call.ints("shape"), call.dtype("dtype"))


def full_like(call: Call) -> Attribute:
    _require(call.shape(1) == [])
    return call.tensor(0)


def shape_of(call: Call) -> Attribute:
    """``ShapeOfRel``: the rank as a 1D shape; ``dtype`` unset is int32, the
    default of TVM's ``relay.shape_of``."""
    ndim = len(call.shape(0))
    return _tensor([ndim] if ndim else [], call.dtype("dtype", _INT32))


def bias_add(call: Call) -> Attribute:
    _normalize_axis(call.integer("axis"), len(call.shape(0)))
    return call.tensor(0)


# ---------------------------------------------------------------------------
# Convolution and pooling
# ---------------------------------------------------------------------------


def conv(spatial: str, transposed: bool) -> Callable[[Call], Attribute]:
    """``Conv{1,2,3}DRel`` and ``Conv{1,2,3}DTransposeRel``.

    Shapes are worked out in the canonical layouts ``NC<spatial>`` (data and
    result) and ``OI<spatial>`` (``IO<spatial>`` when transposed) for the
    weight. When both ``channels`` and ``kernel_size`` are set they decide
    the output channels and window; otherwise the weight's shape does.
    """
    nsp = len(spatial)
    data_canon = "NC" + spatial

    def rule(call: Call) -> Attribute:
        data_layout = call.attr("data_layout")
        kernel_layout = call.attr("kernel_layout")
        out_layout = call.attr("out_layout") or data_layout
        groups = call.integer("groups")
        _check_groups(groups)
        kernel_canon = ("IO" if transposed else "OI") + spatial
        if nsp == 2 and groups > 1 and "G" in kernel_layout:
            kernel_canon = "G" + kernel_canon  # DNNL's grouped weight layout
        data = convert_layout(call.shape(0), data_layout, data_canon)
        channels = call.attr("channels")
        kernel_size = call.optional_ints("kernel_size")
        if channels is not None and kernel_size is not None:
            from_weight = False
            _require(len(kernel_size) == nsp)
            _require(primal_axes(kernel_layout) == set(kernel_canon))
            out_channels, window = int(channels), kernel_size
        else:
            from_weight = True
            # TVM's weight-derived path is meaningless for G layouts.
            _require(not kernel_canon.startswith("G"))
            weight = convert_layout(call.shape(1), kernel_layout, kernel_canon)
            window = weight[2:]
            # The weight must agree with the attributes and the data.
            if transposed:
                in_channels, out_channels = weight[0], weight[1]
                expected_out = None if channels is None else int(channels) // groups
                _require(
                    not _known(data[1], in_channels) or data[1] == in_channels,
                    f"the data has {data[1]} input channels but the weight expects {in_channels}",
                )
            else:
                out_channels, in_channels = weight[0], weight[1]
                expected_out = channels
                _check_in_channels(data[1], in_channels, groups)
            if expected_out is not None:
                _require(
                    not _known(out_channels) or int(expected_out) == out_channels,
                    f"the weight has {out_channels} output channels but channels={channels}",
                )
            _require(
                all(a == b or not _known(a, b) for a, b in zip(kernel_size or (), window)),
                f"the weight's window is {_shape_text(window)} but kernel_size="
                f"{list(kernel_size or ())}",
            )
        dilation = call.ints("dilation")
        pads = _padding_totals(call.ints("padding"), nsp)
        dilated = [1 + (k - 1) * d if _known(k) else ANY for k, d in zip(window, dilation)]
        if transposed and nsp == 3 and from_weight:
            # TVM v0.19 swaps the H and W windows of a weight-derived
            # conv3d_transpose; follow it so results match its printer.
            dilated[1], dilated[2] = dilated[2], dilated[1]
        out = [data[0], out_channels] + [ANY] * nsp
        static = [i for i in range(nsp) if _known(data[2 + i], dilated[i])]
        if static:  # TVM reads strides and output_padding for static axes only
            strides = call.ints("strides")
            output_padding = call.ints("output_padding") if transposed else [0] * nsp
            for i in static:
                size = data[2 + i]
                if transposed:
                    out[2 + i] = strides[i] * (size - 1) + dilated[i] - pads[i] + output_padding[i]
                else:
                    out[2 + i] = (size + pads[i] - dilated[i]) // strides[i] + 1
        shape = convert_layout(out, data_canon, out_layout)
        return _tensor(shape, call.dtype("out_dtype", call.element(0)))

    return rule


def pool(spatial: str) -> Callable[[Call], Attribute]:
    """``Pool{1,2,3}DRel``: window/stride/dilation/padding on the spatial axes
    of `layout`; ``ceil_mode`` rounds the window count up."""
    nsp = len(spatial)

    def rule(call: Call) -> Attribute:
        shape = call.shape(0)
        layout = call.attr("layout")
        _check_rank(shape, layout)
        positions = [layout_index(layout, letter) for letter in spatial]
        pads = _padding_totals(call.ints("padding"), nsp)
        ceil_mode = bool(call.attr("ceil_mode"))
        out = list(shape)
        static = [(i, pos) for i, pos in enumerate(positions) if _known(shape[pos])]
        if static:  # TVM reads the window attributes for static axes only
            pool_size, strides = call.ints("pool_size"), call.ints("strides")
            dilation = call.ints("dilation")
            for i, pos in static:
                span = shape[pos] + pads[i] - ((pool_size[i] - 1) * dilation[i] + 1)
                if ceil_mode:
                    span += strides[i] - 1
                out[pos] = _trunc_div(span, strides[i]) + 1
        return _tensor(out, call.element(0))

    return rule


def _check_rank(shape: Sequence[int], layout: str) -> None:
    """The data has one axis per axis of its `layout`."""
    rank = len(parse_layout(layout))
    _require(len(shape) == rank, f"the data has rank {len(shape)} but {layout} has {rank} axes")


def global_pool(call: Call) -> Attribute:
    shape = call.shape(0)
    _check_rank(shape, call.attr("layout"))
    for letter in "HW":
        shape[layout_index(call.attr("layout"), letter)] = 1
    return _tensor(shape, call.element(0))


def adaptive_pool(spatial: str) -> Callable[[Call], Attribute]:
    """Output spatial size is ``output_size`` (one entry for all axes, or one
    per axis); an empty ``output_size`` keeps the input size."""

    def rule(call: Call) -> Attribute:
        shape = call.shape(0)
        sizes = call.attr("output_size") or ()
        _require(len(sizes) in (0, 1, len(spatial)))
        for i, letter in enumerate(spatial):
            pos = layout_index(call.attr("layout"), letter)
            if sizes:
                size = sizes[i] if len(sizes) > 1 else sizes[0]
                if size is not None:  # None keeps the input size
                    shape[pos] = int(size)
        return _tensor(shape, call.element(0))

    return rule


def resize(spatial: str) -> Callable[[Call], Attribute]:
    """``Resize{1,2,3}DRel``: the spatial axes become ``size``."""
    canon = "NC" + spatial

    def rule(call: Call) -> Attribute:
        size = call.ints("size")
        _require(len(size) == len(spatial))
        layout = call.attr("layout")
        shape = convert_layout(call.shape(0), layout, canon)
        shape[2:] = size
        return _tensor(
            convert_layout(shape, canon, layout),
            call.dtype("out_dtype", call.element(0)),
        )

    return rule


def crop_and_resize(call: Call) -> Attribute:
    crop = call.ints("crop_size")
    _require(len(crop) == 2)
    call.tensor(2)  # box indices
    layout = call.attr("layout")
    shape = convert_layout(call.shape(0), layout, "NCHW")
    shape[0] = call.shape(1)[0]  # one output image per box
    shape[2:] = crop
    return _tensor(convert_layout(shape, "NCHW", layout), call.dtype("out_dtype", call.element(0)))


def grid_sample(call: Call) -> Attribute:
    data, grid = call.shape(0), call.shape(1)
    _require(len(data) in (4, 5))
    canon = "NCHW" if len(data) == 4 else "NCDHW"
    layout = call.attr("layout")
    shape = convert_layout(data, layout, canon)
    shape[2:] = grid[2 : len(data)]
    return _tensor(convert_layout(shape, canon, layout), call.element(0))


def upsampling(spatial: str, scales: Sequence[str]) -> Callable[[Call], Attribute]:
    """Spatial axes scaled and rounded half to even (TVM folds ``round`` with
    ``nearbyint``)."""
    canon = "NC" + spatial

    def rule(call: Call) -> Attribute:
        layout = call.attr("layout")
        shape = convert_layout(call.shape(0), layout, canon)
        for i, scale in enumerate(scales):
            dim = shape[2 + i]
            factor = float(call.attr(scale))
            shape[2 + i] = round(dim * factor) if _known(dim) else ANY
        return _tensor(convert_layout(shape, canon, layout), call.element(0))

    return rule


def sub_pixel(to_space: bool) -> Callable[[Call], Attribute]:
    """depth_to_space / space_to_depth in any NCHW-convertible layout."""

    def rule(call: Call) -> Attribute:
        block = call.integer("block_size")
        layout = call.attr("layout")
        n, c, h, w = convert_layout(call.shape(0), layout, "NCHW")
        if to_space:  # channels shrink by block**2, H and W grow by block
            c, h, w = _div(c, block * block), _mul(h, block), _mul(w, block)
        else:
            c, h, w = _mul(c, block * block), _div(h, block), _div(w, block)
        shape = [n, c, h, w]
        return _tensor(convert_layout(shape, "NCHW", layout), call.element(0))

    return rule


# ---------------------------------------------------------------------------
# Dense layers and normalisation
# ---------------------------------------------------------------------------


def matmul(dense: bool) -> Callable[[Call], Attribute]:
    """``MatmulRel``: nn.dense is nn.matmul with transpose_b=True and no
    transpose flags of its own. ``units``, when set, is the output width."""

    def rule(call: Call) -> Attribute:
        a = call.shape(0)
        _require(len(a) >= 1)
        transpose_a = False if dense else bool(call.attr("transpose_a"))
        transpose_b = True if dense else bool(call.attr("transpose_b"))
        out = list(a)
        if transpose_a:
            out[-2] = a[-1]
        units = call.attr("units")
        if units is not None:
            out[-1] = int(units)
        else:
            b = call.shape(1)
            _require(len(b) == 2)
            out[-1] = b[0] if transpose_b else b[1]
        return _tensor(out, call.dtype("out_dtype", call.element(0)))

    return rule


def batch_matmul(call: Call) -> Attribute:
    x, y = call.shape(0), call.shape(1)
    _require(len(x) == 3 and len(y) == 3)
    ta, tb = bool(call.attr("transpose_a")), bool(call.attr("transpose_b"))
    xb, xi, xk = x[0], x[2 if ta else 1], x[1 if ta else 2]
    yb, yk, yj = y[0], y[2 if tb else 1], y[1 if tb else 2]
    if _known(*x, *y):
        _require(xb == yb or xb == 1 or yb == 1)
        _require(xk == yk)
    batch = max(xb, yb) if _known(xb, yb) else ANY
    return _tensor([batch, xi, yj], call.dtype("out_dtype", call.element(0)))


def batch_norm(call: Call) -> Attribute:
    shape = call.shape(0)
    axis = call.integer("axis")
    _require(-1 <= axis < len(shape))  # only -1 may count from the end
    channels = _tensor([shape[axis]], call.element(0))
    return TupleType(ArrayAttr((call.tensor(0), channels, channels)))


def norm(call: Call) -> Attribute:
    """layer/instance/group norm: same type as the data."""
    _normalize_axis(call.integer("axis"), len(call.shape(0)))
    return call.tensor(0)


def dropout(call: Call) -> Attribute:
    return TupleType(ArrayAttr((call.tensor(0), call.tensor(0))))


def batch_flatten(call: Call) -> Attribute:
    shape = call.shape(0)
    _require(len(shape) >= 1)
    rest = 1
    for dim in shape[1:]:
        if not _known(dim):
            rest = ANY
            break
        rest *= dim
    return _tensor([shape[0], rest], call.element(0))


def pad(mirror: bool) -> Callable[[Call], Attribute]:
    def rule(call: Call) -> Attribute:
        shape = call.shape(0)
        widths = call.attr("pad_width")
        _require(widths is not None and len(widths) == len(shape))
        out = []
        for dim, pair in zip(shape, widths):
            _require(len(pair) == 2)
            before, after = int(pair[0]), int(pair[1])
            _require(not mirror or (before >= 0 and after >= 0))
            out.append(dim + before + after if _known(dim) else ANY)
        return _tensor(out, call.element(0))

    return rule


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------


def _reduce(result_element: Attribute | None) -> Callable[[Call], Attribute]:
    def rule(call: Call) -> Attribute:
        shape = call.shape(0)
        _require(result_element is None or len(shape) > 0)
        out = _reduce_shape(
            shape,
            call.optional_ints("axis"),
            bool(call.attr("keepdims")),
            bool(call.attr("exclude")),
        )
        return _tensor(out, result_element or call.element(0))

    return rule


reduce = _reduce(None)
"""``ReduceRel``: `axis`, `keepdims` and `exclude` shape the result; element type kept."""

arg_reduce = _reduce(_INT32)
"""``ArgReduceRel``: as :data:`reduce`, with int32 indices; the data has a dimension."""


def variance(call: Call) -> Attribute:
    shape = call.shape(0)
    _require(len(shape) > 0 and len(call.shape(1)) == len(shape))
    return reduce(call)


# ---------------------------------------------------------------------------
# Shape manipulation
# ---------------------------------------------------------------------------


def expand_dims(call: Call) -> Attribute:
    shape = call.shape(0)
    axis, count = call.integer("axis"), call.integer("num_newaxis")
    _require(count >= 0 and -len(shape) - 1 <= axis <= len(shape))
    pivot = axis + len(shape) + 1 if axis < 0 else axis
    return _tensor(shape[:pivot] + [1] * count + shape[pivot:], call.element(0))


def squeeze(call: Call) -> Attribute:
    shape = call.shape(0)
    axis = call.optional_ints("axis")
    if axis is None:
        # Dropping every 1 needs every dimension known.
        _require(_known(*shape))
        return _tensor([d for d in shape if d != 1], call.element(0))
    dropped = {_normalize_axis(a, len(shape)) for a in axis}
    _require(all(shape[i] in (1, ANY) for i in dropped))
    out = [d for i, d in enumerate(shape) if i not in dropped]
    return _tensor(out, call.element(0))


def _reshape_dims(shape: Sequence[int], newshape: Sequence[int], allowzero: bool) -> list[int]:
    """TVM's ``InferNewShape``: 0 copies a dimension (unless allowzero), -1 is
    inferred, -2 copies the rest, -3 merges two dimensions, -4 splits one
    into the next two values (one of them may be -1)."""
    out: list[int] = []
    used_in: set[int] = set()  # input dims consumed by 0/-2/-3/-4
    used_out: set[int] = set()  # output dims those produced
    src = 0
    infer_at = -1
    i = 0
    while i < len(newshape):
        value = newshape[i]
        if value > 0 or (value == 0 and allowzero):
            out.append(value)
            src += 1
        elif value == 0:
            _require(src < len(shape))
            used_in.add(src)
            used_out.add(len(out))
            out.append(shape[src])
            src += 1
        elif value == -1:
            _require(infer_at < 0)
            infer_at = len(out)
            out.append(1)
            src += 1
        elif value == -2:
            while src < len(shape):
                used_in.add(src)
                used_out.add(len(out))
                out.append(shape[src])
                src += 1
        elif value == -3:
            _require(src + 1 < len(shape))
            used_in.update((src, src + 1))
            used_out.add(len(out))
            d1, d2 = shape[src], shape[src + 1]
            out.append(d1 * d2 if _known(d1, d2) else ANY)
            src += 2
        elif value == -4:
            _require(i + 2 < len(newshape) and src < len(shape))
            used_in.add(src)
            whole, d1, d2 = shape[src], newshape[i + 1], newshape[i + 2]
            _require(not (d1 == -1 and d2 == -1))
            if d1 == -1:
                d1 = whole // d2 if _known(whole) else ANY
            elif d2 == -1:
                d2 = whole // d1 if _known(whole) else ANY
            used_out.update((len(out), len(out) + 1))
            out += [d1, d2]
            src += 1
            i += 2
        else:
            raise _Reject
        i += 1
    if infer_at >= 0:
        rest = [d for j, d in enumerate(shape) if j not in used_in]
        others = [d for j, d in enumerate(out) if j not in used_out]
        if _known(*rest) and _known(*others):
            inferred = prod(rest)
            for d in others:
                inferred //= d
            out[infer_at] = inferred
        else:
            out[infer_at] = ANY
    return out


def reshape(call: Call) -> Attribute:
    shape = call.shape(0)
    newshape = call.ints("newshape")
    out = _reshape_dims(shape, newshape, bool(call.attr("allowzero")))
    if _known(*shape, *out):
        _require(prod(shape) == prod(out))
    return _tensor(out, call.element(0))


def reshape_like(call: Call) -> Attribute:
    lhs, rhs = call.shape(0), call.shape(1)

    def bound(name: str, default: int, ndim: int) -> int:
        value = call.attr(name)
        value = default if value is None else int(value)
        return value + ndim if value < 0 else value

    lhs_begin = bound("lhs_begin", 0, len(lhs))
    lhs_end = bound("lhs_end", len(lhs), len(lhs))
    rhs_begin = bound("rhs_begin", 0, len(rhs))
    rhs_end = bound("rhs_end", len(rhs), len(rhs))
    out = lhs[:lhs_begin] + rhs[rhs_begin:rhs_end] + lhs[lhs_end:]
    if _known(*lhs, *out):
        _require(prod(lhs) == prod(out))
    return _tensor(out, call.element(0))


def transpose(call: Call) -> Attribute:
    shape = call.shape(0)
    axes = call.optional_ints("axes")
    if not axes:
        order = list(range(len(shape)))[::-1]
    else:
        _require(len(axes) == len(shape))
        order = [_normalize_axis(a, len(shape)) for a in axes]
        _require(len(set(order)) == len(order))
    return _tensor([shape[i] for i in order], call.element(0))


def concatenate(call: Call) -> Attribute:
    fields = call.fields(0)
    shapes = [_dims(f) for f in fields]
    ndim = len(shapes[0])
    element = fields[0].get_element_type()
    _require(all(len(s) == ndim for s in shapes))
    _require(all(f.get_element_type() == element for f in fields))
    axis = _normalize_axis(call.integer("axis"), ndim)
    along = [s[axis] for s in shapes]
    out = []
    for i in range(ndim):
        if i == axis:
            out.append(sum(along) if _known(*along) else ANY)
            continue
        static = [s[i] for s in shapes if _known(s[i])]
        _require(len(set(static)) <= 1)
        if len(static) == len(shapes) or (static and not _known(*along)):
            out.append(static[0])
        else:
            # Partly unknown, and the concatenated axis is static: TVM
            # keeps it unknown rather than trusting the static inputs.
            out.append(ANY)
    return _tensor(out, element)


def stack(call: Call) -> Attribute:
    fields = call.fields(0)
    first = _dims(fields[0])
    ndim = len(first)
    element = fields[0].get_element_type()
    axis = call.integer("axis")
    _require(-(ndim + 1) <= axis < ndim + 1)
    axis = axis + ndim + 1 if axis < 0 else axis
    for field in fields:
        shape = _dims(field)
        _require(len(shape) == ndim and field.get_element_type() == element)
        _require(all(a == b or not _known(a, b) for a, b in zip(first, shape)))
    return _tensor(first[:axis] + [len(fields)] + first[axis:], element)


def split(call: Call) -> Attribute:
    shape = call.shape(0)
    _require(len(shape) > 0)
    axis = _normalize_axis(call.integer("axis"), len(shape))
    element = call.element(0)
    spec = call.attr("indices_or_sections")
    _require(spec is not None)
    dim = shape[axis]

    def part(size: int) -> TensorType:
        return _tensor(shape[:axis] + [size] + shape[axis + 1 :], element)

    if not isinstance(spec, (tuple, list)):
        sections = int(spec)
        _require(sections > 0 and (not _known(dim) or dim % sections == 0))
        return TupleType(ArrayAttr([part(_div(dim, sections))] * sections))
    parts, begin = [], 0
    for index in map(int, spec):
        _require(index > begin)  # strictly ascending
        parts.append(part(index - begin))
        begin = index
    _require(not _known(dim) or begin < dim)
    parts.append(part(dim - begin if _known(dim) else ANY))
    return TupleType(ArrayAttr(parts))


_INT64_MAX = 2**63 - 1


def _clamp_index(index: int, extent: int, stride: int) -> int:
    """TVM's ``CanonicalizeIndex``: wrap negatives, clamp into the axis."""
    low, high = (-1, extent - 1) if stride < 0 else (0, extent)
    if index < 0:
        index += extent
    return min(max(index, low), high)


def strided_slice(call: Call) -> Attribute:
    shape = call.shape(0)
    ndim = len(shape)
    begin = list(call.attr("begin") or ())
    end = list(call.attr("end") or ())
    strides = [int(s) for s in (call.attr("strides") or ())]
    axes = call.optional_ints("axes")
    size_mode = call.attr("slice_mode") == "size"
    if axes is not None:
        axes = [_normalize_axis(a, ndim) for a in axes]
        strides += [1] * (len(axes) - len(strides))
        _require(len(begin) == len(end) == len(strides) == len(axes))
    else:
        # Unlisted trailing axes are taken whole.
        axes = list(range(ndim))
        strides += [1] * (ndim - len(strides))
        begin += [0 if s > 0 else _INT64_MAX for s in strides[len(begin) :]]
        end += [0 if s < 0 else _INT64_MAX for s in strides[len(end) :]]
        _require(len(begin) == len(end) == len(strides) == ndim)
    if size_mode:
        strides = [1] * len(strides)  # "size" ignores strides
    out = list(shape)
    for ax, b, e, s in zip(axes, begin, end, strides):
        _require(s != 0)
        b = (0 if s > 0 else _INT64_MAX) if b is None else int(b)
        if e is None:
            e = 0 if s < 0 else _INT64_MAX
        elif size_mode:
            e = _INT64_MAX if int(e) < 0 else b + int(e)
        else:
            e = int(e)
        dim = shape[ax]
        if not _known(dim):
            out[ax] = ANY
            continue
        b, e = _clamp_index(b, dim, s), _clamp_index(e, dim, s)
        _require(e <= b if s < 0 else b <= e)
        out[ax] = -(-abs(e - b) // abs(s))
    return _tensor(out, call.element(0))


def slice_like(call: Call) -> Attribute:
    shape, target = call.shape(0), call.shape(1)
    axes = call.optional_ints("axes")
    if axes is None:
        chosen: Sequence[int] = range(min(len(shape), len(target)))
    else:
        _require(len(axes) > 0)
        chosen = [a + len(shape) if a < 0 else a for a in axes]
        _require(all(0 <= a < len(target) and a < len(shape) for a in chosen))
    out = list(shape)
    for i in chosen:
        _require(not _known(target[i], shape[i]) or target[i] <= shape[i])
        out[i] = target[i]
    return _tensor(out, call.element(0))


def take(call: Call) -> Attribute:
    data, indices = call.shape(0), call.shape(1)
    _require(isinstance(call.element(1), IntegerType))
    axis = call.attr("axis")
    if axis is None:  # indexes the flattened data
        return _tensor(indices, call.element(0))
    axis = _normalize_axis(int(axis), len(data))
    batch_dims = call.integer("batch_dims")
    if batch_dims < 0:  # (TVM v0.19 mistakenly shifts `axis` here instead)
        batch_dims += len(indices)
    _require(0 <= batch_dims <= len(indices) and batch_dims <= axis)
    out = data[:axis] + indices[batch_dims:] + data[axis + 1 :]
    return _tensor(out, call.element(0))


def gather(call: Call) -> Attribute:
    data, indices = call.shape(0), call.shape(1)
    _require(isinstance(call.element(1), IntegerType) and len(data) == len(indices))
    axis = _normalize_axis(call.integer("axis"), len(data))
    for i, (d, n) in enumerate(zip(data, indices)):
        if i == axis:
            _require(not _known(n) or n >= 1)
        else:
            _require(not _known(d, n) or d == n)
    return _tensor(indices, call.element(0))


def gather_nd(call: Call) -> Attribute:
    data, indices = call.shape(0), call.shape(1)
    _require(len(indices) >= 1 and _known(indices[0]) and indices[0] <= len(data))
    batch_dims = call.integer("batch_dims")
    out = indices[1:] + data[indices[0] + batch_dims :]
    return _tensor(out, call.element(0))


def tile(call: Call) -> Attribute:
    shape = call.shape(0)
    reps = call.ints("reps")
    _require(all(r > 0 for r in reps))
    ndim = max(len(shape), len(reps))
    shape = [1] * (ndim - len(shape)) + shape
    reps = [1] * (ndim - len(reps)) + reps
    out = [_mul(d, r) for d, r in zip(shape, reps)]
    return _tensor(out, call.element(0))


def repeat(call: Call) -> Attribute:
    shape = call.shape(0)
    repeats = call.integer("repeats")
    _require(repeats >= 1)
    axis = _normalize_axis(call.integer("axis"), len(shape))
    out = list(shape)
    out[axis] = _mul(shape[axis], repeats)
    return _tensor(out, call.element(0))


def _fits(shape: Sequence[int], target: Sequence[int]) -> bool:
    """Broadcasting `shape` to `target` gives `target` (unknowns match)."""
    merged = _broadcast(shape, target)
    return all(m == t or not _known(m, t) for m, t in zip(merged, target))


def broadcast_to(call: Call) -> Attribute:
    target = call.ints("shape")
    _require(_fits(call.shape(0), target))
    return _tensor(target, call.element(0))


def broadcast_to_like(call: Call) -> Attribute:
    _require(call.element(0) == call.element(1))
    _require(_fits(call.shape(0), call.shape(1)))
    return call.tensor(1)


def one_hot(call: Call) -> Attribute:
    indices = call.shape(0)
    depth, axis = call.integer("depth"), call.integer("axis")
    _require(depth > 0)
    axis = len(indices) if axis == -1 else axis
    _require(0 <= axis <= len(indices))
    out = indices[:axis] + [depth] + indices[axis:]
    return _tensor(out, call.dtype("dtype"))


def layout_transform(call: Call) -> Attribute:
    shape = convert_layout(call.shape(0), call.string("src_layout"), call.string("dst_layout"))
    return _tensor(shape, call.element(0))


# ---------------------------------------------------------------------------
# Sorting
# ---------------------------------------------------------------------------


def argsort(call: Call) -> Attribute:
    """Indices of ``dtype``; unset is int32, the default of TVM's ``relay.argsort``."""
    return _tensor(call.shape(0), call.dtype("dtype", _INT32))


def topk(call: Call) -> Attribute:
    shape = call.shape(0)
    axis = _normalize_axis(call.integer("axis"), len(shape))
    k = call.integer("k")
    out = list(shape)
    if k >= 1:  # k < 1 keeps the whole axis
        out[axis] = k
    kind = call.attr("ret_type")
    _require(kind in ("both", "values", "indices"))
    values = _tensor(out, call.element(0))
    if kind == "values":
        return values
    # ``dtype`` unset is int32, the default of TVM's ``relay.topk``.
    indices = _tensor(out, call.dtype("dtype", _INT32))
    return indices if kind == "indices" else TupleType(ArrayAttr((values, indices)))


# ---------------------------------------------------------------------------
# Relax-only operators (Relax's struct-info inference)
# ---------------------------------------------------------------------------


def _relax_broadcast(lhs: Sequence[int], rhs: Sequence[int]) -> list[int]:
    """Relax's ``InferBinaryBroadcastShape``: unlike Relay, an unknown
    dimension against a static one other than 1 stays unknown."""
    out = []
    for i in range(1, max(len(lhs), len(rhs)) + 1):
        a = lhs[-i] if i <= len(lhs) else 1
        b = rhs[-i] if i <= len(rhs) else 1
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        else:
            _require(not _known(a, b))
            out.append(ANY)
    return out[::-1]


def relax_matmul(call: Call) -> Attribute:
    """Relax ``matmul``: NumPy's ``matmul`` shapes; a 1-D operand gains a
    unit axis for the product and loses it in the result."""
    a, b = call.shape(0), call.shape(1)
    _require(len(a) >= 1 and len(b) >= 1)
    if call.attr("out_dtype"):
        element = call.dtype("out_dtype")
    else:  # Relax's binary-operator rule: both operands of one dtype
        _require(call.element(0) == call.element(1))
        element = call.element(0)
    lhs = [1, *a] if len(a) == 1 else a
    rhs = [*b, 1] if len(b) == 1 else b
    _require(not _known(lhs[-1], rhs[-2]) or lhs[-1] == rhs[-2])
    out = _relax_broadcast(lhs[:-2], rhs[:-2])
    if len(a) > 1:
        out.append(lhs[-2])
    if len(b) > 1:
        out.append(rhs[-1])
    return _tensor(out, element)


def relax_pad(call: Call) -> Attribute:
    """Relax ``nn.pad``: each axis grows by its (before, after) pair of the flat
    `pad_width`."""
    shape = call.shape(0)
    widths = call.ints("pad_width")
    _require(len(widths) == 2 * len(shape))
    out = [
        d if not _known(d) else d + widths[2 * i] + widths[2 * i + 1] for i, d in enumerate(shape)
    ]
    return _tensor(out, call.element(0))


def relax_arange(call: Call) -> Attribute:
    """Relax ``arange``: ``ceil((end - start) / step)`` elements (none if negative)."""
    start, end, step = (call.attr(name) for name in ("start", "end", "step"))
    _require(all(isinstance(v, int | float) for v in (start, end, step)) and step != 0)
    count = max(0, math.ceil((end - start) / step))
    return _tensor([count], call.dtype("dtype"))


def relax_strided_slice(call: Call) -> Attribute:
    """Relax ``strided_slice``: only the listed `axes` are sliced; absent
    `strides` are 1. Indices are clamped into the axis, unless
    `assume_inbound`: then they are taken as given, and the length is Relax's
    ``ceildiv(end - begin, stride)``, rounded as for a positive stride even
    when the stride is negative."""
    shape = call.shape(0)
    axes, begin, end = call.ints("axes"), call.ints("begin"), call.ints("end")
    strides = call.optional_ints("strides") or [1] * len(axes)
    _require(len(begin) == len(end) == len(strides) == len(axes))
    inbound = bool(call.attr("assume_inbound"))
    out = list(shape)
    for axis, b, e, s in zip(axes, begin, end, strides):
        axis = _normalize_axis(axis, len(shape))
        _require(s != 0)
        dim = shape[axis]
        if inbound:
            out[axis] = (e - b + s - 1) // s
        elif not _known(dim):
            out[axis] = ANY
        else:
            b, e = _clamp_index(b, dim, s), _clamp_index(e, dim, s)
            out[axis] = -((b - e) // s) if s > 0 else -((e - b) // -s)
    return _tensor(out, call.element(0))
