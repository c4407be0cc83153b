"""One TensorType object per element type and shape."""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f32, i64

from relay_xdsl.dialects.relay.tensor_types import tensor_type
from relay_xdsl.support.memo import clear_memos


def test_tensor_type_is_the_constructors_type_built_once():
    first = tensor_type(f32, [1, DYNAMIC_INDEX, 4])
    assert first == TensorType(f32, [1, DYNAMIC_INDEX, 4])
    assert tensor_type(f32, (1, DYNAMIC_INDEX, 4)) is first
    assert tensor_type(i64, [1, DYNAMIC_INDEX, 4]) == TensorType(i64, [1, DYNAMIC_INDEX, 4])
    assert tensor_type(f32, []) == TensorType(f32, [])


def test_clear_memos_forgets_the_types():
    first = tensor_type(f32, [2, 2])
    clear_memos()
    again = tensor_type(f32, [2, 2])
    assert again == first and again is not first


def test_tensor_type_hashes_and_reads_as_the_constructors():
    clear_memos()
    built, constructed = tensor_type(f32, [3, 5]), TensorType(f32, [3, 5])
    assert hash(built) == hash(constructed)
    assert built.get_shape() == (3, 5) and built.encoding == constructed.encoding
    assert built in {constructed}
