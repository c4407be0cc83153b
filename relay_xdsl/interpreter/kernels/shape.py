"""Kernels of the shape manipulation operators, and of repetition, reversal,
broadcasting and layout changes.

Shapes computed from attributes (``reshape`` with TVM's special values
0/-1/-2/-3/-4, ``expand_dims``, ``squeeze``, ``broadcast_to``,
``reshape_like``, ``slice_like``) are the call's result type, or, where it
is dynamic, what the operator's type relation gives for the actual shapes:
the relation is the one statement of those rules. Further semantics (TVM
v0.19's topi):

* ``transpose`` with no ``axes`` reverses the dimensions;
* ``split`` at equal sections (an integer) or at indices (a list), as numpy;
* ``strided_slice`` canonicalises each bound as TVM's ``CanonicalizeIndex``
  (negative: from the end; clamped to [0, n] for a positive stride, to
  [-1, n-1] for a negative one); missing ``begin``/``end``/``strides``
  entries take the whole axis (for a negative stride the missing ``end`` is
  0, exclusive, as in TVM); with ``axes`` only those axes are sliced; in
  ``slice_mode="size"`` the ends are sizes (-1: to the end) and strides are 1;
* ``layout_transform`` between layouts of the same primal axes, blocked
  ones (``NCHW4c``) included; an axis blocked by a factor that does not
  divide it is padded with zeros, as TVM's transform reads out of bounds.
"""

from __future__ import annotations

import numpy as np

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.layouts import parse_layout
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.kernels.common import axis as normal_axis
from relay_xdsl.interpreter.kernels.common import output_shape, result_dtype, result_shape
from relay_xdsl.interpreter.registry import kernel

_INT64_MAX = 2**63 - 1


@kernel("squeeze")
def squeeze(call: Call, x: np.ndarray) -> np.ndarray:
    return np.reshape(x, output_shape(call, inference.squeeze, x))


@kernel("expand_dims")
def expand_dims(call: Call, x: np.ndarray) -> np.ndarray:
    return np.reshape(x, output_shape(call, inference.expand_dims, x))


@kernel("reshape")
def reshape(call: Call, x: np.ndarray) -> np.ndarray:
    """To ``newshape``, whose special values 0, -1, -2, -3 and -4 the type relation resolves."""
    return np.reshape(x, output_shape(call, inference.reshape, x))


@kernel("reshape_like")
def reshape_like(call: Call, x: np.ndarray, like: np.ndarray) -> np.ndarray:
    return np.reshape(x, output_shape(call, inference.reshape_like, x, like))


@kernel("transpose")
def transpose(call: Call, x: np.ndarray) -> np.ndarray:
    axes = call.optional_ints("axes")
    if not axes:
        return np.transpose(x)
    return np.transpose(x, [normal_axis(a, x.ndim) for a in axes])


@kernel("concatenate")
def concatenate(call: Call, xs: tuple[np.ndarray, ...]) -> np.ndarray:
    return np.concatenate(xs, axis=normal_axis(call.integer("axis"), xs[0].ndim))


@kernel("stack")
def stack(call: Call, xs: tuple[np.ndarray, ...]) -> np.ndarray:
    return np.stack(xs, axis=normal_axis(call.integer("axis"), xs[0].ndim + 1))


@kernel("split")
def split(call: Call, x: np.ndarray) -> tuple[np.ndarray, ...]:
    """Equal sections (an integer) or pieces between indices (a list), along ``axis``."""
    axis = normal_axis(call.integer("axis"), x.ndim)
    sections = call.attr("indices_or_sections")
    if isinstance(sections, (list, tuple)):
        return tuple(np.split(x, [int(i) for i in sections], axis=axis))
    return tuple(np.split(x, int(sections), axis=axis))


def _canonical(index: int, extent: int, stride: int) -> int:
    """TVM's ``CanonicalizeIndex``."""
    low, high = (-1, extent - 1) if stride < 0 else (0, extent)
    if index < 0:
        index += extent
    return min(max(index, low), high)


def slice_of(begin: int, end: int, stride: int, extent: int) -> slice:
    """The Python slice of `begin:end:stride` on an axis of `extent`, bounds canonical as TVM's."""
    if stride == 0:
        raise InterpreterError("a stride of 0")
    start, stop = _canonical(begin, extent, stride), _canonical(end, extent, stride)
    return slice(start, None if stop < 0 else stop, stride)


