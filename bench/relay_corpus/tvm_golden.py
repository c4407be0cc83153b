"""TVM v0.19's own printout of every corpus text, committed as golden files.

    /work/tvm019/relay_py -m bench.relay_corpus.tvm_golden [--only SUBSTRING]

Runs under a Python that has TVM v0.19 with Relay (CI has none, so the output
is committed) and imports nothing but ``tvm`` and the standard library. For
every text of ``tests/relay_corpus/tvm_v0.19`` that TVM's test expects to
parse, it parses the text as that test did, runs ``InferType`` and writes what
TVM prints (``IRModule.astext()``) to ``tests/relay_corpus/tvm_v0.19_printed``:

* a module (``tvm.relay.parse`` and the test helpers around it) is parsed as
  written; a text without a ``#[version]`` header gets TVM's
  ``#[version = "0.0.5"]`` prepended, as ``parse_module`` in TVM's
  ``test_ir_parser.py`` does;
* an expression (``parse_expr``) becomes a module as
  ``tvm.IRModule.from_expr`` makes it: a function is ``@main`` itself,
  anything else the body of ``@main`` with its free variables as parameters.

``InferType`` runs on the parsed module; where it fails the module is printed
as parsed (without ``/* ty=... */``) and the failure recorded (a texts TVM
cannot parse without the metadata its test passed in, ``init_meta_table``, is
recorded with TVM's error and has no golden file). TVM's parser
gives every node a span, which its printer adds to the type comment
(``/* ty=T span=from_string:2:50 */``); those are source positions of the
golden run, not part of the program, so ``span=...`` is removed from every
comment (and a comment left empty is dropped). Nothing else is changed.

For the modules whose ``InferType`` succeeds and that call an operator, it
also writes ``FuseOps(fuse_opt_level=2)`` (TVM's default ``opt_level``, the
one ``relay-fuse-ops`` mirrors by default) and ``DefuseOps`` of that, each
followed by ``InferType``, to ``tests/relay_corpus/tvm_v0.19_fused``
(``NAME.fused.relay``, ``NAME.defused.relay``).

``tests/relay_corpus/tvm_printed.json`` records, per text, whether TVM parsed
it (or its first error line), whether ``InferType`` succeeded (or its first
error line), and whether FuseOps/DefuseOps ran.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Self, TypeVar

import tvm
from tvm import relay

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "relay_corpus" / "tvm_v0.19"
PRINTED = ROOT / "tests" / "relay_corpus" / "tvm_v0.19_printed"
FUSED = ROOT / "tests" / "relay_corpus" / "tvm_v0.19_fused"
INDEX = ROOT / "tests" / "relay_corpus" / "tvm_printed.json"
SEMVER = '#[version = "0.0.5"]\n'
FUSE_OPT_LEVEL = 2
T = TypeVar("T")

_SPAN_ONLY = re.compile(r" ?/\* span=[^ */]*(?::\d+)* \*/")
_SPAN_IN_COMMENT = re.compile(r" span=[^ */]*(?::\d+)*(?= \*/)")


def strip_spans(text: str) -> str:
    """``text`` without the ``span=...`` of its comments (see the module docstring)."""
    return _SPAN_IN_COMMENT.sub("", _SPAN_ONLY.sub("", text))


class _CapturedStderr:
    """Collects what TVM's C++ side writes to file descriptor 2 (its diagnostics)."""

    def __enter__(self) -> Self:
        sys.stderr.flush()
        self._file = tempfile.TemporaryFile(mode="w+b")
        self._saved = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        self.text = ""
        return self

    def __exit__(self, *exc: object) -> None:
        sys.stderr.flush()
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._file.seek(0)
        self.text = self._file.read().decode(errors="replace")
        self._file.close()


def first_error(error: BaseException, diagnostics: str = "") -> str:
    """The first line that says what went wrong: a rendered diagnostic's, else the exception's."""
    return re.sub(r"0x[0-9a-f]+", "0x...", _first_error(error, diagnostics))  # addresses vary


def _first_error(error: BaseException, diagnostics: str) -> str:
    lines = diagnostics.splitlines()
    for i, line in enumerate(lines):
        if line.lower().startswith("error:"):
            message = line.split(":", 1)[1].strip()
            following = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if following and not following.startswith("-->"):
                message += " " + following  # TVM's type errors say what failed on line two
            return message
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    for line in lines:
        if "Error" in line or "Check failed" in line:
            return line
    return lines[0] if lines else type(error).__name__


