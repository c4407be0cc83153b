"""TosaBuilder: a pad takes at most three dimensions (TOSA level 8K's MAX_RANK); a
transpose that moves only dimensions of one is a reshape."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, UnregisteredOp, f32
from xdsl.ir import Block

from relay_xdsl.conversion.tosa import TosaBuilder


def _pads(shape: list[int], pads: list[int]) -> tuple[TensorType, list[tuple[int, ...]]]:
    block = Block(arg_types=[TensorType(f32, shape)])
    result = TosaBuilder(block).pad(block.args[0], pads)
    padded = [
        tuple(TensorType.get_shape(op.operands[0].type))  # type: ignore[arg-type]
        for op in block.ops
        if isinstance(op, UnregisteredOp) and op.op_name.data == "tosa.pad"
    ]
    assert isinstance(result.type, TensorType)
    return result.type, padded


def test_pad_of_one_image_pads_hwc():
    type_, padded = _pads([1, 6, 6, 4], [0, 0, 1, 2, 3, 0, 0, 0])
    assert type_.get_shape() == (1, 9, 9, 4)
    assert padded == [(6, 6, 4)]


def test_pad_of_a_batch_pads_one_dimension_at_a_time():
    type_, padded = _pads([2, 6, 6, 4], [0, 0, 1, 1, 1, 1, 0, 0])
    assert type_.get_shape() == (2, 8, 8, 4)
    assert padded == [(2, 6, 24), (16, 6, 4)]


def test_pad_merges_dimensions_not_padded():
    type_, padded = _pads([2, 3, 4, 5, 6], [0, 0, 0, 0, 1, 1, 0, 0, 0, 0])
    assert type_.get_shape() == (2, 3, 6, 5, 6)
    assert padded == [(6, 4, 30)]


def test_pad_of_rank_three_or_less_is_one_pad():
    type_, padded = _pads([4, 5], [1, 0, 0, 2])
    assert type_.get_shape() == (5, 7)
    assert padded == [(4, 5)]


def _transposed(shape: list[int], perms: list[int]) -> tuple[TensorType, list[str]]:
    block = Block(arg_types=[TensorType(f32, shape)])
    result = TosaBuilder(block).transpose(block.args[0], perms)
    assert isinstance(result.type, TensorType)
    return result.type, [op.op_name.data for op in block.ops if isinstance(op, UnregisteredOp)]


def test_transpose_moving_only_ones_is_a_reshape():
    type_, ops = _transposed([197, 1, 768], [1, 0, 2])
    assert type_.get_shape() == (1, 197, 768)
    assert ops == ["tosa.const_shape", "tosa.reshape"]


def test_transpose_of_two_dimensions_not_one_is_a_transpose():
    type_, ops = _transposed([1, 197, 3, 768], [2, 1, 0, 3])
    assert type_.get_shape() == (3, 197, 1, 768)
    assert ops == ["tosa.transpose"]
