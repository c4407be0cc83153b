"""Verification once per key: an op whose key verified is not checked again,
and everything a check reads is in the key, so no invalid op passes."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import ops
from relay_xdsl.dialects.relay.structure import constant_identified, constant_verification_key
from relay_xdsl.dialects.relay.syntax import verify_relay_type
from relay_xdsl.support.memo import clear_memos

T = TensorType(f32, [2, 2])


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the operator calls' own checks looked at (a type each), in order."""
    seen: list[str] = []

    def counted(what: str, type_: Attribute) -> None:
        seen.append(what)
        verify_relay_type(what, type_)

    monkeypatch.setattr(ops, "verify_relay_type", counted)
    clear_memos()
    yield seen
    clear_memos()


def _add(attributes: dict | None = None) -> relay.AddOp:
    return relay.AddOp([create_ssa_value(T), create_ssa_value(T)], T, attributes)


def test_a_repeated_call_is_checked_once(checks: list[str]):
    _add().verify()
    _add().verify()
    assert checks == ["argument #0", "argument #1", "result"]


def test_whatever_a_check_reads_makes_another_key(checks: list[str]):
    _add().verify()
    other_type = TensorType(f32, [3])
    relay.AddOp([create_ssa_value(other_type)] * 2, other_type).verify()
    assert len(checks) == 6
    bad = _add({"axis": IntegerAttr(1, i32)})
    with pytest.raises(VerifyException, match="'add' has no attribute 'axis'"):
        bad.verify()
    with pytest.raises(VerifyException, match="'add' has no attribute 'axis'"):
        bad.verify()


def test_an_op_changed_after_it_verified_is_checked_again(checks: list[str]):
    op = _add()
    op.verify()
    op.attributes["axis"] = IntegerAttr(1, i32)
    with pytest.raises(VerifyException, match="has no attribute 'axis'"):
        op.verify()
    op.operands = [create_ssa_value(T)]
    with pytest.raises(VerifyException, match="'add' expects 2 argument"):
        op.verify()


def test_constants_share_a_key_without_their_contents():
    ones = DenseIntOrFPElementsAttr.from_list(T, [1.0] * 4)
    twos = DenseIntOrFPElementsAttr.from_list(T, [2.0] * 4)
    first, second = relay.ConstantOp(T, ones), relay.ConstantOp(T, twos)
    assert constant_verification_key(first) == constant_verification_key(second)
    wrong = relay.ConstantOp(TensorType(f32, [4]), ones)
    assert constant_verification_key(wrong) != constant_verification_key(first)
    clear_memos()
    first.verify()
    with pytest.raises(VerifyException, match="does not match result type"):
        wrong.verify()


def test_a_bad_constant_is_reported_after_good_ones():
    clear_memos()
    relay.ConstantOp(TensorType(i64, []), meta_index=0).verify()
    bad = relay.ConstantOp(TensorType(i64, []), meta_index=0)
    bad.attributes["meta_index"] = IntegerAttr(-1, i64)
    with pytest.raises(VerifyException, match="meta_index must be non-negative"):
        bad.verify()
    bad.attributes["meta_index"] = StringAttr("x")
    with pytest.raises(VerifyException):
        bad.verify()


def test_constants_are_looked_up_by_their_types_identity():
    ones = DenseIntOrFPElementsAttr.from_list(T, [1.0] * 4)
    twos = DenseIntOrFPElementsAttr.from_list(T, [2.0] * 4)
    assert constant_identified(relay.ConstantOp(T, twos)) == [DenseIntOrFPElementsAttr, T]
    clear_memos()
    relay.ConstantOp(T, ones).verify()
    relay.ConstantOp(T, twos).verify()
    # Types equal to those that verified, but other objects: checked by value.
    other = TensorType(f32, [2, 2])
    relay.ConstantOp(other, DenseIntOrFPElementsAttr.from_list(T, [1.0] * 4)).verify()
    wrong = relay.ConstantOp(
        TensorType(f32, [4]), DenseIntOrFPElementsAttr.from_list(other, [1.0] * 4)
    )
    for _ in range(2):
        with pytest.raises(VerifyException, match="does not match result type"):
            wrong.verify()
