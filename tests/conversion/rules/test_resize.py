"""image.resize1d/2d/3d, nn.upsampling and nn.upsampling3d lowered, compiled and run
against the interpreter: tosa.resize where its arithmetic is the mode's, products
by interpolation matrices elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(17)


def resize_case(
    operator: str, shape: tuple[int, ...], attrs: str, dtype: str = "float32"
) -> tuple[str, dict[str, np.ndarray]]:
    """``operator(%x, attrs)`` on random data of `shape`."""
    text = f"def @main(%x: Tensor[{shape}, {dtype}]) {{ {operator}(%x, {attrs}) }}"
    return text, {"x": (RNG.standard_normal(shape) * 3).astype(dtype)}


CASES = {}
for method in ("nearest_neighbor", "linear", "cubic"):
    for mode in (
        "half_pixel",
        "align_corners",
        "asymmetric",
        "pytorch_half_pixel",
        "tf_half_pixel_for_nn",
    ):
        for size in ("[8, 7]", "[3, 2]"):
            CASES[f"resize2d_{method}_{mode}_{size[1]}"] = resize_case(
                "image.resize2d",
                (1, 2, 4, 5),
                f'size={size}, method="{method}", coordinate_transformation_mode="{mode}"',
            )
for rounding in ("round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil"):
    CASES[f"resize2d_nearest_{rounding}"] = resize_case(
        "image.resize2d",
        (2, 3, 5, 6),
        f'size=[7, 9], method="nearest_neighbor", rounding_method="{rounding}",'
        ' coordinate_transformation_mode="asymmetric"',
    )
CASES["resize2d_cubic_exclude"] = resize_case(
    "image.resize2d",
    (1, 2, 5, 4),
    'size=[9, 7], method="cubic", cubic_alpha=-0.75f, cubic_exclude=1',
)
CASES["resize2d_tf_crop_and_resize"] = resize_case(
    "image.resize2d",
    (1, 2, 6, 6),
    'size=[5, 4], roi=[-0.25f, 0.1f, 0.9f, 1.2f], method="linear",'
    ' coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=-3f',
)
CASES["resize2d_nhwc"] = resize_case("image.resize2d", (2, 4, 5, 3), 'size=[8, 10], layout="NHWC"')
CASES["resize2d_float16"] = resize_case(
    "image.resize2d", (1, 2, 4, 4), 'size=[6, 8], method="linear"', "float16"
)
CASES["resize2d_nearest_float16"] = resize_case(
    "image.resize2d", (1, 2, 4, 4), 'size=[8, 8], method="nearest_neighbor"', "float16"
)
for method in ("nearest_neighbor", "linear", "cubic"):
    CASES[f"resize1d_{method}"] = resize_case(
        "image.resize1d", (2, 3, 7), f'size=[12], method="{method}"'
    )
CASES["resize1d_nwc_align_corners"] = resize_case(
    "image.resize1d",
    (2, 5, 3),
    'size=[9], layout="NWC", coordinate_transformation_mode="align_corners"',
)
for method in ("nearest_neighbor", "linear", "cubic"):
    CASES[f"resize3d_{method}"] = resize_case(
        "image.resize3d", (1, 2, 3, 4, 5), f'size=[5, 6, 3], method="{method}"'
    )
CASES["resize3d_ndhwc_asymmetric"] = resize_case(
    "image.resize3d",
    (1, 3, 4, 2, 2),
    'size=[6, 8, 3], layout="NDHWC", coordinate_transformation_mode="asymmetric"',
)
CASES["resize3d_tf_crop_and_resize"] = resize_case(
    "image.resize3d",
    (1, 1, 4, 4, 4),
    'size=[3, 5, 2], roi=[0.1f, -0.2f, 0f, 0.8f, 1.1f, 0.5f], method="linear",'
    ' coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=7f',
)
for method in ("nearest_neighbor", "bilinear", "bicubic"):
    for align in ("False", "True"):
        CASES[f"upsampling_{method}_{align}"] = resize_case(
            "nn.upsampling",
            (1, 2, 3, 4),
            f'scale_h=2f, scale_w=1.5f, method="{method}", align_corners={align}',
        )
CASES["upsampling_nhwc"] = resize_case(
    "nn.upsampling", (1, 3, 3, 2), 'scale_h=3f, scale_w=2f, layout="NHWC"'
)
CASES["upsampling_float16"] = resize_case(
    "nn.upsampling", (1, 2, 3, 3), "scale_h=2f, scale_w=2f", "float16"
)
for method in ("nearest_neighbor", "trilinear"):
    for mode in ("half_pixel", "align_corners", "asymmetric"):
        CASES[f"upsampling3d_{method}_{mode}"] = resize_case(
            "nn.upsampling3d",
            (1, 2, 2, 3, 4),
            f'scale_d=2f, scale_h=2f, scale_w=1.5f, method="{method}",'
            f' coordinate_transformation_mode="{mode}"',
        )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
