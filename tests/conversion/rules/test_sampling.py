"""image.crop_and_resize and image.grid_sample lowered, compiled and run against the
interpreter (coordinates computed at run time from the boxes and the grid)."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(19)


def random(*shape: int) -> np.ndarray:
    return (RNG.standard_normal(shape) * 2).astype(np.float32)


BOXES = np.array(
    [[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 0.6, 1.3], [0.5, 0.7, 0.2, 0.1]], dtype=np.float32
)

CASES = {}
for method in ("bilinear", "nearest_neighbor"):
    for layout, shape in (("NCHW", (2, 3, 7, 6)), ("NHWC", (2, 7, 6, 3))):
        CASES[f"crop_and_resize_{method}_{layout}"] = (
            (
                f"def @main(%x: Tensor[{shape}, float32], %boxes: Tensor[(3, 4), float32],"
                " %indices: Tensor[(3,), int32]) {"
                f" image.crop_and_resize(%x, %boxes, %indices, crop_size=[5, 4],"
                f' method="{method}", layout="{layout}", extrapolation_value=-1.5f) }}'
            ),
            {"x": random(*shape), "boxes": BOXES, "indices": np.array([1, 0, 1], np.int32)},
        )
# Nearest rounds half to even: box corners whose sample points fall halfway between pixels.
CASES["crop_and_resize_nearest_halfway"] = (
    (
        "def @main(%x: Tensor[(1, 1, 5, 5), float32], %boxes: Tensor[(1, 4), float32],"
        " %indices: Tensor[(1,), int32]) {"
        ' image.crop_and_resize(%x, %boxes, %indices, crop_size=[5, 3], method="nearest_neighbor") }'
    ),
    {
        "x": random(1, 1, 5, 5),
        "boxes": np.array([[0.125, 0.0, 0.625, 0.5]], np.float32),
        "indices": np.array([0], np.int32),
    },
)


def grid(*shape: int) -> np.ndarray:
    """Points mostly in [-1, 1], some outside (the padding modes matter there)."""
    return RNG.uniform(-1.4, 1.4, shape).astype(np.float32)


# Every method with every padding mode, aligning corners in every other one (the
# cases compile together; each adds its gathers).
for i, (method, padding_mode) in enumerate(
    (method, padding_mode)
    for method in ("bilinear", "nearest", "bicubic")
    for padding_mode in ("zeros", "border", "reflection")
):
    align_corners = i % 2 == 0
    CASES[f"grid_sample_{method}_{padding_mode}_{align_corners}"] = (
        (
            "def @main(%x: Tensor[(2, 3, 5, 6), float32], %g: Tensor[(2, 2, 4, 7), float32]) {"
            f' image.grid_sample(%x, %g, method="{method}", padding_mode="{padding_mode}",'
            f" align_corners={align_corners}) }}"
        ),
        {"x": random(2, 3, 5, 6), "g": grid(2, 2, 4, 7)},
    )
for method, padding_mode in (("bilinear", "zeros"), ("nearest", "reflection")):
    CASES[f"grid_sample_3d_{method}_{padding_mode}"] = (
        (
            "def @main(%x: Tensor[(1, 2, 3, 4, 5), float32],"
            " %g: Tensor[(1, 3, 2, 3, 4), float32]) {"
            f' image.grid_sample(%x, %g, method="{method}", layout="NCDHW",'
            f' padding_mode="{padding_mode}") }}'
        ),
        {"x": random(1, 2, 3, 4, 5), "g": grid(1, 3, 2, 3, 4)},
    )
# Reflection far outside the image: several flips.
CASES["grid_sample_reflection_far"] = (
    (
        "def @main(%x: Tensor[(1, 1, 3, 4), float32], %g: Tensor[(1, 2, 2, 5), float32]) {"
        ' image.grid_sample(%x, %g, padding_mode="reflection", align_corners=False) }'
    ),
    {
        "x": random(1, 1, 3, 4),
        "g": np.array(
            [
                [
                    [[-4.3, -2.1, 3.7, 5.2, 0.3], [1.9, -3.3, 6.1, -5.5, 2.6]],
                    [[2.2, -4.8, 3.1, -1.9, 7.3], [-6.6, 0.4, 4.4, -2.7, 1.1]],
                ]
            ],
            np.float32,
        ),
    },
)


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
