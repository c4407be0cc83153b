"""What the compositions share: attribute access, static types and axes."""

from __future__ import annotations

from typing import Any

import numpy as np
import tvm
from tvm import relax
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.exporters.relax_compositions.registry import RelaxExportError


def call_of(op: RegisteredOperatorOp) -> Call:
    """`op`'s attributes (with TVM's defaults) and types, as the kernels see them."""
    return Call(op.OPERATOR.schema, [a.type for a in op.args], op.attributes, op.result.type)


def tensor_type(type_: Attribute, op: RegisteredOperatorOp) -> TensorType:
    if not isinstance(type_, TensorType):
        raise RelaxExportError(f"'{op.operator_name}': {type_} is not a tensor type")
    return type_


def static_shape(type_: Attribute, op: RegisteredOperatorOp) -> list[int]:
    """The dimensions of tensor type `type_`, which must all be known."""
    shape = list(tensor_type(type_, op).get_shape())
    if DYNAMIC_INDEX in shape:
        raise RelaxExportError(f"'{op.operator_name}' exports to Relax only with static shapes")
    return shape


def result_shape(op: RegisteredOperatorOp) -> list[int]:
    return static_shape(op.result.type, op)


def dtype_of(type_: Attribute, op: RegisteredOperatorOp) -> str:
    """The dtype name (``float32``) of tensor type `type_`."""
    return dtypes.dtype_name(tensor_type(type_, op).element_type)


def result_dtype(op: RegisteredOperatorOp) -> str:
    return dtype_of(op.result.type, op)


def rank(op: RegisteredOperatorOp, index: int = 0) -> int:
    return tensor_type(op.args[index].type, op).get_num_dims()


def is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat"))


def scalar(value: float, dtype: str) -> Any:
    """A Relax scalar constant."""
    return relax.const(np.asarray(value).astype(dtypes.NUMPY_DTYPES.get(dtype, dtype)), dtype)


def constant_value(expr: Any) -> np.ndarray | None:
    """The value of `expr` if it is a Relax constant, else None."""
    if isinstance(expr, tvm.ir.GenericConst):
        return expr.value.numpy()
    return None


def layout_axes(layout: str, letters: str) -> list[int]:
    """The positions of the primal axes `letters` (``"HW"``) in `layout` (``"NCHW"``)."""
    missing = [c for c in letters if c not in layout]
    if missing:
        raise RelaxExportError(f"layout '{layout}' has no axis {', '.join(missing)}")
    return [layout.index(c) for c in letters]


def pad_pairs(pad_width: Any) -> tuple[list[int], list[int]]:
    """Relay's ``pad_width`` (one ``(before, after)`` pair per axis) as two lists."""
    pairs = [list(p) for p in pad_width]
    return [int(p[0]) for p in pairs], [int(p[1]) for p in pairs]
