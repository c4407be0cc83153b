"""One ``TensorType`` object per element type and shape, while they are in use.

xDSL verifies a ``TensorType``'s parameters each time one is built, which
costs many times more than looking one up; the importer and the type
relations build the same few types (a layer's output shape, its weight's)
over and over. `tensor_type` hands out one object per element type and
shape, equal to what ``TensorType(element, shape)`` builds; sharing it also
lets comparisons of equal types stop at identity.

Each new type is built without the verifier (`prebuilt`): its definition
asks for an array of ``IntAttr`` dimensions, which it makes itself, and any
element type and encoding, so the check cannot fail; after ``clear_memos``
an import builds its few hundred shapes again, and verifying them was most
of that cost.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr, TensorType
from xdsl.ir import Attribute

from relay_xdsl.support.memo import register
from relay_xdsl.support.prebuilt import prebuilt, prebuilt_data

_TYPES: dict[tuple[Attribute, tuple[int, ...]], TensorType] = {}
_TYPES_LIMIT = 4096
register(_TYPES.clear)


def tensor_type(element: Attribute, shape: Sequence[int]) -> TensorType:
    """``TensorType(element, shape)``, built once per element type and shape
    (``DYNAMIC_INDEX`` for a dynamic dimension)."""
    key = (element, tuple(shape))
    type_ = _TYPES.get(key)
    if type_ is None:
        if len(_TYPES) >= _TYPES_LIMIT:
            _TYPES.clear()
        dims = tuple(prebuilt_data(IntAttr, dim) for dim in shape)
        type_ = _TYPES[key] = prebuilt(
            TensorType, prebuilt_data(ArrayAttr, dims), element, _NO_ENCODING
        )
    return type_


_NO_ENCODING = NoneAttr()
"""The encoding of a tensor type without one, as the constructor defaults it."""
