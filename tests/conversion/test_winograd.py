"""Winograd's F(2x2, 3x3): its transforms give a 3x3 correlation's 2x2 outputs."""

from __future__ import annotations

import numpy as np

from relay_xdsl.conversion.packed_matmul import PANEL
from relay_xdsl.conversion.winograd import (
    INPUT_TRANSFORM,
    OUTPUT_TRANSFORM,
    TILE,
    winograd_filters,
)

RNG = np.random.default_rng(5)


def test_the_transforms_compute_a_2x2_block_of_a_3x3_correlation() -> None:
    """``Aᵀ [Σ_c U[c] ⊙ (Bᵀ d[c] B)] A``, with ``U`` unpacked from
    `winograd_filters`, is the 2x2 outputs of the 4x4 windows ``d`` of 3 channels
    by 5 filters (a last panel of 5 columns)."""
    channels, filters = 3, 5
    window = RNG.standard_normal((TILE, TILE, channels))
    hwio = RNG.standard_normal((3, 3, channels, filters)).astype(np.float32)
    packed = winograd_filters(hwio)
    assert len(packed) == TILE * TILE
    assert all(p.shape == (1, channels, PANEL) and not p[..., filters:].any() for p in packed)
    u = np.stack([p[0, :, :filters] for p in packed]).reshape(TILE, TILE, channels, filters)
    b_t, a_t = np.array(INPUT_TRANSFORM), np.array(OUTPUT_TRANSFORM)
    v = np.einsum("ai,ijc,bj->abc", b_t, window, b_t)
    m = np.einsum("abc,abcf->abf", v, u)
    outputs = np.einsum("ua,abf,vb->uvf", a_t, m, a_t)
    expected = np.array(
        [
            [np.einsum("ijc,ijcf->f", window[y : y + 3, x : x + 3], hwio) for x in range(2)]
            for y in range(2)
        ]
    )
    np.testing.assert_allclose(outputs, expected, rtol=1e-5, atol=1e-5)