def parse(
    entry: dict[str, Any], text: str, meta_table: dict[str, Any] | None = None
) -> tuple[tvm.IRModule, bool]:
    """The module TVM's test built from ``text``, and whether a version header was added.

    ``meta_table`` stands in for the ``init_meta_table`` a test passed.
    """
    if entry["kind"] == "expression" and meta_table and text.lstrip().startswith("fn"):
        # parse_expr takes no meta table; a function read as @main is the
        # module from_expr makes of it.
        text = "def @main" + text.lstrip().removeprefix("fn")
    elif entry["kind"] == "expression":
        return tvm.IRModule.from_expr(relay.parse_expr(text)), False
    added = "#[version" not in text
    return relay.parse(SEMVER + text if added else text, init_meta_table=meta_table), added


def calls_an_operator(mod: tvm.IRModule) -> bool:
    found = []

    def visit(node: Any) -> None:
        if isinstance(node, relay.Call) and isinstance(node.op, tvm.ir.Op):
            found.append(node)

    for func in mod.functions.values():
        if isinstance(func, relay.Function):
            relay.analysis.post_order_visit(func, visit)
    return bool(found)


def attempt(action: Callable[[], T]) -> T | str:
    """``action()``, or the first line of the error it raised (TVM's diagnostics included)."""
    failure: BaseException | None = None
    with _CapturedStderr() as captured:
        try:
            return action()
        except Exception as error:  # noqa: BLE001 - TVM's rejection is the finding
            failure = error
    return first_error(failure, captured.text)


def golden(entry: dict[str, Any], text: str, name: str) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": entry["kind"]}
    parsed = attempt(lambda: parse(entry, text))
    if isinstance(parsed, str):
        record["parse"] = parsed
        return record
    mod, added = parsed
    record["parse"] = True
    if added:
        record["version_added"] = True
    typed = attempt(lambda: relay.transform.InferType()(mod))
    record["infer"] = typed if isinstance(typed, str) else True
    if isinstance(typed, str) and "source maps are not populated" in typed:
        # A module made with from_expr has no source map to render the type
        # error with; AnnotateSpans gives it one, for the message only.
        again = attempt(lambda: relay.transform.InferType()(relay.transform.AnnotateSpans()(mod)))
        if isinstance(again, str):
            record["infer"] = again
    if isinstance(typed, str):
        typed = mod
    (PRINTED / f"{name}.relay").write_text(strip_spans(typed.astext()))
    if record["infer"] is True and calls_an_operator(typed):
        infer = relay.transform.InferType()
        fused = attempt(
            lambda: infer(relay.transform.FuseOps(fuse_opt_level=FUSE_OPT_LEVEL)(typed))
        )
        if isinstance(fused, str):
            record["fuse"] = fused
            return record
        defused = attempt(lambda: infer(relay.transform.DefuseOps()(fused)))
        if isinstance(defused, str):
            record["fuse"] = defused
        else:
            (FUSED / f"{name}.fused.relay").write_text(strip_spans(fused.astext()))
            (FUSED / f"{name}.defused.relay").write_text(strip_spans(defused.astext()))
            record["fuse"] = True
    return record


def isolated(action: Callable[[], dict[str, Any]], crashed: dict[str, Any]) -> dict[str, Any]:
    """``action()`` in a forked child, as TVM crashes hard (a segfault) on some texts.

    A child that dies answers ``crashed`` with the reason under ``"crash"``.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            record = action()
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            record = {**crashed, "crash": first_error(error)}
        with os.fdopen(write_end, "w") as pipe:
            pipe.write(json.dumps(record))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        answer = pipe.read()
    _, status = os.waitpid(pid, 0)
    if answer:
        return dict(json.loads(answer))
    if os.WIFSIGNALED(status):
        return {**crashed, "crash": f"TVM died with signal {os.WTERMSIG(status)}"}
    return {**crashed, "crash": f"exit status {status}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.relay_corpus.tvm_golden", description=__doc__)
    parser.add_argument("--only", help="only the texts whose name contains this")
    args = parser.parse_args(argv)
    entries = json.loads((CORPUS / "index.json").read_text())["texts"]
    entries = [e for e in entries if e["expect"] == "parse"]
    if args.only:
        entries = [e for e in entries if args.only in e["name"]]
    PRINTED.mkdir(exist_ok=True)
    FUSED.mkdir(exist_ok=True)
    index = json.loads(INDEX.read_text()) if args.only and INDEX.exists() else {}
    for entry in entries:
        name = entry["name"]
        text = (CORPUS / f"{name}.relay").read_text()
        record = isolated(partial(golden, entry, text, name), {"kind": entry["kind"]})
        if "crash" in record:
            record["parse"] = f"crash: {record.pop('crash')}"
        index[name] = record
        print(name, index[name], file=sys.stderr, flush=True)
    index = dict(sorted(index.items()))
    INDEX.write_text(json.dumps(index, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
