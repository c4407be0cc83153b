"""nn.depth_to_space and nn.space_to_depth lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(13)

CASES = {}
for operator, shape in [("depth_to_space", (2, 12, 3, 2)), ("space_to_depth", (2, 3, 6, 4))]:
    for mode in ("DCR", "CRD"):
        for layout in ("NCHW", "NHWC"):
            x_shape = shape if layout == "NCHW" else (shape[0], shape[2], shape[3], shape[1])
            CASES[f"{operator}_{mode}_{layout}"] = (
                (
                    f"def @main(%x: Tensor[{x_shape}, float32]) {{"
                    f' nn.{operator}(%x, block_size=2, mode="{mode}", layout="{layout}") }}'
                ),
                {"x": RNG.standard_normal(x_shape).astype(np.float32)},
            )
CASES["depth_to_space_block3_float16"] = (
    "def @main(%x: Tensor[(1, 18, 2, 3), float16]) { nn.depth_to_space(%x, block_size=3) }",
    {"x": RNG.standard_normal((1, 18, 2, 3)).astype(np.float16)},
)


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
