"""Properties over the whole test corpus.

The corpus: TVM's Relay texts in tests/importers/fixtures and
tests/importers/expressions (those that import), and examples/seed.

* Relay text: parse -> print -> parse is a fixpoint.
* MLIR (custom and generic, with locations): parse -> print -> parse is a fixpoint.
* relay-defuse keeps the multiset of operator calls and every constant's bytes.
* The verifier passes after every registered pass, alone and in sequence.
* Upstream MLIR (mlir-opt-22) gives back the same IR: the same ops, operands,
  types, attributes (as dictionaries), locations and Relay names.
"""

from __future__ import annotations

import shutil
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.printer import Printer

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import record_name_locations, relay_name
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import RelayTextError, parse_relay
from relay_xdsl.support.depth import walk_ops
from relay_xdsl.tools.diagnostics import parse_mlir
from relay_xdsl.tools.mlir_text import hoist_location_aliases
from relay_xdsl.tools.mlir_text import relay_context as _context
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass

ROOT = Path(__file__).resolve().parents[1]
PATHS = sorted(
    [
        *ROOT.glob("tests/importers/fixtures/*.relay"),
        *ROOT.glob("tests/importers/expressions/*.relay"),
        *ROOT.glob("examples/seed/*.relay"),
    ]
)


def _corpus() -> list[tuple[str, str]]:
    found = []
    for path in PATHS:
        text = path.read_text()
        try:
            parse_relay(text, path.name)
        except RelayTextError:
            continue  # refused on purpose: see tests/importers/test_relay_text.py
        found.append((path.stem, text))
    return found


CORPUS = _corpus()
IDS = [name for name, _ in CORPUS]


def test_the_corpus_is_the_whole_corpus():
    # Every module fixture and the seed import; the expressions that do not
    # are the ones test_relay_text.py expects to be refused.
    assert len(CORPUS) >= len(PATHS) - 25
    assert {"fused", "defused"} <= set(IDS)


@pytest.mark.parametrize(("name", "text"), CORPUS, ids=IDS)
def test_relay_text_parse_print_parse_is_a_fixpoint(name: str, text: str):
    printed = print_relay(parse_relay(text, name))
    again = parse_relay(printed, "printed")
    again.verify()
    assert print_relay(again) == printed


def _mlir(module: ModuleOp, generic: bool) -> str:
    stream = StringIO()
    Printer(stream=stream, print_generic_format=generic, print_debuginfo=True).print_op(module)
    return stream.getvalue()


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize(("name", "text"), CORPUS, ids=IDS)
def test_mlir_parse_print_parse_is_a_fixpoint(name: str, text: str, generic: bool):
    first = _mlir(parse_relay(text, name), generic)
    module, _ = parse_mlir(_context(), first, "first.mlir")
    module.verify()
    second = _mlir(module, generic)
    assert second == first
    # Relay text survives too, names and spans included.
    assert print_relay(module) == print_relay(parse_relay(text, name))


def _calls(module: ModuleOp):
    from collections import Counter

    return Counter(op.operator_name for op in walk_ops(module) if isinstance(op, relay.OperatorOp))


def _constants(module: ModuleOp):
    from collections import Counter

    return Counter(
        (
            str(op.result.type),
            op.meta_index.value.data if op.meta_index is not None else bytes(op.value.data.data),
        )
        for op in walk_ops(module)
        if isinstance(op, relay.ConstantOp)
    )


@pytest.mark.parametrize(("name", "text"), CORPUS, ids=IDS)
def test_defuse_keeps_every_operator_call_and_constant(name: str, text: str):
    module = parse_relay(text, name)
    calls, constants = _calls(module), _constants(module)
    RelayDefusePass(inline_globals=True).apply(Context(), module)
    module.verify()
    assert not any(isinstance(op, relay.FnOp) for op in walk_ops(module))
    assert _calls(module) == calls
    assert _constants(module) == constants


PIPELINES = {
    "defuse": [RelayDefusePass()],
    "merge-composite": [RelayMergeCompositePass(table="conv2d-add-relu")],
    "fuse-ops": [RelayFuseOpsPass()],
    "defuse,fuse-ops,defuse": [RelayDefusePass(), RelayFuseOpsPass(), RelayDefusePass()],
    "merge-composite,defuse": [RelayMergeCompositePass(table="conv2d-add-relu"), RelayDefusePass()],
}


@pytest.mark.parametrize("pipeline", PIPELINES, ids=list(PIPELINES))
@pytest.mark.parametrize(("name", "text"), CORPUS, ids=IDS)
def test_the_verifier_passes_after_every_pass(name: str, text: str, pipeline: str):
    module = parse_relay(text, name)
    for module_pass in PIPELINES[pipeline]:
        module_pass.apply(Context(), module)
        module.verify()
    print_relay(module)  # and the result still has Relay text


# -- upstream MLIR -------------------------------------------------------------------

MLIR_OPT = shutil.which("mlir-opt-22")


def _ir_view(module: ModuleOp) -> list[tuple]:
    """Everything upstream must keep, in a comparable form (SSA names aside)."""
    view = []
    numbering: dict[object, int] = {}

    def number(value) -> int:
        return numbering.setdefault(value, len(numbering))

    for op in walk_ops(module):
        assert isinstance(op, Operation)
        for region in op.regions:
            for block in region.blocks:
                view.append(
                    (
                        "block",
                        [
                            (number(a), str(a.type), relay_name(a), str(a.location))
                            for a in block.args
                        ],
                    )
                )
        view.append(
            (
                op.name,
                [number(v) for v in op.operands],
                [(number(r), str(r.type), relay_name(r)) for r in op.results],
                sorted((k, str(v)) for k, v in op.attributes.items()),
                sorted((k, str(v)) for k, v in op.properties.items()),
                str(op.location),
            )
        )
    return view


@pytest.mark.skipif(
    MLIR_OPT is None, reason="mlir-opt-22 is not installed (apt-get install mlir-22-tools)"
)
def test_upstream_mlir_gives_back_the_same_ir():
    modules = [parse_relay(text, name) for name, text in CORPUS]
    for module in modules:
        record_name_locations(module)
    generic = "\n// -----\n".join(_mlir(module, True) for module in modules)
    # One mlir-opt run for the whole corpus, and its default output: location
    # aliases after the module, which relay-xdsl's loader moves to the front.
    result = subprocess.run(
        [
            MLIR_OPT,
            "--split-input-file",
            "--allow-unregistered-dialect",
            "--mlir-print-op-generic",
            "--mlir-print-debuginfo",
        ],
        input=generic,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    chunks = result.stdout.split("// -----")
    assert len(chunks) == len(modules)
    for (name, _), module, chunk in zip(CORPUS, modules, chunks, strict=True):
        back, _ = parse_mlir(_context(), hoist_location_aliases(chunk), name)
        back.verify()
        assert _ir_view(back) == _ir_view(module), name
        assert print_relay(back) == print_relay(module), name