def strided_slices(call: Call, shape: tuple[int, ...] | list[int]) -> list[slice]:
    """The Python slice of each axis of a ``strided_slice`` call on data of `shape`."""
    rank = len(shape)
    begin, end = call.ints("begin"), call.ints("end")
    strides = call.optional_ints("strides") or []
    size_mode = call.attr("slice_mode") == "size"
    listed = call.optional_ints("axes")
    axes = [normal_axis(a, rank) for a in listed] if listed else list(range(rank))
    index = [slice(None)] * rank
    for i, axis in enumerate(axes):
        stride = 1 if size_mode or i >= len(strides) else strides[i]
        start = begin[i] if i < len(begin) else (0 if stride > 0 else _INT64_MAX)
        if i >= len(end):
            stop = 0 if stride < 0 else _INT64_MAX
        elif size_mode:
            stop = _INT64_MAX if end[i] < 0 else start + end[i]
        else:
            stop = end[i]
        index[axis] = slice_of(start, stop, stride, shape[axis])
    return index


@kernel("strided_slice")
def strided_slice(call: Call, x: np.ndarray) -> np.ndarray:
    """``x[begin:end:strides]`` with TVM's canonical bounds (module docstring)."""
    return x[tuple(strided_slices(call, x.shape))]


@kernel("slice_like")
def slice_like(call: Call, x: np.ndarray, like: np.ndarray) -> np.ndarray:
    shape = output_shape(call, inference.slice_like, x, like)
    return x[tuple(slice(0, n) for n in shape)]


@kernel("tile")
def tile(call: Call, x: np.ndarray) -> np.ndarray:
    return np.tile(x, call.ints("reps"))


@kernel("repeat")
def repeat(call: Call, x: np.ndarray) -> np.ndarray:
    return np.repeat(x, call.integer("repeats"), axis=normal_axis(call.integer("axis"), x.ndim))


@kernel("reverse")
def reverse(call: Call, x: np.ndarray) -> np.ndarray:
    return np.flip(x, normal_axis(call.integer("axis"), x.ndim))


@kernel("broadcast_to")
def broadcast_to(call: Call, x: np.ndarray) -> np.ndarray:
    return np.broadcast_to(x, output_shape(call, inference.broadcast_to, x)).copy()


@kernel("broadcast_to_like")
def broadcast_to_like(call: Call, x: np.ndarray, like: np.ndarray) -> np.ndarray:
    return np.broadcast_to(x, like.shape).copy()


@kernel("shape_of", "vm.shape_of")
def shape_of(call: Call, x: np.ndarray) -> np.ndarray:
    return np.asarray(x.shape, result_dtype(call))


@kernel("layout_transform")
def layout_transform(call: Call, x: np.ndarray) -> np.ndarray:
    """From ``src_layout`` to ``dst_layout``: unblock into the primal axes, then block again."""
    src, dst = parse_layout(call.attr("src_layout")), parse_layout(call.attr("dst_layout"))
    if len(src) != x.ndim:
        raise InterpreterError(f"layout {call.attr('src_layout')} does not fit rank {x.ndim}")
    primal = [letter for letter, block in src if not block]
    if sorted(primal) != sorted(letter for letter, block in dst if not block):
        raise InterpreterError("the layouts have different primal axes")
    # Unblock: each primal axis followed by its sub-axis, then merged.
    order, merged = [], []
    for letter in primal:
        outer = next(i for i, (a, b) in enumerate(src) if a == letter and not b)
        inner = [i for i, (a, b) in enumerate(src) if a == letter.lower() and b]
        order += [outer, *inner]
        merged.append(int(np.prod([x.shape[i] for i in (outer, *inner)])))
    full = np.transpose(x, order).reshape(merged)
    # Block: split each primal axis blocked in dst, padding it to a multiple of its block.
    blocks = {a.upper(): b for a, b in dst if b}
    shape: list[int] = []
    positions: dict[str, int] = {}
    for i, letter in enumerate(primal):
        block = blocks.get(letter)
        if block:
            padded = -(-full.shape[i] // block) * block
            if padded != full.shape[i]:
                widths = [(0, 0)] * full.ndim
                widths[i] = (0, padded - full.shape[i])
                full = np.pad(full, widths)
            positions[letter], positions[letter.lower()] = len(shape), len(shape) + 1
            shape += [padded // block, block]
        else:
            positions[letter] = len(shape)
            shape.append(full.shape[i])
    return np.transpose(full.reshape(shape), [positions[a] for a, _ in dst])


@kernel("vm.reshape_tensor")
def reshape_tensor(call: Call, x: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """The VM's ``reshape_tensor``: `x` with the result's shape (``newshape``;
    the shape tensor carries the same values at run time)."""
    return np.reshape(x, result_shape(call))
