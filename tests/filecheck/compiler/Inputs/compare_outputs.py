"""Compare two ``relay-xdsl run -o`` archives output by output: its shape, dtype, the
largest absolute error relative to the expected values' largest magnitude, and OK when
that is within 1e-5; exit status 1 otherwise.

    python compare_outputs.py ACTUAL.npz EXPECTED.npz
"""

import sys

import numpy as np

TOLERANCE = 1e-5

with np.load(sys.argv[1]) as actual, np.load(sys.argv[2]) as expected:
    assert sorted(actual) == sorted(expected), (sorted(actual), sorted(expected))
    close = True
    for name in sorted(expected):
        got, want = actual[name], expected[name]
        assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
        scale = max(float(np.abs(want).max()), 1e-30)
        error = float(np.abs(got.astype(np.float64) - want).max()) / scale
        verdict = "OK" if error <= TOLERANCE else "MISMATCH"
        close &= error <= TOLERANCE
        shape = ", ".join(map(str, want.shape)) + ("," if want.ndim == 1 else "")
        print(f"{name}: ({shape}) {want.dtype}: {verdict}")
sys.exit(0 if close else 1)
