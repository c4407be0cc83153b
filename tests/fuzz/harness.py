"""What the fuzzers feed relay-xdsl, and what they accept back.

Shared by the hypothesis tests (tests/fuzz/test_fuzz.py, a few seconds per
target in ``make test``, longer in ``make fuzz``) and the atheris driver
(tests/fuzz/atheris_fuzz.py, ``make fuzz``).

Every *oracle* takes an input and either returns normally or raises
`Crash`. An input may be refused, but only with a clean diagnostic: a
`SourceError` (``file:line:col: error: ...`` and a caret), a `MetadataError`,
an xDSL ``ParseError`` or a verifier ``DiagnosticException``. Any other
exception, a diagnostic that does not point into the input, and an accepted
input whose result is wrong (unverifiable IR, a printout that does not parse
back to itself) are crashes.
"""

from __future__ import annotations

import random
import re
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import RelayExportError, print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.lexer import Kind, tokenize
from relay_xdsl.relay_text.metadata import MetadataError, decode_metadata
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import run_deep, walk_ops
from relay_xdsl.tools.diagnostics import describe_parse_error
from relay_xdsl.tools.pass_pipeline import check_pass_pipeline
from relay_xdsl.transforms.defuse import RelayDefusePass

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
REGRESSIONS = Path(__file__).parent / "regressions"


class Crash(AssertionError):
    """An input relay-xdsl mishandled."""


# -- corpus ----------------------------------------------------------------------------


def relay_corpus() -> list[tuple[str, str]]:
    """(name, text) of every Relay text the tests use."""
    paths = sorted(
        [
            *TESTS.glob("importers/fixtures/*.relay"),
            *TESTS.glob("importers/expressions/*.relay"),
            *TESTS.glob("importers/unsupported/*.relay"),
            *(ROOT / "examples" / "seed").glob("*.relay"),
            *(p for p in TESTS.glob("filecheck/**/*.relay") if "Output" not in p.parts),
        ]
    )
    return [(str(p.relative_to(ROOT)), p.read_text()) for p in paths]


# -- mutations ---------------------------------------------------------------------------

_MUTATIONS = ("delete", "swap", "duplicate", "truncate", "flip", "insert", "splice")
_INSERTS = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    "=",
    ".",
    "%0",
    "%x",
    "@main",
    "fn",
    "let",
    "def",
    "meta[relay.Constant][0]",
    "meta[relay.Constant][99]",
    "1f",
    "-1",
    "1e40f",
    "2i64",
    "True",
    "None",
    '"s"',
    "/*",
    "*/",
    "/* ty=Tensor[(2), float32] */",
    "Tensor[(2), float32]",
    "Tensor[(?, 0), int8]",
    "#[metadata]",
    "\n",
    "free_var",
    "nn.conv2d",
    "add",
    "-",
    "+",
    "->",
    "(((",
    ")))",
    "%0.0",
    "%0.99",
]


