"""``python -m bench.models``: real ONNX-imported Relay models on every backend.

Each model is a Relay text as TVM 0.19's ONNX frontend printed it, its
weights ``meta[relay.Constant][i]`` without values: TVM's collage
"menangerie" (``tests/relay_corpus/tvm_v0.19/menangerie__*``, ``*_16`` in
float16) and the texts of ``bench/tvm019/texts`` that bench/tvm019/make_texts.py
made with TVM 0.19 from ``torch.onnx.export`` files (torchvision resnet50 and
mobilenet_v2, both also in float16 (``_16``), squeezenet1_1, efficientnet_b0, convnext_tiny, the segmentation
model lraspp_mobilenet_v3_large, a BERT-base-shaped encoder, a GPT-2-shaped decoder, a LeNet-shaped mnist with
an explicit pad). Each runs as a user runs it::

    relay-xdsl run FILE --backend B --random-inputs 0 --random-constants 0 -o out.npz

for B in interpreter, mlir, iree and tvm, one process at a time (the big models
need the machine's memory and cores to themselves), the wall time of each
measured around the whole command (loading, lowering or building, running).
The menangerie's gpt2 texts leave the token embedding untyped: it is read
only by ``take``, so no type relation gives its shape, which the text states
elsewhere (the vocabulary, 50257, in the ``add`` that wraps negative ids; the
width, 768, in the output type). For those, the bench draws the table as GPT-2
initialises it (normal, standard deviation 0.02) into an ``.npz`` given with
``--params`` (`UNTYPED_WEIGHTS`), as a user gives a text its real weights.
A run passes when it exits cleanly with finite outputs, and on a compiled
backend when every output is within the tolerance of its dtype of the
interpreter's, relative to the largest magnitude of the interpreter's
output: float16 sums round at every step, so its tolerance is loose.

The table (model × backend: pass or fail, max absolute error against the
interpreter and relative to max |output|, wall seconds) is printed and,
with ``--markdown FILE``, written with the machine's load (``uptime``);
``--update`` keeps the file's rows of the models not run this time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
MENAGERIE = ROOT / "tests" / "relay_corpus" / "tvm_v0.19"
MODELS: dict[str, Path] = {
    **{
        name: MENAGERIE / f"menangerie__{name}__1.relay"
        for name in (
            "mnist",
            "mobilenet",
            "mobilenet_16",
            "resnet50",
            "resnet50_16",
            "resnext50_32x4d",
            "resnext50_32x4d_16",
            "gpt2",
            "gpt2_16",
        )
    },
    **{
        f"tvm019/{name}": ROOT / "bench" / "tvm019" / "texts" / f"{name}.relay"
        for name in (
            "resnet50",
            "resnet50_16",
            "mobilenet_v2",
            "mobilenet_v2_16",
            "squeezenet1_1",
            "efficientnet_b0",
            "convnext_tiny",
            "lraspp_mobilenet_v3_large",
            "bert",
            "gpt2",
            "mnist",
        )
    },
}
"""Each model's Relay text, by the name the table gives it."""
UNTYPED_WEIGHTS: dict[str, dict[int, tuple[tuple[int, ...], str]]] = {
    "gpt2": {0: ((50257, 768), "float32")},
    "gpt2_16": {0: ((50257, 768), "float16")},
}
"""The shape and dtype of each constant a model's text leaves untyped, by index."""
BACKENDS = ("interpreter", "mlir", "iree", "tvm")
RELATIVE_TOLERANCE = {np.dtype(np.float16): 5e-2, np.dtype(np.float32): 1e-3}
"""Max |backend - interpreter| / max |interpreter| allowed, by output dtype."""
DEFAULT_RELATIVE_TOLERANCE = 1e-3
LOAD_NOTE = "Machine load (`uptime`)"


@dataclass
class Run:
    """One model on one backend."""

    seconds: float
    outputs: list[np.ndarray] | None
    failure: str | None = None
    abs_error: float | None = None
    rel_error: float | None = None

    @property
    def passed(self) -> bool:
        return self.failure is None


def command(path: Path, backend: str, output: Path, params: Path | None = None) -> list[str]:
    """The ``relay-xdsl run`` command line of one run."""
    args = [sys.executable, "-m", "relay_xdsl.tools.cli", "run", str(path)]
    args += ["--backend", backend, "--random-inputs", "0", "--random-constants", "0"]
    args += [] if params is None else ["--params", str(params)]
    args += ["-o", str(output)]
    return args


def untyped_weights(name: str, workdir: Path) -> Path | None:
    """The ``.npz`` of model `name`'s `UNTYPED_WEIGHTS`, drawn once; None if it has none."""
    constants = UNTYPED_WEIGHTS.get(name)
    if constants is None:
        return None
    path = workdir / f"{name.replace('/', '_')}.params.npz"
    if not path.exists():
        rng = np.random.default_rng(0)
        arrays: dict[str, Any] = {
            f"meta[relay.Constant][{index}]": (rng.standard_normal(shape) * 0.02).astype(dtype)
            for index, (shape, dtype) in constants.items()
        }
        np.savez(path, **arrays)
    return path


