"""Kernels of the dynamic operators (``dyn.*``): their static counterparts'.

A dynamic call reads its shape-like arguments (a shape, bounds, a count, a
scale) as values, and runs the kernel of the static operator with those as
the attributes the static operator takes: ``dyn.reshape(%x, %s)`` runs
``reshape`` with ``newshape`` the contents of ``%s``, the result type that
of the static relation for the actual shapes. The semantics are therefore
exactly the static operators' (see their kernels); ``dyn.sparse_to_dense``,
which has no static counterpart in the dialect, is topi's: the default
value everywhere, the values written at the sparse indices (a row of a 2D
index tensor is one coordinate).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.attributes import stored
from relay_xdsl.dialects.relay.inference import Call, Reject
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.registry import KERNELS, kernel


def _static(call: Call, operator: str, arguments: dict[int, np.ndarray], **values: Any) -> Any:
    """The kernel of static `operator` on the dynamic call's arguments
    `arguments` (by position in the dynamic call), with the dynamic call's
    attributes that `operator` takes and `values` as attributes."""
    row = relay.OPERATORS[operator].OPERATOR
    attributes = {k: v for k, v in call.attributes.items() if k in row.schema}
    attributes |= {k: stored(v) for k, v in values.items()}
    types = []
    for index, array in arguments.items():
        declared = call.args[index]
        assert isinstance(declared, TensorType)
        types.append(TensorType(declared.get_element_type(), array.shape))
    try:
        result_type = row.infer(Call(row.schema, types, attributes))
    except (Reject, ValueError) as error:
        raise InterpreterError(f"{operator} rejects the values {values}: {error}") from None
    static_kernel = KERNELS.get(operator)
    assert static_kernel is not None, operator
    return static_kernel(Call(row.schema, types, attributes, result_type), *arguments.values())


def _ints(array: np.ndarray) -> list[int]:
    return [int(v) for v in np.ravel(array)]


def _int(array: np.ndarray) -> int:
    return int(np.ravel(array)[0])


def _float(array: np.ndarray) -> float:
    return float(np.ravel(array)[0])


@kernel("dyn.reshape")
def reshape(call: Call, x: np.ndarray, shape: np.ndarray) -> np.ndarray:
    return _static(call, "reshape", {0: x}, newshape=_ints(shape))


@kernel("dyn.broadcast_to")
def broadcast_to(call: Call, x: np.ndarray, shape: np.ndarray) -> np.ndarray:
    return _static(call, "broadcast_to", {0: x}, shape=_ints(shape))


@kernel("dyn.full")
def full(call: Call, fill_value: np.ndarray, shape: np.ndarray) -> np.ndarray:
    return _static(call, "full", {0: fill_value}, shape=_ints(shape))


@kernel("dyn.zeros")
def zeros(call: Call, shape: np.ndarray) -> np.ndarray:
    return _static(call, "zeros", {}, shape=_ints(shape))


@kernel("dyn.ones")
def ones(call: Call, shape: np.ndarray) -> np.ndarray:
    return _static(call, "ones", {}, shape=_ints(shape))


@kernel("dyn.tile")
def tile(call: Call, x: np.ndarray, reps: np.ndarray) -> np.ndarray:
    return _static(call, "tile", {0: x}, reps=_ints(reps))


@kernel("dyn.strided_slice")
def strided_slice(
    call: Call, x: np.ndarray, begin: np.ndarray, end: np.ndarray, strides: np.ndarray
) -> np.ndarray:
    return _static(
        call,
        "strided_slice",
        {0: x},
        begin=_ints(begin),
        end=_ints(end),
        strides=_ints(strides),
    )


@kernel("dyn.squeeze")
def squeeze(call: Call, x: np.ndarray, axes: np.ndarray) -> np.ndarray:
    return _static(call, "squeeze", {0: x}, axis=_ints(axes))


@kernel("dyn.expand_dims")
def expand_dims(call: Call, x: np.ndarray, axis: np.ndarray) -> np.ndarray:
    return _static(call, "expand_dims", {0: x}, axis=_int(axis))


@kernel("dyn.topk")
def topk(call: Call, x: np.ndarray, k: np.ndarray) -> Any:
    return _static(call, "topk", {0: x}, k=_int(k))


@kernel("dyn.one_hot")
def one_hot(
    call: Call, indices: np.ndarray, on_value: np.ndarray, off_value: np.ndarray, depth: np.ndarray
) -> np.ndarray:
    arguments = {0: indices, 1: on_value, 2: off_value}
    return _static(call, "one_hot", arguments, depth=_int(depth))


@kernel("dyn.nn.pad")
def pad(call: Call, x: np.ndarray, pad_width: np.ndarray, pad_value: np.ndarray) -> np.ndarray:
    widths = [_ints(row) for row in pad_width]
    return _static(call, "nn.pad", {0: x, 2: pad_value}, pad_width=widths)


@kernel("dyn.nn.upsampling")
def upsampling(call: Call, x: np.ndarray, scale_h: np.ndarray, scale_w: np.ndarray) -> np.ndarray:
    scales = {"scale_h": _float(scale_h), "scale_w": _float(scale_w)}
    return _static(call, "nn.upsampling", {0: x}, **scales)


@kernel("dyn.nn.upsampling3d")
def upsampling3d(
    call: Call, x: np.ndarray, scale_d: np.ndarray, scale_h: np.ndarray, scale_w: np.ndarray
) -> np.ndarray:
    scales = {"scale_d": _float(scale_d), "scale_h": _float(scale_h), "scale_w": _float(scale_w)}
    return _static(call, "nn.upsampling3d", {0: x}, **scales)


@kernel("dyn.image.resize2d")
def resize2d(call: Call, x: np.ndarray, size: np.ndarray, roi: np.ndarray) -> np.ndarray:
    roi_values = [float(v) for v in np.ravel(roi)]
    return _static(call, "image.resize2d", {0: x}, size=_ints(size), roi=roi_values)


@kernel("dyn.sparse_to_dense")
def sparse_to_dense(
    call: Call,
    indices: np.ndarray,
    values: np.ndarray,
    default_value: np.ndarray,
    output_shape: np.ndarray,
) -> np.ndarray:
    """The default value everywhere but at the indices, which take the values."""
    out = np.full(_ints(output_shape), default_value, dtype=values.dtype)
    coordinates = indices.reshape(-1, 1) if indices.ndim < 2 else indices
    if coordinates.shape[1] != out.ndim:
        raise InterpreterError(
            f"sparse indices of {coordinates.shape[1]} coordinates for a tensor of rank {out.ndim}"
        )
    if np.any(coordinates < 0) or np.any(coordinates >= np.array(out.shape)):
        raise InterpreterError("a sparse index is out of bounds")
    out[tuple(coordinates.T)] = values.reshape(-1) if values.ndim else values
    return out