def mutate(text: str, rng: random.Random, steps: int = 3) -> str:
    """`text` with a few token deletions, swaps, truncations, byte flips, ..."""
    for _ in range(steps):
        try:
            spans = [(t.start, t.end) for t in tokenize(SourceFile(text)) if t.kind is not Kind.EOF]
        except SourceError:
            spans = []
        if not spans:
            spans = [(i, i + 1) for i in range(0, len(text), max(1, len(text) // 64))]
        kind = rng.choice(_MUTATIONS)
        start, end = rng.choice(spans) if spans else (0, 0)
        if kind == "delete":
            text = text[:start] + text[end:]
        elif kind == "swap" and len(spans) > 1:
            (a, b), (c, d) = sorted(rng.sample(spans, 2))
            if b <= c:
                text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        elif kind == "duplicate":
            text = text[:end] + " " + text[start:end] + text[end:]
        elif kind == "truncate":
            text = text[: rng.randrange(len(text) + 1)]
        elif kind == "flip" and text:
            data = bytearray(text.encode("utf-8"))
            position = rng.randrange(len(data))
            data[position] ^= 1 << rng.randrange(8)
            text = data.decode("utf-8", errors="replace")
        elif kind == "insert":
            text = text[:start] + rng.choice(_INSERTS) + text[start:]
        elif kind == "splice":
            other = rng.choice(_corpus_texts())
            a = rng.randrange(len(other) + 1)
            text = text[:start] + other[a : a + rng.randrange(200)] + text[end:]
    return text


_CORPUS_CACHE: list[str] = []


def _corpus_texts() -> list[str]:
    if not _CORPUS_CACHE:
        _CORPUS_CACHE.extend(text for _, text in relay_corpus())
    return _CORPUS_CACHE


# -- oracles -----------------------------------------------------------------------------

_DIAGNOSTIC = re.compile(r"^(?P<line>\d+):(?P<col>\d+): error: .+\n.*\n *\^~*$")


def _check_diagnostic(error: SourceError, text: str, name: str) -> None:
    """`error` reads ``name:line:col: error: message``, one line, caret under the line."""
    shown = str(error)
    match = (
        _DIAGNOSTIC.match(shown.removeprefix(f"{name}:")) if shown.startswith(f"{name}:") else None
    )
    if match is None:
        raise Crash(f"malformed diagnostic:\n{shown}")
    line = int(match["line"])
    if not 1 <= line <= text.count("\n") + 1:
        raise Crash(f"diagnostic points outside the input (line {line}):\n{shown}")


def _unexpected(error: BaseException, what: str) -> Crash:
    trace = "".join(traceback.format_exception(error))
    return Crash(f"{what} raised {type(error).__name__}: {error}\n{trace}")


def check_relay_text(text: str, name: str = "fuzz.relay") -> ModuleOp | None:
    """Import `text` as the commands do (with room for deep nesting); if it
    imports, the IR verifies and prints back to itself."""
    return run_deep(_check_relay_text, text, name)


def _check_relay_text(text: str, name: str) -> ModuleOp | None:
    try:
        module = parse_relay(text, name)
    except SourceError as error:
        _check_diagnostic(error, text, name)
        return None
    except Exception as error:  # noqa: BLE001
        raise _unexpected(error, "parse_relay") from None
    check_module(module, "the imported module")
    return module


def check_module(module: ModuleOp, what: str, settled: bool = True) -> str | None:
    """`module` verifies, and its Relay text (if it has one) is a print/parse fixpoint.

    Without `settled`, from its first reprint on: MLIR may leave types
    unknown that importing the printout infers (``!relay.incomplete``)."""
    try:
        module.verify()
    except Exception as error:  # noqa: BLE001
        raise _unexpected(error, f"verifying {what}") from None
    try:
        printed = print_relay(module)
    except RelayExportError:
        return None  # a clean refusal: the IR has no Relay text
    except Exception as error:  # noqa: BLE001
        raise _unexpected(error, f"printing {what}") from None
    try:
        again = parse_relay(printed, "printed.relay")
        again.verify()
        reprinted = print_relay(again)
        if not settled:
            printed = reprinted
            reprinted = print_relay(parse_relay(printed, "printed.relay"))
    except Exception as error:  # noqa: BLE001
        raise Crash(
            f"the printout of {what} does not import back: {error}\n--- printout:\n{printed}"
        ) from None
    if reprinted != printed:
        raise Crash(f"print(parse(print(x))) != print(x) for {what}:\n{printed}\n---\n{reprinted}")
    return printed


def operator_calls(module: ModuleOp) -> Counter[str]:
    return Counter(op.operator_name for op in walk_ops(module) if isinstance(op, relay.OperatorOp))


def constant_bytes(module: ModuleOp) -> Counter[object]:
    """Every constant's type and bytes (or opaque meta index), as a multiset."""
    found: Counter[object] = Counter()
    for op in walk_ops(module):
        if isinstance(op, relay.ConstantOp):
            if op.meta_index is not None:
                found[("meta", op.meta_index.value.data, str(op.result.type))] += 1
            else:
                found[(str(op.result.type), bytes(op.value.data.data))] += 1
    return found


def check_defuse(module: ModuleOp) -> None:
    """relay-defuse keeps every operator call and constant and leaves no relay.fn."""
    calls, constants = operator_calls(module), constant_bytes(module)
    try:
        RelayDefusePass().apply(Context(), module)
    except Exception as error:  # noqa: BLE001
        raise _unexpected(error, "relay-defuse") from None
    check_module(module, "the defused module")
    if any(isinstance(op, relay.FnOp) for op in walk_ops(module)):
        raise Crash("relay-defuse left a relay.fn")
    if operator_calls(module) != calls:
        raise Crash(f"relay-defuse changed the operator calls: {calls} -> {operator_calls(module)}")
    if constant_bytes(module) != constants:
        raise Crash("relay-defuse changed the constants")


def check_metadata(section: str) -> None:
    """Decode a metadata section: values, or a `MetadataError` with a sane offset."""
    try:
        values = decode_metadata(section)
    except MetadataError as error:
        if error.offset is not None and not 0 <= error.offset <= len(section):
            raise Crash(f"metadata error offset {error.offset} outside the section") from None
        return
    except Exception as error:  # noqa: BLE001
        raise _unexpected(error, "decode_metadata") from None
    for value in values:
        expected = 1
        for dim in value.type.get_shape():
            expected *= dim
        if len(value.data.data) * 8 < expected:
            raise Crash(f"constant of {value.type} holds only {len(value.data.data)} bytes")


def check_mlir_text(text: str, name: str = "fuzz.mlir") -> None:
    """Load MLIR as relay-xdsl does: a module, or a clean diagnostic."""
    from relay_xdsl.support.depth import NestingTooDeepError
    from relay_xdsl.tools import xdsl_patches
    from relay_xdsl.tools.diagnostics import locate_verify_error, parse_mlir
    from relay_xdsl.tools.mlir_text import hoist_location_aliases
    from relay_xdsl.tools.mlir_text import relay_context as _context

    xdsl_patches.apply()  # as relay-xdsl's commands do: xDSL's lexer can hang without it

    def load() -> None:
        source_text = hoist_location_aliases(text)
        try:
            module, starts = parse_mlir(_context(), source_text, name)
        except ParseError as error:
            shown = describe_parse_error(error)
            if not shown.startswith(f"{name}:"):
                raise Crash(f"malformed MLIR diagnostic:\n{shown}") from None
            return
        try:
            module.verify()
        except Exception as error:  # noqa: BLE001
            located = locate_verify_error(module, starts, SourceFile(source_text, name))
            if located is None and not isinstance(error, DiagnosticException):
                raise _unexpected(error, "verifying MLIR (and no op to blame)") from None
            return
        check_module(module, "the loaded MLIR", settled=False)

    try:
        run_deep(load)
    except (Crash, NestingTooDeepError):
        raise
    except Exception as error:  # noqa: BLE001
        raise _unexpected(error, "loading MLIR") from None


def check_pipeline(text: str) -> None:
    """The pipeline checker agrees with xDSL: it reports exactly what xDSL refuses."""
    from xdsl.passes import PassPipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE

    passes = RELAY_UNIVERSE.all_passes
    try:
        problem = check_pass_pipeline(text, passes)
    except Exception as error:  # noqa: BLE001
        raise _unexpected(error, "check_pass_pipeline") from None
    try:
        PassPipeline.parse_spec(passes, text)
        refused = None
    except (ValueError, TypeError, ArgSpecParseError) as error:
        refused = error
    except Exception as error:  # noqa: BLE001
        # The pass itself refused its options (a __post_init__ check).
        refused = error
    if problem is not None:
        _check_diagnostic(problem, text, "<pass pipeline>")
        if refused is None:
            raise Crash(f"checker refuses a pipeline xDSL accepts: {text!r}\n{problem}")
    elif refused is not None and _refused_by_xdsl(refused):
        raise Crash(f"checker accepts a pipeline xDSL refuses: {text!r}: {refused}")


def _refused_by_xdsl(error: BaseException) -> bool:
    frames = traceback.extract_tb(error.__traceback__)
    return any(
        "xdsl" in f.filename and f.filename.endswith(("arg_spec.py", "passes.py"))
        for f in frames[-1:]
    )


ORACLES: dict[str, Callable[[str], object]] = {
    "relay-text": check_relay_text,
    "metadata": check_metadata,
    "mlir": check_mlir_text,
    "pipeline": check_pipeline,
}


# -- random well-typed programs ---------------------------------------------------------

_UNARY = ("nn.relu", "exp", "negative", "sigmoid", "tanh", "abs")
_BINARY = ("add", "subtract", "multiply", "maximum", "minimum")
_NAMES = ("x", "y", "data", "FunctionVar_0_1", "a/b", "v2", "x_1")


def random_program(rng: random.Random, max_depth: int = 3) -> str:
    """A random well-typed Relay module: elementwise calls, tuples, lets,
    constants (literals and metadata), and nested function literals with
    Composite / Primitive attributes, some called twice."""
    shape = rng.choice(["(2, 3)", "(4)", "(1, 2, 2)"])
    dims = [int(d) for d in shape.strip("()").split(",")]
    tensor = f"Tensor[{shape}, float32]"
    constants: list = []
    counter = [0]

    def temp() -> str:
        counter[0] += 1
        return f"%{counter[0] - 1}"

    def body(values: list[str], indent: str, depth: int, lines: list[str]) -> str:
        values = list(values)
        for _ in range(rng.randrange(1, 6)):
            choice = rng.random()
            if choice < 0.3:
                expr = f"{rng.choice(_UNARY)}({rng.choice(values)})"
            elif choice < 0.6:
                other = rng.choice(values + ["1f", "-2.5f", "meta"])
                if other == "meta":
                    other = f"meta[relay.Constant][{len(constants)}]"
                    constants.append([rng.uniform(-8, 8) for _ in range(_product(dims))])
                expr = f"{rng.choice(_BINARY)}({rng.choice(values)}, {other})"
            elif choice < 0.75:
                tup = temp()
                lines.append(f"{indent}{tup} = ({rng.choice(values)}, {rng.choice(values)});")
                expr = f"{tup}.{rng.randrange(2)}"
            elif choice < 0.95 and depth < max_depth:
                expr = literal_call(values, indent, depth, lines)
            else:
                expr = f"add({rng.choice(values)}, {rng.choice(values)})"
            if rng.random() < 0.2:
                name = f"%{rng.choice(_NAMES)}{len(lines)}"
                lines.append(f"{indent}let {name} = {expr};")
            else:
                name = temp()
                lines.append(f"{indent}{name} = {expr};")
            values.append(name)
        return values[-1]

    def literal_call(values: list[str], indent: str, depth: int, lines: list[str]) -> str:
        arity = rng.randrange(1, 3)
        params = [f"%p{depth}_{i}" for i in range(arity)]
        attributes = rng.choice(
            [
                "",
                ", Primitive=1",
                ', Composite="c"',
                ', PartitionedFromPattern="add_", Composite="d"',
            ]
        )
        inner: list[str] = []
        result = body(params, indent + "  ", depth + 1, inner)
        if rng.random() < 0.15:
            result = rng.choice(params)  # the identity function: its body returns a parameter
        fn = temp()
        head = ", ".join(f"{p}: {tensor}" for p in params)
        lines.append(f"{indent}{fn} = fn ({head}{attributes}) -> {tensor} {{")
        lines.extend(inner)
        lines.append(f"{indent}  {result}")
        lines.append(f"{indent}}};")
        if rng.random() < 0.3:  # the same literal, called twice
            first = temp()
            lines.append(
                f"{indent}{first} = {fn}({', '.join(rng.choice(values) for _ in params)});"
            )
            values = values + [first]
        return f"{fn}({', '.join(rng.choice(values) for _ in params)})"

    params = [f"%{n}" for n in rng.sample(["x", "y", "z", "w"], rng.randrange(1, 4))]
    lines: list[str] = []
    result = body(params, "  ", 0, lines)
    if rng.random() < 0.2:
        result = f"({result}, {params[0]})"
    head = ", ".join(f"{p}: {tensor}" for p in params)
    text = (
        '#[version = "0.0.5"]\n'
        + f"def @main({head}) {{\n"
        + "\n".join(lines)
        + f"\n  {result}\n}}\n"
    )
    if constants:
        import struct

        from xdsl.dialects.builtin import (
            BytesAttr,
            DenseIntOrFPElementsAttr,
            Float32Type,
            TensorType,
        )

        from relay_xdsl.relay_text.metadata import encode_metadata

        values = [
            DenseIntOrFPElementsAttr(
                TensorType(Float32Type(), dims), BytesAttr(struct.pack(f"<{len(c)}f", *c))
            )
            for c in constants
        ]
        text += "#[metadata]\n" + "".join(encode_metadata(values)) + "\n"
    return text


def _product(dims: list[int]) -> int:
    result = 1
    for dim in dims:
        result *= dim
    return result


def check_random_program(text: str) -> None:
    """A generated program imports, round-trips, and defuses without loss
    (with room for deep nesting, as the commands have)."""
    run_deep(_check_random_program, text)


def _check_random_program(text: str) -> None:
    try:
        module = parse_relay(text, "random.relay")
    except SourceError as error:
        raise Crash(f"a well-typed program was refused: {error}\n{text}") from None
    printed = check_module(module, "the generated module")
    if printed is None:
        raise Crash(f"a generated module has no Relay text:\n{text}")
    check_defuse(module)


# -- MLIR and metadata corpora -------------------------------------------------------------


def mlir_corpus() -> list[tuple[str, str]]:
    """(name, text) of MLIR inputs: the lit .mlir fixtures (split) and the
    custom and generic MLIR of the imported Relay corpus."""
    from relay_xdsl.tools.mlir_text import mlir_text

    found: list[tuple[str, str]] = []
    for path in sorted(TESTS.glob("filecheck/**/*.mlir")):
        if "Output" in path.parts or "interop" in path.parts or "diagnostics" in path.parts:
            continue
        for index, chunk in enumerate(path.read_text().split("// -----")):
            found.append((f"{path.relative_to(ROOT)}#{index}", chunk))
    for name, text in relay_corpus()[::4]:
        try:
            module = parse_relay(text, name)
            module.verify()
        except Exception:  # noqa: BLE001, S112 (the corpus holds refused texts too)
            continue
        found.append((name + ".mlir", mlir_text(module)))
        found.append((name + ".generic.mlir", mlir_text(module, generic=True)))
    return found


def metadata_corpus(rng: random.Random, count: int = 8) -> list[str]:
    """Metadata sections for random constants of several dtypes and shapes."""
    from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType

    from relay_xdsl.dialects.relay import dtypes
    from relay_xdsl.relay_text.metadata import encode_metadata

    sections = []
    for _ in range(count):
        values = []
        for _ in range(rng.randrange(0, 4)):
            dtype = rng.choice(["float32", "float16", "int8", "int64", "uint8", "bool"])
            element = dtypes.element_type(dtype)
            shape = [rng.randrange(0, 4) for _ in range(rng.randrange(0, 3))]
            size = _product(shape) * max(1, dtypes.bit_width(element) // 8)
            data = bytes(rng.randrange(256) for _ in range(size))
            if dtype == "bool":
                data = bytes(b & 1 for b in data)
            values.append(DenseIntOrFPElementsAttr(TensorType(element, shape), BytesAttr(data)))
        sections.append("".join(encode_metadata(values)))
    return sections
