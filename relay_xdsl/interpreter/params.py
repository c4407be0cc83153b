"""A model's weights from a file, given to the module: ``--params FILE``.

`read_params` reads named arrays from either of two formats, told apart by
their first bytes:

* TVM's ``relay.save_param_dict`` / ``tvm.runtime.save_param_dict``
  (``.params``), read without TVM. Little-endian::

      u64 magic 0xF7E58D4F05049CB7, u64 reserved,
      u64 count, count × (u64 length, UTF-8 name),
      u64 count, count × NDArray

  each NDArray as in a ``#[metadata]`` section (the header checked by
  :func:`relay_xdsl.relay_text.metadata.ndarray_header`: magic
  0xDD5E40F096B4A13F, reserved, device, rank, dtype, shape, byte count,
  then the data); bools as TVM 0.19 writes them (uint1, a byte each) or as
  TVM ≥ 0.20 does (DLPack's bool);
* numpy's ``.npz`` (``numpy.savez``), each array's header checked before it
  is read.

Every size is checked before anything is allocated: against the bytes the
file holds, and against the machine's memory.

`bind_params` gives each array to what its name names:

* ``NAME`` (or ``%NAME``): the parameter ``%NAME`` of the function (``main``),
  as TVM's ``bind_params_by_name`` does: the parameter becomes a constant
  of that value, and the function takes one parameter fewer (TVM's
  frontends return a model's weights as such parameters, with these names);
* ``meta[relay.Constant][i]``: the constant known only by that reference
  (a text printed without its ``#[metadata]`` section), which gets the value.
  A constant whose type nothing in the text determines (TVM's frontends print
  some without a type, e.g. an embedding table read only by ``take``) takes
  the array's, and the module's types are solved again.

A name that names neither, an array of another shape or dtype than its
parameter or constant, and an array too large for the machine are
`InterpreterError` s that name the array.
"""

from __future__ import annotations

import math
import mmap
import re
import struct
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.dialects.relay.type_solver import infer_types
from relay_xdsl.interpreter.arrays import (
    check_memory,
    dense_value,
    describe,
    fits,
    give_value,
    tensor_dtype,
)
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.runner import function_named
from relay_xdsl.relay_text.metadata import MetadataError, ndarray_header

PARAMS_MAGIC = 0xF7E58D4F05049CB7
"""The first 8 bytes of a ``save_param_dict`` file (``kTVMNDArrayListMagic``)."""
_ZIP_MAGIC = b"PK\x03\x04"
META_NAME = re.compile(r"meta\[relay\.Constant\]\[(\d+)\]")
"""The name that gives the value of ``meta[relay.Constant][i]``."""


def read_params(path: str | Path) -> dict[str, np.ndarray]:
    """The named arrays of the ``save_param_dict`` or ``.npz`` file `path`, in its order."""
    path = Path(path)
    try:
        with open(path, "rb") as file:
            start = file.read(8)
            if start[:4] == _ZIP_MAGIC:
                return _read_npz(path)
            if len(start) == 8 and struct.unpack("<Q", start)[0] == PARAMS_MAGIC:
                data = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
                return _read_tvm_params(memoryview(data), path)
    except OSError as error:
        raise InterpreterError(f"cannot read {path}: {error.strerror or error}") from None
    raise InterpreterError(
        f"{path} is neither a TVM params file (save_param_dict) nor an .npz archive"
    )


