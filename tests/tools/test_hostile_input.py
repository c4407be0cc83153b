"""Hostile input: deep nesting, long chains, lying metadata, bad options.

Every case ends in a result or a clean diagnostic, never a RecursionError,
a hang or a large allocation. Sizes: nesting 10k levels deep, chains of
20k ops here; ``RELAY_XDSL_STRESS=1`` (``make fuzz``) adds the 1M-op chain.
Deep nests go through the library within ``run_deep``, the opt-in that the
commands enter (support/depth.py).
"""

from __future__ import annotations

import base64
import json
import os
import struct
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, Float32Type, TensorType

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import RelayTextError, parse_relay
from relay_xdsl.relay_text.metadata import (
    _HEADER,
    NDARRAY_MAGIC,
    MetadataError,
    decode_metadata,
    encode_metadata,
)
from relay_xdsl.support.depth import MAX_NESTING, run_deep, walk_ops
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.tools.pass_pipeline import check_pass_pipeline
from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE
from relay_xdsl.transforms.defuse import RelayDefusePass

DEPTH = 10_000
HEADER = '#[version = "0.0.5"]\n'
T = "Tensor[(2), float32]"
BIN = Path(sys.executable).parent


def _main(body: str) -> str:
    return HEADER + f"def @main(%x: {T}) {{\n  {body}\n}}\n"


def nested_calls(depth: int) -> str:
    return _main("nn.relu(" * depth + "%x" + ")" * depth)


def nested_fns(depth: int) -> str:
    """`depth` function literals, each defined and called in the one before."""
    lines = [HEADER + f"def @main(%x: {T}) {{"]
    for level in range(depth):
        lines.append(f'%{2 * level} = fn (%p{level}: {T}, Composite="c{level % 3}") {{')
    lines.append(f"nn.relu(%p{depth - 1})")
    for level in reversed(range(depth)):
        lines.append("};")
        lines.append(f"%{2 * level}(%p{level - 1})" if level else "%0(%x)")
    lines.append("}")
    return "\n".join(lines) + "\n"


def chain(length: int) -> str:
    lines = [HEADER + f"def @main(%x: {T}) {{", "  %0 = nn.relu(%x);"]
    lines.extend(f"  %{i} = add(%{i - 1}, %{i - 1});" for i in range(1, length))
    lines.append(f"  %{length - 1}\n}}")
    return "\n".join(lines) + "\n"


def _round_trip(text: str):
    # As relay-xdsl's commands do (support/gc_pause.py): on a 10k-deep nest, the
    # collector's full collections would make printing several times slower.
    with gc_paused():
        return run_deep(_checked_round_trip, text)


def _checked_round_trip(text: str):
    module = parse_relay(text)
    module.verify()  # xDSL's verifier recurses over regions too
    printed = print_relay(module)
    again = parse_relay(printed)
    assert print_relay(again) == printed
    return module


# -- nesting --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (nested_calls(DEPTH), DEPTH),
        (_main("(" * DEPTH + "%x" + ")" * DEPTH), 0),
        (_main("(" * DEPTH + "%x" + ",)" * DEPTH), DEPTH),
        (_main("-" * DEPTH + "%x"), DEPTH),
        (_main("%x" + " + %x" * DEPTH), DEPTH),
        (_main("add(%x, " * DEPTH + "%x" + ")" * DEPTH), DEPTH),
    ],
    ids=["calls", "parentheses", "tuples", "unary-minus", "infix-chain", "call-arguments"],
)
def test_expressions_nested_10k_deep_import_and_print(text: str, calls: int):
    module = _round_trip(text)
    ops = [op for op in walk_ops(module) if isinstance(op, relay.OperatorOp | relay.TupleOp)]
    assert len(ops) == calls


def test_function_literals_nested_10k_deep_import_print_and_defuse():
    module = _round_trip(nested_fns(DEPTH))
    fns = [op for op in walk_ops(module) if isinstance(op, relay.FnOp)]
    assert len(fns) == DEPTH
    RelayDefusePass().apply(Context(), module)
    run_deep(module.verify)
    assert not any(isinstance(op, relay.FnOp) for op in walk_ops(module))
    assert run_deep(print_relay, module).count("nn.relu(") == 1


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (nested_calls(MAX_NESTING + 1), "expression"),
        (
            _main("nn.foo(%x, a=" + "[" * (MAX_NESTING + 1) + "1" + "]" * (MAX_NESTING + 1) + ")"),
            "attribute array",
        ),
        (
            HEADER
            + "def @main(%x: "
            + "(" * (MAX_NESTING + 1)
            + T
            + ",)" * (MAX_NESTING + 1)
            + ") { %x }",
            "tuple type",
        ),
    ],
    ids=["expression", "attribute-array", "tuple-type"],
)
def test_deeper_than_the_budget_is_a_clean_error(text: str, what: str):
    with pytest.raises(
        RelayTextError, match=f"{what} nested too deeply \\(more than {MAX_NESTING} levels\\)"
    ) as error:
        run_deep(parse_relay, text, "deep.relay")
    assert str(error.value).startswith("deep.relay:")


