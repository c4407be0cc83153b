"""Relax exports of the image operators."""

from __future__ import annotations

from typing import Any

from tvm import topi
from tvm.relax import op as R

from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.exporters.relax_compositions.common import call_of, result_dtype
from relay_xdsl.exporters.relax_compositions.registry import ExportContext, relax_export


def _resize_fields(op: RegisteredOperatorOp) -> dict[str, Any]:
    """The fields Relay's and Relax's resize attrs share, Relay's values
    (Relax's own default ``cubic_alpha`` differs, so every field is given)."""
    call = call_of(op)
    return {
        "layout": str(call.attr("layout")),
        "method": str(call.attr("method")),
        "coordinate_transformation_mode": str(call.attr("coordinate_transformation_mode")),
        "rounding_method": str(call.attr("rounding_method")),
        "extrapolation_value": float(call.attr("extrapolation_value")),
        "out_dtype": result_dtype(op),
    }


def _roi(op: RegisteredOperatorOp) -> tuple[float, ...] | None:
    roi = call_of(op).attr("roi")
    return tuple(float(v) for v in roi) if roi else None


@relax_export("image.resize2d", "image.resize3d")
def resize(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Relax's ``resize2d``/``resize3d`` with every field given."""
    call = call_of(op)
    create = R.image.resize2d if op.operator_name == "image.resize2d" else R.image.resize3d
    return create(
        args[0],
        tuple(call.ints("size")),
        _roi(op),
        cubic_alpha=float(call.attr("cubic_alpha")),
        cubic_exclude=call.integer("cubic_exclude"),
        **_resize_fields(op),
    )


@relax_export("image.resize1d", te=True)
def resize1d(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``resize1d``."""
    call = call_of(op)
    roi = _roi(op) or (0.0, 0.0)
    return ctx.call_te(
        topi.image.resize1d,
        args[0],
        roi,
        call.ints("size"),
        bicubic_alpha=float(call.attr("cubic_alpha")),
        bicubic_exclude=call.integer("cubic_exclude"),
        **_resize_fields(op),
    )


@relax_export("image.crop_and_resize", te=True)
def crop_and_resize(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``crop_and_resize``."""
    call = call_of(op)
    return ctx.call_te(
        topi.image.crop_and_resize,
        *args,
        call.ints("crop_size"),
        str(call.attr("layout")),
        str(call.attr("method")),
        float(call.attr("extrapolation_value")),
        result_dtype(op),
    )