def _read_tvm_params(data: memoryview, path: Path) -> dict[str, np.ndarray]:
    """The arrays of a ``save_param_dict`` file (see the module docstring), as
    views of `data`: nothing is copied."""
    offset = 16  # magic, reserved

    def u64(what: str) -> int:
        nonlocal offset
        if offset + 8 > len(data):
            raise InterpreterError(f"{path} is truncated: it ends before {what}")
        (value,) = struct.unpack_from("<Q", data, offset)
        offset += 8
        return value

    count = u64("the number of names")
    if count * 8 > len(data) - offset:
        raise InterpreterError(f"{path} declares {count} names, more than it can hold")
    names = []
    for position in range(count):
        length = u64(f"name {position}")
        if length > len(data) - offset:
            raise InterpreterError(f"{path} is truncated: name {position} has {length} bytes")
        try:
            names.append(bytes(data[offset : offset + length]).decode("utf-8"))
        except UnicodeDecodeError:
            raise InterpreterError(f"{path}: name {position} is not UTF-8") from None
        offset += length
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise InterpreterError(f"{path} holds two arrays named {twice}")
    arrays = u64("the number of arrays")
    if arrays != count:
        raise InterpreterError(f"{path} holds {count} names but {arrays} arrays")
    values = {}
    for name in names:
        start = offset

        def read(size: int, start: int = start) -> bytes:
            return bytes(data[start : start + size])

        try:
            header = ndarray_header(read, len(data) - start)
        except MetadataError as error:
            raise InterpreterError(f"{path}: array {name}: {error.message}") from None
        try:
            dtype = tensor_dtype(header.type)
        except InterpreterError as error:
            raise InterpreterError(f"{path}: array {name}: {error}") from None
        shape = tuple(header.type.get_shape())
        raw = np.frombuffer(
            data,
            np.uint8 if dtype == np.bool_ else dtype,
            count=math.prod(shape),
            offset=start + header.size,
        )
        values[name] = (raw != 0 if dtype == np.bool_ else raw).reshape(shape)
        offset = start + header.size + header.byte_count
    if offset != len(data):
        raise InterpreterError(f"{path} has {len(data) - offset} bytes after its last array")
    return values