def test_chains_import_print_and_defuse():
    module = _round_trip(chain(20_000))
    RelayDefusePass().apply(Context(), module)
    module.verify()


@pytest.mark.skipif(
    not os.environ.get("RELAY_XDSL_STRESS"), reason="RELAY_XDSL_STRESS=1 (make fuzz)"
)
def test_a_million_op_chain_imports_and_prints():
    module = parse_relay(chain(1_000_000))
    module.verify()
    text = print_relay(module)
    assert text.count("add(") == 999_999


def test_deep_nesting_through_the_commands(tmp_path: Path):
    source = tmp_path / "deep.relay"
    source.write_text(nested_fns(DEPTH))
    defused = tmp_path / "defused.relay"
    result = _run("relay-xdsl", "defuse", str(source), "-o", str(defused))
    assert result.returncode == 0, result.stderr
    assert defused.read_text().count("nn.relu(") == 1
    # xdsl-opt verifies on its main thread, with Python's default stack:
    # the nest is too deep for it, and it says so instead of a traceback.
    result = _run("xdsl-opt", str(source), "-p", "relay-defuse", "-t", "relay")
    assert result.returncode == 1
    assert "nests too deeply" in result.stderr and "Traceback" not in result.stderr


def _run(tool: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / tool), *args], capture_output=True, text=True, check=False, timeout=timeout
    )


# -- MLIR ---------------------------------------------------------------------------


def test_unterminated_mlir_string_does_not_hang(tmp_path: Path):
    """xDSL 0.75 lexes strings with an exponential regex (see xdsl_patches.py).

    xdsl-opt gets the fix in runs that involve relay (here a relay pass);
    tests/tools/test_plugin_isolation.py checks that other runs are xDSL's own.
    """
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        '"builtin.module"() ({\n  "func.func"() <{sym_name = "' + "a" * 60 + "\n}) : () -> ()\n"
    )
    for tool in ("relay-xdsl", "xdsl-opt"):
        args = ("export", str(bad)) if tool == "relay-xdsl" else (str(bad), "-p", "relay-defuse")
        result = _run(tool, *args, timeout=120)
        assert result.returncode == 1
        assert f"{bad}:2:" in result.stderr and "Traceback" not in result.stderr


# -- metadata -----------------------------------------------------------------------


def _section(arrays: list[str], shape: tuple[int, ...] = (2,)) -> str:
    value = DenseIntOrFPElementsAttr(
        TensorType(Float32Type(), list(shape)), BytesAttr(bytes(4 * _product(shape)))
    )
    document = json.loads("".join(encode_metadata([value])))
    document["b64ndarrays"] = arrays
    return json.dumps(document)


def _product(shape: tuple[int, ...]) -> int:
    result = 1
    for dim in shape:
        result *= dim
    return result


def _ndarray(
    shape: tuple[int, ...], byte_count: int, data: bytes, code: int = 2, bits: int = 32
) -> str:
    header = _HEADER.pack(NDARRAY_MAGIC, 0, 1, 0, len(shape), code, bits, 1)
    header += struct.pack(f"<{len(shape)}q", *shape) + struct.pack("<q", byte_count)
    return base64.b64encode(header + data).decode()


def test_absurd_shapes_fail_before_any_large_allocation():
    huge = _section([_ndarray((1 << 20, 1 << 20), 4 << 40, b"\0" * 8)], (2,))
    tracemalloc.start()
    try:
        with pytest.raises(MetadataError, match="1099511627776 elements, more than the limit"):
            decode_metadata(huge)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


