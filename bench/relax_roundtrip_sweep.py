"""Relax round trip over every torchvision classification model under 100M parameters.

For each model of ``torchvision.models.list_models(module=torchvision.models)``
with fewer than ``--max-params`` parameters (counted with ``weights=None``),
the model is imported into TVM Relax by
:func:`relay_xdsl.tvm.models.relax_module`, then
``export_relax(import_relax(mod))`` is compared with ``mod`` by
``tvm.ir.assert_structural_equal``, without any canonicalisation. Prints a
Markdown table: model | params | result | seconds.

Each model runs in a subprocess of its own (models are large, and TVM's
frontend may crash on some), one after the other; any other error fails
that subprocess, and the table shows its last line. Not part of ``make test``:
all models take a long time (minutes for the largest)::

    nice python -m bench.relax_roundtrip_sweep [--max-params N] [MODEL...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings

MAX_PARAMS = 100_000_000
TIMEOUT_SECONDS = 3600


def parameter_count(name: str) -> int:
    """Parameters of torchvision model `name` with ``weights=None``."""
    import torch
    import torchvision

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            # The meta device allocates nothing, so even the largest models count fast.
            with torch.device("meta"):
                model = torchvision.models.get_model(name, weights=None)
        except NotImplementedError:  # initialisers that copy data (RegNet)
            model = torchvision.models.get_model(name, weights=None)
    return sum(p.numel() for p in model.parameters())


def round_trip(name: str) -> str:
    """The result of one model's round trip, as a table cell."""
    import tvm

    from relay_xdsl.exporters.relax import RelaxExportError, export_relax
    from relay_xdsl.importers.relax import RelaxImportError, import_relax
    from relay_xdsl.tvm.models import relax_module

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mod = relax_module(name)
    except Exception as error:  # torch.export or TVM's frontend refuses the model  # noqa: BLE001
        return f"skipped: not imported into TVM ({_reason(error)})"
    try:
        module = import_relax(mod)
        module.verify()
    except RelaxImportError as error:
        return f"FAILED: import_relax ({_reason(error)})"
    try:
        exported = export_relax(module)
    except RelaxExportError as error:
        return f"FAILED: export_relax ({_reason(error)})"
    try:
        tvm.ir.assert_structural_equal(exported, mod)
    except ValueError as error:
        return f"NOT EQUAL ({_reason(error)})"
    return "equal"


def _reason(error: Exception) -> str:
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    text = lines[0] if lines else ""
    return f"{type(error).__name__}: {text[:160]}".replace("|", "/")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", help="models to run (default: all under the limit)")
    parser.add_argument("--max-params", type=int, default=MAX_PARAMS)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        start = time.perf_counter()
        result = round_trip(args.one)
        print(json.dumps({"result": result, "seconds": time.perf_counter() - start}))
        return 0

    import torchvision

    names = args.models or torchvision.models.list_models(module=torchvision.models)
    print("| model | params | result | seconds |")
    print("|-------|-------:|--------|--------:|")
    counts = {"equal": 0, "other": 0, "skipped": 0}
    for name in names:
        params = parameter_count(name)
        if params >= args.max_params:
            continue
        command = [sys.executable, "-m", "bench.relax_roundtrip_sweep", "--one", name]
        start = time.perf_counter()
        try:
            run = subprocess.run(
                command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False
            )
            lines = run.stdout.strip().splitlines()
            if run.returncode == 0 and lines:
                outcome = json.loads(lines[-1])
                result, seconds = outcome["result"], outcome["seconds"]
            else:
                tail = (run.stderr.strip().splitlines() or ["no output"])[-1]
                result = f"FAILED: exit status {run.returncode} ({tail[:160]})"
                seconds = time.perf_counter() - start
        except subprocess.TimeoutExpired:
            result, seconds = f"FAILED: timed out after {TIMEOUT_SECONDS} s", TIMEOUT_SECONDS
        kind = "equal" if result == "equal" else "skipped" if result.startswith("skip") else "other"
        counts[kind] += 1
        print(f"| {name} | {params / 1e6:.1f}M | {result} | {seconds:.0f} |", flush=True)
    print(
        f"\n{counts['equal']} equal, {counts['other']} not equal or failed, "
        f"{counts['skipped']} skipped (not imported into TVM)"
    )
    return 0 if counts["other"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
