"""Make the Relay texts of bench/tvm019/texts/ from torchvision and transformer-shaped models.

Runs under TVM 0.19's Python (``relay_py``, with the ``onnx`` package in its
venv: ``pip install onnx==1.16.2``), from the repository root:

    /work/tvm019/relay_py bench/tvm019/make_texts.py [--torch-python .venv/bin/python] [MODEL...]

1. **ONNX.** Unless ``build/tvm019/onnx/MODEL.onnx`` exists, runs
   export_onnx.py with relay-xdsl's venv (``--torch-python``; torch and
   torchvision), after installing ``onnx`` and ``protobuf`` for it with
   ``pip install --target build/tvm019/onnx-export`` (torch's TorchScript
   exporter needs the package; the venv itself stays as pyproject.toml makes it).
2. **Relay.** ``relay.frontend.from_onnx(model, {"input": shape},
   freeze_params=True)``, the shape as the ONNX file gives it: the weights
   become constants, as after binding the parameters of a deployed model.
   ``MODEL_16`` is ``MODEL`` after TVM's ``ToMixedPrecision("float16")`` and
   ``FoldConstant`` (float16 weights, float32 accumulation where TVM keeps it). ``InferType``, then
   ``mod.astext(show_meta_data=False)`` is ``texts/MODEL.relay``: every
   weight prints as ``meta[relay.Constant][i] /* ty=... */`` and no
   ``#[metadata]`` section follows (the full text would be the weights in
   base64, 100 MB for resnet50).
3. **Non-constant metadata.** TVM 0.19 also prints ``split``'s
   ``indices_or_sections`` as ``meta[runtime.BoxInt][i]``, so its own text of
   any ``split`` does not parse back without the metadata section.
   ``texts/MODEL.meta.json`` holds those integers (``{"runtime.BoxInt": [...]}``),
   for measure_tvm.py's meta table. The text is checked to parse back (with the
   real constants and these integers) structurally equal to the imported
   module, but for one loss that is TVM's: astext prints scalar floats with
   6 significant digits (gpt2's GELU constant sqrt(2/pi) = 0.7978845834732056
   prints as ``0.797885f``), so they are compared as printed.
4. **Golden files.** TVM's ``FuseOps(fuse_opt_level=2)`` of the text and
   ``DefuseOps`` of that: ``texts/MODEL.fused.relay``, ``texts/MODEL.defused.relay``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import onnx
import tvm
from tvm import relay
from tvm.relay.expr_functor import ExprMutator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TEXTS = HERE / "texts"
BUILD = ROOT / "build" / "tvm019"
ONNX_MODELS = [
    "resnet50",
    "mobilenet_v2",
    "squeezenet1_1",
    "efficientnet_b0",
    "convnext_tiny",
    "lraspp_mobilenet_v3_large",
    "mnist",
    "gpt2",
    "bert",
]
"""The models export_onnx.py exports."""
FLOAT16 = {"resnet50_16": "resnet50", "mobilenet_v2_16": "mobilenet_v2"}
"""Float16 models: the float32 model each is made from."""
MODELS = [*ONNX_MODELS, *FLOAT16]
ONNX_EXPORT_PACKAGES = ["onnx==1.17.0", "protobuf==7.36.2"]

sys.path.insert(0, str(ROOT))
from bench.tvm019.measure_tvm import golden


def export_onnx(torch_python: str, models: list[str]) -> None:
    missing = [m for m in models if not (BUILD / "onnx" / f"{m}.onnx").exists()]
    if not missing:
        return
    target = BUILD / "onnx-export"
    if not (target / "onnx").exists():
        pip = [torch_python, "-m", "pip", "install", "--quiet", "--no-deps"]
        subprocess.run([*pip, "--target", str(target), *ONNX_EXPORT_PACKAGES], check=True)
    subprocess.run(
        [torch_python, str(HERE / "export_onnx.py"), str(BUILD / "onnx"), *missing],
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        check=True,
    )


def post_order(mod: tvm.IRModule) -> list[object]:
    nodes: list[object] = []
    relay.analysis.post_order_visit(mod["main"], nodes.append)
    return nodes


def meta_table(mod: tvm.IRModule, text: str) -> tuple[dict[str, list[object]], list[int]]:
    """The meta table astext numbered: constants and split indices in print (post-DFS) order."""
    constants: list[relay.Constant] = []
    box_ints: list[int] = []
    for node in post_order(mod):
        if isinstance(node, relay.Constant) and not any(c.same_as(node) for c in constants):
            if node.data.shape:  # scalars print inline
                constants.append(node)
        elif isinstance(node, relay.Call) and getattr(node.op, "name", "") == "split":
            sections = node.attrs.indices_or_sections
            if not isinstance(sections, int):
                box_ints.extend(int(v) for v in sections)
    refs = len(set(re.findall(r"meta\[runtime\.BoxInt\]\[(\d+)\]", text)))
    if refs != len(box_ints):
        raise SystemExit(f"{refs} BoxInt references, {len(box_ints)} split indices found")
    table: dict[str, list[object]] = {"relay.Constant": list(constants)}
    if box_ints:
        table["runtime.BoxInt"] = list(box_ints)
    return table, box_ints


class _AsPrinted(ExprMutator):
    """Scalar float constants rounded to the 6 significant digits astext prints."""

    def visit_constant(self, const: relay.Constant) -> relay.Constant:
        data = const.data.numpy()
        if data.shape == () and data.dtype.kind == "f":
            return relay.const(data.dtype.type(float(f"{data.item():g}")), str(data.dtype))
        return const


def imported(name: str) -> tvm.IRModule:
    """The ONNX model in Relay, typed (kept in build/tvm019/MODEL.module.json:
    from_onnx takes minutes on gpt2)."""
    cache = BUILD / f"{name}.module.json"
    if cache.exists():
        return tvm.ir.load_json(cache.read_text())
    if name in FLOAT16:
        mod = relay.transform.ToMixedPrecision("float16")(imported(FLOAT16[name]))
        with tvm.transform.PassContext(opt_level=3):
            mod = relay.transform.FoldConstant()(mod)
    else:
        model = onnx.load(str(BUILD / "onnx" / f"{name}.onnx"))
        (graph_input,) = model.graph.input
        shape = [dim.dim_value for dim in graph_input.type.tensor_type.shape.dim]
        mod, _ = relay.frontend.from_onnx(model, {"input": shape}, freeze_params=True)
    mod = relay.transform.InferType()(mod)
    cache.write_text(tvm.ir.save_json(mod))
    return mod


def relay_text(name: str) -> None:
    mod = imported(name)
    text = mod.astext(show_meta_data=False)
    table, box_ints = meta_table(mod, text)
    parsed = relay.parse(text, init_meta_table=table)
    if not tvm.ir.structural_equal(parsed["main"], _AsPrinted().visit(mod["main"])):
        raise SystemExit(f"{name}: the text does not parse back to the imported module")
    path = TEXTS / f"{name}.relay"
    path.write_text(text)
    meta = TEXTS / f"{name}.meta.json"
    if box_ints:
        meta.write_text(json.dumps({"runtime.BoxInt": box_ints}) + "\n")
    elif meta.exists():
        meta.unlink()
    golden(str(path), str(TEXTS / name))
    print(f"{name}: {len(text)} characters, {len(table['relay.Constant'])} constants", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", default=MODELS, help=", ".join(MODELS))
    parser.add_argument("--torch-python", default=str(ROOT / ".venv" / "bin" / "python"))
    args = parser.parse_args()
    unknown = sorted(set(args.models) - set(MODELS))
    if unknown:
        parser.error(f"unknown model {unknown[0]} (known: {', '.join(MODELS)})")
    TEXTS.mkdir(parents=True, exist_ok=True)
    export_onnx(args.torch_python, sorted({FLOAT16.get(m, m) for m in args.models}))
    for name in args.models:
        relay_text(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
