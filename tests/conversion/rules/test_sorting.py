"""argsort, sort and topk lowered, compiled and run against the interpreter:
duplicates (stable in both directions), NaN, negative axes, odd sizes, each
ret_type, k of 0 and -1 (the whole axis), integer and float dtypes."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(17)
DUPLICATES = RNG.integers(-3, 4, (3, 7, 5))
WITH_NAN = DUPLICATES.astype(np.float32)
WITH_NAN[0, 2, 1] = WITH_NAN[0, 5, 1] = WITH_NAN[2, 0, 3] = np.nan


def on(dtype: str, call: str) -> str:
    return f"def @main(%x: Tensor[(3, 7, 5), {dtype}]) {{ {call} }}"


CASES = {}
for ascending in (True, False):
    direction = "ascending" if ascending else "descending"
    for dtype in ("float32", "float16", "int8", "int32", "int64", "bool"):
        data = DUPLICATES.astype(dtype)
        CASES[f"argsort_{direction}_{dtype}"] = (
            on(dtype, f'argsort(%x, axis=1, is_ascend={ascending}, dtype="int32")'),
            {"x": data},
        )
        CASES[f"sort_{direction}_{dtype}"] = (
            on(dtype, f"sort(%x, axis=-1, is_ascend={ascending})"),
            {"x": data},
        )
    CASES[f"argsort_{direction}_nan"] = (
        on("float32", f'argsort(%x, axis=-2, is_ascend={ascending}, dtype="int32")'),
        {"x": WITH_NAN},
    )
    CASES[f"sort_{direction}_nan"] = (
        on("float32", f"sort(%x, axis=1, is_ascend={ascending})"),
        {"x": WITH_NAN},
    )
CASES["argsort_int64_indices"] = (
    on("float32", 'argsort(%x, axis=0, dtype="int64")'),
    {"x": DUPLICATES.astype(np.float32)},
)
for k in (3, 0, -1):
    CASES[f"topk_k{k}_both"] = (
        on("float32", f'%0 = topk(%x, k={k}, axis=1, dtype="int32"); (%0.0, %0.1)'),
        {"x": DUPLICATES.astype(np.float32)},
    )
CASES["topk_values_ascending"] = (
    on("int32", 'topk(%x, k=2, ret_type="values", is_ascend=True)'),
    {"x": DUPLICATES.astype(np.int32)},
)
CASES["topk_indices_int64"] = (
    on("float16", 'topk(%x, k=4, axis=-1, ret_type="indices", dtype="int64")'),
    {"x": DUPLICATES.astype(np.float16)},
)
CASES["topk_nan"] = (
    on("float32", '%0 = topk(%x, k=3, axis=1, dtype="int32"); (%0.0, %0.1)'),
    {"x": WITH_NAN},
)

CASES["sort_int64_wide"] = (
    "def @main(%x: Tensor[(6,), int64]) { sort(%x) }",
    {"x": np.array([2**40 + 3, -(2**35), -1, 2**63 - 1, -(2**63), 0], np.int64)},
)
CASES["topk_rank_1"] = (
    'def @main(%x: Tensor[(9,), float32]) { topk(%x, k=4, ret_type="values", dtype="int32") }',
    {"x": np.array([3, -1, 7, 7, 0, 2, -5, 7, 1], np.float32)},
)


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
