"""Coverage-guided fuzzing with atheris (libFuzzer), run by ``make fuzz``.

    python tests/fuzz/atheris_fuzz.py TARGET [libFuzzer options]

TARGET is one of relay-text, metadata, mlir, pipeline (harness.ORACLES).
The seed corpus is the test corpus of that kind; an input on which the
oracle raises is a crash: libFuzzer saves it as ``crash-*`` in the working
directory and stops. Add it to tests/fuzz/regressions/ with the fix.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).parent))

with atheris.instrument_imports(include=["relay_xdsl"]):
    import harness


def seeds(target: str) -> list[str]:
    if target == "relay-text":
        return [text for _, text in harness.relay_corpus()]
    if target == "metadata":
        return harness.metadata_corpus(random.Random(0), 32)
    if target == "mlir":
        return [text for _, text in harness.mlir_corpus()]
    return [
        "relay-defuse{composite=a,b inline-globals=true}",
        "relay-merge-composite{table=conv2d-add-relu},relay-fuse-ops{fuse-opt-level=2}",
    ]


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in harness.ORACLES:
        sys.exit(f"usage: atheris_fuzz.py {{{','.join(harness.ORACLES)}}} [libFuzzer options]")
    target = sys.argv[1]
    oracle = harness.ORACLES[target]

    def test_one_input(data: bytes) -> None:
        text = data.decode("utf-8", errors="replace")
        try:
            oracle(text)
        except harness.Crash as crash:
            print(crash, file=sys.stderr)
            raise

    corpus = Path(tempfile.mkdtemp(prefix=f"relay-xdsl-{target}-"))
    for index, text in enumerate(seeds(target)):
        (corpus / f"seed{index}").write_text(text)
    atheris.Setup([sys.argv[0], *sys.argv[2:], str(corpus)], test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