def run_one(name: str, backend: str, workdir: Path, timeout: float) -> Run:
    """Model `name` on `backend`, its outputs read back; a failure says why."""
    output = workdir / f"{name.replace('/', '_')}.{backend}.npz"
    argv = command(MODELS[name], backend, output, untyped_weights(name, workdir))
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    try:
        done = subprocess.run(
            argv, check=False, capture_output=True, text=True, timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired:
        return Run(time.perf_counter() - start, None, f"timed out after {timeout:.0f} s")
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        return Run(seconds, None, lines[-1])
    with np.load(output) as archive:
        outputs = [archive[f"output{i}"] for i in range(len(archive.files))]
    if not all(np.isfinite(o).all() for o in outputs if o.dtype.kind == "f"):
        return Run(seconds, outputs, "non-finite outputs")
    return Run(seconds, outputs)


def compare(run: Run, reference: Run) -> None:
    """Set `run`'s errors against the interpreter's `reference`, failing it
    beyond the tolerance of its outputs' dtype."""
    if run.outputs is None or reference.outputs is None:
        return
    if [o.shape for o in run.outputs] != [o.shape for o in reference.outputs]:
        run.failure = run.failure or "outputs of other shapes than the interpreter's"
        return
    abs_error, rel_error, tolerance = 0.0, 0.0, 0.0
    for ours, expected in zip(run.outputs, reference.outputs):
        difference = np.abs(ours.astype(np.float64) - expected.astype(np.float64))
        scale = float(np.abs(expected.astype(np.float64)).max(initial=0.0)) or 1.0
        abs_error = max(abs_error, float(difference.max(initial=0.0)))
        rel_error = max(rel_error, float(difference.max(initial=0.0)) / scale)
        tolerance = max(
            tolerance, RELATIVE_TOLERANCE.get(expected.dtype, DEFAULT_RELATIVE_TOLERANCE)
        )
    run.abs_error, run.rel_error = abs_error, rel_error
    if rel_error > tolerance and run.failure is None:
        run.failure = f"relative error {rel_error:.2g} > {tolerance:g}"


def bench_model(name: str, backends: list[str], workdir: Path, timeout: float) -> dict[str, Run]:
    runs: dict[str, Run] = {}
    for backend in backends:
        print(f"{name}: {backend}", file=sys.stderr, flush=True)
        runs[backend] = run_one(name, backend, workdir, timeout)
        if runs[backend].failure:
            print(f"  {runs[backend].failure}", file=sys.stderr, flush=True)
    reference = runs.get("interpreter")
    for backend, run in runs.items():
        if backend != "interpreter" and reference is not None:
            compare(run, reference)
    return runs


def _cell(run: Run) -> str:
    errors = "" if run.abs_error is None else f" {run.abs_error:.2g} ({run.rel_error:.2g})"
    verdict = "pass" if run.passed else f"**fail**: {run.failure}"
    return f"{verdict}{errors}, {run.seconds:.0f} s"


def rows(results: dict[str, dict[str, Run]], backends: list[str]) -> dict[str, str]:
    """The table row of each model, by name."""
    return {
        name: f"| {name} | " + " | ".join(_cell(runs[b]) for b in backends) + " |"
        for name, runs in results.items()
    }


def table(model_rows: dict[str, str], backends: list[str]) -> str:
    """`model_rows` in the order of `MODELS`, under a header."""
    lines = [
        "| model | " + " | ".join(backends) + " |",
        "|---" * (len(backends) + 1) + "|",
    ]
    lines += [model_rows[name] for name in MODELS if name in model_rows]
    return "\n".join(lines) + "\n"


def previous_report(path: Path) -> tuple[dict[str, str], list[str]]:
    """The rows (by model) and load notes of the report at `path`, if any."""
    if not path.exists():
        return {}, []
    model_rows, notes = {}, []
    for line in path.read_text().splitlines():
        cells = line.split(" | ")
        if line.startswith("| ") and cells[0][2:] in MODELS:
            model_rows[cells[0][2:]] = line
        elif line.startswith(LOAD_NOTE):
            notes.append(line)
    return model_rows, notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.models", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated names")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument(
        "--timeout", type=float, default=1800.0, help="seconds for one run (default 1800)"
    )
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument(
        "--update",
        action="store_true",
        help="keep the --markdown file's rows of the models not run now",
    )
    args = parser.parse_args(argv)
    names = args.models.split(",")
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown model {unknown[0]} (known: {', '.join(MODELS)})")
    backends = args.backends.split(",")
    load_before = subprocess.run(
        ["uptime"], check=False, capture_output=True, text=True
    ).stdout.strip()
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-models-") as workdir:
        for name in names:
            results[name] = bench_model(name, backends, Path(workdir), args.timeout)
    load_after = subprocess.run(
        ["uptime"], check=False, capture_output=True, text=True
    ).stdout.strip()
    model_rows = rows(results, backends)
    print(table(model_rows, backends))
    if args.markdown is not None:
        notes = [f"{LOAD_NOTE} ({', '.join(names)}): before `{load_before}`; after `{load_after}`."]
        if args.update:
            kept, previous_notes = previous_report(args.markdown)
            model_rows = kept | model_rows
            notes = previous_notes + notes
        tolerances = ", ".join(f"{t} {v:g}" for t, v in RELATIVE_TOLERANCE.items())
        args.markdown.write_text(
            "# Real Relay models on every backend (`python -m bench.models`)\n\n"
            "`relay-xdsl run FILE --backend B --random-inputs 0 --random-constants 0` "
            "(and `--params` with the gpt2 texts' embedding table, which they leave untyped), "
            "one process at a time. Each cell: pass or fail, the max absolute error "
            "against the interpreter (in parentheses, relative to the interpreter's max "
            "|output|), and the command's wall time (loading, building and running). "
            f"Relative tolerances by dtype: {tolerances}.\n\n"
            + "\n\n".join(notes)
            + "\n\n"
            + table(model_rows, backends)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