@pytest.mark.parametrize(
    ("array", "message"),
    [
        (
            _ndarray((2,), 8, struct.pack("<2f", 1, 2))[:-8],
            "NDArray holds 3 data bytes, 8 declared (truncated)",
        ),
        (_ndarray((2,), 8, struct.pack("<2f", 1, 2))[:-1], "not a multiple of 4"),
        (
            _ndarray((2,), 12, bytes(12)),
            "shape (2,) of float32 needs 8 bytes but the NDArray declares 12",
        ),
        (
            _ndarray((3,), 12, bytes(12), code=7),
            "expected a dtype code 0 (int), 1 (uint), 2 (float) or 4 (bfloat), found 7",
        ),
        (_ndarray((3,), 12, bytes(12), bits=24), "unsupported dtype float24"),
        (_ndarray((-1,), 0, b""), "negative dimension"),
        ("AAAA", "less than its 32-byte header"),
        ("A!AA" * 20, "not valid base64: found '!'"),
    ],
    ids=[
        "truncated",
        "bad-length",
        "byte-count",
        "dtype-code",
        "dtype-bits",
        "negative",
        "no-header",
        "not-base64",
    ],
)
def test_lying_ndarrays_are_clean_errors(array: str, message: str):
    with pytest.raises(MetadataError) as error:
        decode_metadata(_section([array]))
    assert error.value.message.startswith("constant 0: ")
    assert message in error.value.message


def test_declared_type_must_match_the_data():
    section = json.loads(_section([_ndarray((2,), 8, bytes(8))]))
    for node in section["nodes"]:
        if node.get("type_key") == "IntImm":
            node["attrs"]["value"] = "3"
    with pytest.raises(
        MetadataError,
        match=r"constant 0 is declared as Tensor\[\(3\), float32\] but its NDArray holds Tensor\[\(2\), float32\]",
    ):
        decode_metadata(json.dumps(section))


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        ("meta[relay.Function][0]", "unsupported meta reference meta[relay.Function][0]"),
        (
            "meta[relay.Constant][7]",
            "meta[relay.Constant][7] is out of range: the metadata section has 1 constant(s)",
        ),
        ("meta[relay.Constant][x]", "meta index must be a non-negative integer, got 'x'"),
    ],
)
def test_meta_references_name_their_index(reference: str, message: str):
    text = (
        _main(f"add(%x, {reference})") + "#[metadata]\n" + _section([_ndarray((2,), 8, bytes(8))])
    )
    with pytest.raises(
        RelayTextError,
        match=message.replace("[", r"\[")
        .replace("]", r"\]")
        .replace("(", r"\(")
        .replace(")", r"\)"),
    ):
        parse_relay(text, "meta.relay")


def test_deeply_nested_metadata_json_is_a_clean_error():
    with pytest.raises(MetadataError):
        decode_metadata("[" * 100_000 + "]" * 100_000)


# -- pass options -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        (
            "relay-defuse{foo=1}",
            "relay-defuse has no option 'foo' (valid options: composite=<comma-separated strings> (default: none), inline-globals=<true or false> (default: false), external=<true or false> (default: false))",
        ),
        (
            "relay-defuse{inline-globals=maybe}",
            "option 'inline-globals' of relay-defuse expects true or false, found 'maybe'",
        ),
        (
            "relay-fuse-ops{fuse-opt-level=1.5}",
            "option 'fuse-opt-level' of relay-fuse-ops expects an integer, found '1.5'",
        ),
        ("relay-merge-composite{tabel=x}", "did you mean 'table'?"),
        (
            "relay-defuse,relay-fuseops",
            "unknown pass 'relay-fuseops'; did you mean 'relay-fuse-ops'",
        ),
        ("relay-defuse{composite=}", "expected an option value, found '}'"),
    ],
)
def test_pass_options_list_the_valid_ones(pipeline: str, message: str):
    error = check_pass_pipeline(pipeline, RELAY_UNIVERSE.all_passes)
    assert error is not None and message in str(error)
    assert str(error).startswith("<pass pipeline>:1:")


def test_valid_pipelines_pass_the_check():
    for pipeline in (
        "relay-defuse",
        "relay-defuse{composite=a,b inline-globals=true},relay-fuse-ops{fuse-opt-level=2}",
    ):
        assert check_pass_pipeline(pipeline, RELAY_UNIVERSE.all_passes) is None


NESTINGS = {"calls": nested_calls}
"""Nests tested at the limit (the others are tested 10k deep above, and past the limit)."""


@pytest.mark.parametrize("kind", NESTINGS)
def test_nesting_at_the_limit_imports_and_prints(kind: str):
    """The README's figure, exactly: MAX_NESTING levels import and print, one more does not."""
    _round_trip(NESTINGS[kind](MAX_NESTING))
    with pytest.raises(RelayTextError, match="nested too deeply"):
        run_deep(parse_relay, NESTINGS[kind](MAX_NESTING + 1))
