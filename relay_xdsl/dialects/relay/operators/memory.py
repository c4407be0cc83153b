"""Memory and VM operators: what TVM's memory planning passes write.

``memory.alloc_storage``, ``memory.alloc_tensor`` and ``memory.kill`` (TVM's
``src/relay/op/memory/memory.cc``), ``vm.shape_of`` and ``vm.reshape_tensor``
(``src/relay/op/vm/vm.cc``). TVM's relations type a storage with the module's
``Storage`` type, which TVM's tests bring in from ``core.rly``
(``extern type Storage``): here ``!relay.adt<"Storage">``, which the Relay
text importer defines as ``core.rly`` does when a text uses it without
defining it. None of them has a Relax counterpart: Relax plans memory with
its own ``R.memory`` and ``R.vm`` builtins, on shapes rather than tensors.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, TensorType, TupleType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import dtypes, inference
from relay_xdsl.dialects.relay.attributes import OpPattern, anything, dtype, ints
from relay_xdsl.dialects.relay.inference import Call, Reject
from relay_xdsl.dialects.relay.registry import Operator, no_kernel, no_lowering, no_relax
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType

STORAGE = AdtType("Storage", [])
"""The type of a storage: ``Storage``, the extern type of TVM's ``core.rly``."""

_INT64 = dtypes.element_type("int64")


def _int64_scalar(call: Call, index: int, what: str) -> None:
    type_ = call.tensor(index)
    if type_.get_shape() or type_.get_element_type() != _INT64:
        raise Reject(f"the {what} must be an int64 scalar")


def _alloc_storage(call: Call) -> Attribute:
    """``AllocStorageRel``: an int64 scalar size, a shape tensor and an int64
    scalar alignment give a ``Storage``."""
    _int64_scalar(call, 0, "size")
    call.tensor(1)
    _int64_scalar(call, 2, "alignment")
    return STORAGE


def _alloc_tensor(call: Call) -> Attribute:
    """``AllocTensorRel``: a ``Storage``, an offset and a shape tensor. TVM
    reads the result's shape from the data of ``const_shape``, a constant the
    text only refers to (``meta[relay.Constant][i]``), and assigns nothing
    with ``assert_shape`` alone; the result type is therefore left to an
    annotation (incomplete without one)."""
    if call.args[0] != STORAGE:
        raise Reject("the first argument must be a Storage")
    call.tensor(1)
    call.tensor(2)
    return IncompleteType()


def _kill(call: Call) -> Attribute:
    """``KillRel``: ``()``, whatever the argument."""
    return TupleType(ArrayAttr([]))


def _reshape_tensor(call: Call) -> Attribute:
    """``ReshapeTensorRel``: ``newshape`` with the data's dtype."""
    newshape = call.ints("newshape")
    if any(d < 0 for d in newshape):
        raise Reject(f"newshape={newshape} has a negative dimension")
    return TensorType(call.element(0), newshape)


# fmt: off
MEMORY: tuple[Operator, ...] = (
    Operator("memory.alloc_storage",
        "Allocates a storage of `size` bytes with `alignment`, for tensors of `dtype`, on "
        "`virtual_device`; inputs (size, shape, alignment).",
        # TVM's AllocStorageAttrs
        attrs=(dtype("dtype", "float32"), anything("virtual_device")),
        operands=("size", "shape", "alignment"),
        arity=3, pattern=OpPattern.OPAQUE, infer=_alloc_storage,
        relax=no_relax("Relax allocates storage with R.memory.alloc_storage on a shape"),
        kernel=no_kernel("a storage is a device allocation of TVM's VM, not a tensor value"),
        lowering=no_lowering("bufferization allocates a compiled function's buffers")),
    Operator("memory.alloc_tensor",
        "Allocates a tensor of `dtype` in a storage at an offset; inputs (storage, offset, "
        "shape); `const_shape` or `assert_shape` gives its shape.",
        # TVM's AllocTensorAttrs
        attrs=(dtype("dtype", "float32"), anything("const_shape"), ints("assert_shape")),
        operands=("storage", "offset", "shape"),
        arity=3, pattern=OpPattern.OPAQUE, infer=_alloc_tensor,
        relax=no_relax("Relax allocates tensors with R.memory.alloc_tensor on a shape"),
        kernel=no_kernel("a view into a VM storage, whose contents the program writes later"),
        lowering=no_lowering("bufferization allocates a compiled function's buffers")),
    Operator("memory.kill",
        "Marks its argument for release to the allocator; returns ().",
        returns_tuple=True, operands=("to_free",), pattern=OpPattern.OPAQUE, infer=_kill,
        relax=no_relax("Relax releases memory with R.memory.kill_storage/kill_tensor"),
        kernel=no_kernel("releases a VM allocation; the interpreter allocates none"),
        lowering=no_lowering("bufferization's deallocation frees a compiled function's buffers")),
    Operator("vm.shape_of",
        "The VM's shape_of instruction: the shape of the input as a 1D tensor of `dtype`.",
        attrs=(dtype("dtype", ""),),  # TVM's ShapeOfAttrs
        operands=("tensor",),
        pattern=OpPattern.OPAQUE, infer=inference.shape_of,
        relax=no_relax("Relax's shape_of returns a shape, not a tensor")),
    Operator("vm.reshape_tensor",
        "The VM's reshape_tensor instruction: the data reshaped to `newshape`; inputs (data, "
        "shape tensor).",
        attrs=(ints("newshape", required=True),),  # TVM's ReshapeTensorAttrs
        operands=("data", "shape"),
        arity=2, pattern=OpPattern.OPAQUE, infer=_reshape_tensor,
        relax=no_relax("Relax reshapes with R.reshape on a shape, not a shape tensor")),
)
# fmt: on
