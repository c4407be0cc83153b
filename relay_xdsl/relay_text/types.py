"""Relay's spelling of the dialect's types: ``Tensor[(1, 3), float32]``, ``(T1, T2)``.

Shared by the printer, the parser's messages and the pattern language's ``has_type``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, FunctionType, TensorType, TupleType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, RefType, TypeVarType
from relay_xdsl.support.memo import memoised, memoised_by_identity


class RelayExportError(ValueError):
    """The module holds something Relay text cannot express."""


@memoised_by_identity(maxsize=4096)
def relay_type(type_: Attribute) -> str:
    """A type in Relay syntax: ``Tensor[(1, 3), float32]``, ``float32``, ``(T1, T2)``,
    ``fn (T1) -> R``, ``_`` (unknown), ``A`` (a type parameter), ``ref(T)``, ``List[A]``.

    Memoised: a module spells the same few types thousands of times, mostly
    as the very same objects (the importer makes one per spelling), which
    are looked up by identity before hashing their structure; a tensor type
    is spelled outright then, which costs less than hashing it.
    """
    return _tensor_type(type_) if type(type_) is TensorType else _relay_type(type_)


_dtype_name = memoised_by_identity(maxsize=256)(dtypes.dtype_name)
"""`dtypes.dtype_name` by the element type's identity: finding a float type
among the names hashes and compares it by value, in Python."""


def _tensor_type(type_: TensorType) -> str:
    shape = type_.get_shape()
    try:
        dtype = _dtype_name(type_.element_type)
    except dtypes.UnknownDTypeError as error:
        raise RelayExportError(str(error)) from None
    if not shape:
        return dtype
    dims = ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape)
    return f"Tensor[({dims}), {dtype}]"


@memoised(maxsize=1024)
def _relay_type(type_: Attribute) -> str:
    if isinstance(type_, TensorType):
        return _tensor_type(type_)
    if isinstance(type_, TupleType):
        fields = [relay_type(t) for t in type_.types.data]
        return "(" + ", ".join(fields) + ("," if len(fields) == 1 else "") + ")"
    if isinstance(type_, FunctionType) and len(type_.outputs) == 1:
        inputs = ", ".join(relay_type(t) for t in type_.inputs.data)
        return f"fn ({inputs}) -> {relay_type(type_.outputs.data[0])}"
    if isinstance(type_, IncompleteType):
        return "_"
    if isinstance(type_, TypeVarType):
        return type_.var_name.data
    if isinstance(type_, AdtType):
        args = [relay_type(t) for t in type_.args.data]
        return type_.type_name.data + (f"[{', '.join(args)}]" if args else "")
    if isinstance(type_, RefType):
        # TVM's printer spells it so; its parser reads no reference types.
        return f"ref({relay_type(type_.value_type)})"
    raise RelayExportError(f"type {type_} has no Relay equivalent")