def _read_npz(path: Path) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive, each header checked before its data is read."""
    values = {}
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                name = info.filename.removesuffix(".npy")
                with archive.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    read_header = (
                        np.lib.format.read_array_header_1_0
                        if version == (1, 0)
                        else np.lib.format.read_array_header_2_0
                    )
                    shape, _, dtype = read_header(member)
                    available = info.file_size - member.tell()
                if dtype.hasobject:
                    raise InterpreterError(f"{path}: array {name} holds Python objects")
                type_ = _tensor_type(f"{path}: array {name}", dtype, shape)
                size = math.prod(shape) * dtype.itemsize
                if size > available:
                    raise InterpreterError(
                        f"{path}: array {name} declares {size} bytes ({describe(type_)}) "
                        f"but holds {available}"
                    )
                check_memory([(f"{path}: array {name}", type_)], str(path))
                with archive.open(info) as member:
                    values[name] = np.lib.format.read_array(member, allow_pickle=False)
    except (zipfile.BadZipFile, ValueError, EOFError) as error:
        raise InterpreterError(f"{path} is not a valid .npz archive ({error})") from None
    return values


def bind_params(module: ModuleOp, arrays: Mapping[str, np.ndarray], function: str = "main") -> None:
    """Give each array to the parameter of @`function` or the constant its
    name names (see the module docstring), after checking all of them."""
    func = function_named(module, function)
    parameters = {relay_name(arg) or f"arg{arg.index}": arg for arg in func.body.block.args}
    constants = constants_without_values(module)
    untyped = _untyped_constants(module)
    targets: list[tuple[str, np.ndarray, TensorType, BlockArgument | int]] = []
    unknown = []
    for name, array in arrays.items():
        match = META_NAME.fullmatch(name)
        target: BlockArgument | int | None
        type_: Attribute | None
        if match:
            target, what = int(match[1]), name
            if target in untyped:
                type_ = _tensor_type(name, array.dtype, array.shape)
                constants[target] = type_
            type_ = constants.get(target)
        else:
            target = parameters.get(name.removeprefix("%"))
            what = f"the parameter %{name.removeprefix('%')}"
            type_ = None if target is None else target.type
        if target is None or (isinstance(target, int) and target not in constants):
            unknown.append(name)
            continue
        if not isinstance(type_, TensorType):
            raise InterpreterError(f"{name}: {what} is not a tensor ({type_})")
        if not fits(array, type_):
            comma = "," if array.ndim == 1 else ""
            raise InterpreterError(
                f"{name} is ({', '.join(map(str, array.shape))}{comma}) {array.dtype}, "
                f"{what} is {describe(type_)}"
            )
        targets.append((name, array, type_, target))
    if unknown:
        names = ", ".join(f"%{n}" for n in parameters) or "none"
        raise InterpreterError(
            f"{', '.join(unknown)}: not a parameter of @{function} (its parameters: {names}) "
            f"nor a constant meta[relay.Constant][i] without a value "
            f"({_indices_text(sorted(constants.keys() | untyped)) or 'there are none'})"
        )
    check_memory(((name, type_) for name, _, type_, _ in targets), "the params")
    given = {target: array for _, array, _, target in targets if isinstance(target, int)}
    for op in list(module.walk()):
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None:
            index = op.meta_index.value.data
            value = given.get(index)
            if value is not None:
                if index in untyped:
                    Rewriter.replace_value_with_new_type(op.result, constants[index])
                give_value(op, value)
    if untyped & given.keys():
        infer_types(module, strict=False)
    for _, array, type_, target in targets:
        if isinstance(target, BlockArgument):
            constant = relay.ConstantOp(type_, value=dense_value(array, type_))
            block = func.body.block
            assert block.first_op is not None  # a function body ends in its return
            block.insert_op_before(constant, block.first_op)
            target.replace_all_uses_with(constant.result)
    _drop_bound_parameters(func, [t for _, _, _, t in targets if isinstance(t, BlockArgument)])


def _drop_bound_parameters(func: FuncOp, bound: list[BlockArgument]) -> None:
    """Remove the parameters `bound` (no longer used) from `func`'s signature."""
    if not bound:
        return
    kept = [i for i, arg in enumerate(func.body.block.args) if arg not in bound]
    if func.arg_attrs is not None:
        func.arg_attrs = ArrayAttr([func.arg_attrs.data[i] for i in kept])
    for arg in bound:
        func.body.block.erase_arg(arg)
    func.properties["function_type"] = FunctionType.from_lists(
        [arg.type for arg in func.body.block.args], func.function_type.outputs.data
    )


def constants_without_values(module: ModuleOp) -> dict[int, TensorType]:
    """The ``meta[relay.Constant][i]`` of `module` that have no value, and their types, by index."""
    constants: dict[int, TensorType] = {}
    for op in module.walk():
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None:
            type_ = op.result.type
            if isinstance(type_, TensorType):
                constants.setdefault(op.meta_index.value.data, type_)
    return dict(sorted(constants.items()))


def _untyped_constants(module: ModuleOp) -> set[int]:
    """The indices of the ``meta[relay.Constant][i]`` of `module` whose type is unknown."""
    return {
        op.meta_index.value.data
        for op in module.walk()
        if isinstance(op, relay.ConstantOp)
        and op.meta_index is not None
        and not isinstance(op.result.type, TensorType)
    }


def _tensor_type(what: str, dtype: np.dtype, shape: tuple[int, ...]) -> TensorType:
    """The tensor type of an array of `dtype` and `shape` (`what` names it in errors)."""
    try:
        return TensorType(dtypes.element_type(dtype.name), shape)
    except (dtypes.UnknownDTypeError, ValueError):
        raise InterpreterError(f"{what} has dtype {dtype}, which Relay has not") from None


def _indices_text(indices: list[int]) -> str:
    """``meta[relay.Constant][0] to [52]``, or the indices one by one if they have gaps."""
    if not indices:
        return ""
    if indices == list(range(indices[0], indices[-1] + 1)) and len(indices) > 2:
        return f"meta[relay.Constant][{indices[0]}] to [{indices[-1]}]"
    return ", ".join(f"meta[relay.Constant][{i}]" for i in indices)
