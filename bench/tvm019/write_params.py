"""Write tests/interpreter/fixtures/weights_tvm019.params with TVM v0.19's own writer.

Runs under TVM 0.19's Python (``relay_py``), from the repository root:

    /work/tvm019/relay_py bench/tvm019/write_params.py

The arrays are those of ``weights.npz`` beside it (tests/interpreter/test_params.py
writes that one); ``relay.save_param_dict`` stores them as a deployed Relay
model's parameters are stored, bools as TVM 0.19 keeps them (uint1, a byte each).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import tvm
from tvm import relay

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "interpreter" / "fixtures"


def main() -> None:
    with np.load(FIXTURES / "weights.npz") as archive:
        arrays = {name: tvm.nd.array(archive[name]) for name in archive.files}
    (FIXTURES / "weights_tvm019.params").write_bytes(relay.save_param_dict(arrays))
    print(f"wrote {FIXTURES / 'weights_tvm019.params'}: {', '.join(arrays)}")


if __name__ == "__main__":
    main()
