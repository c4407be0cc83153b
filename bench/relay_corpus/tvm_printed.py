"""Does relay-xdsl print TVM's own printout of a text back as TVM printed it?

    python -m bench.relay_corpus.tvm_printed [--only SUBSTRING] [--update]

For every golden text of ``tests/relay_corpus/tvm_v0.19_printed`` (what TVM
v0.19 printed after parsing a corpus text and running ``InferType``, see
``bench/relay_corpus/tvm_golden.py``) and of ``tests/relay_corpus/tvm_v0.19_fused``
(TVM's ``FuseOps`` and ``DefuseOps`` of it) it imports the text with ``parse_relay``,
prints it with ``print_relay`` and compares the two texts.

The comparison ignores only layout that carries nothing: spaces at the end of
a line and blank lines at the end of the text (``normalise``). Everything
else (indentation, the ``/* ty=... */`` comments, value numbering, the order of
the bindings) must be TVM's.

Prints the first difference of each text that does not match, how many match,
and how many match once ``drop_variable_type_comments`` is applied to TVM's text.
``--passes`` also runs ``relay-fuse-ops`` and ``relay-defuse`` on the import of
each text TVM fused and compares them with TVM's ``FuseOps`` and ``DefuseOps``
(``pass_differences``).
``--update`` rewrites ``tests/relay_corpus/tvm_printed_xfail.txt``, the texts
expected not to match yet with their first difference, which
``tests/relay_corpus/test_tvm_printed.py`` checks strictly: a text that starts
to match must leave the list.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
from pathlib import Path
from typing import Any

from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay

ROOT = Path(__file__).resolve().parents[2]
PRINTED = ROOT / "tests" / "relay_corpus" / "tvm_v0.19_printed"
FUSED = ROOT / "tests" / "relay_corpus" / "tvm_v0.19_fused"
XFAIL = ROOT / "tests" / "relay_corpus" / "tvm_printed_xfail.txt"
TIMEOUT = 120  # seconds per text


def normalise(text: str) -> list[str]:
    """The lines of ``text`` without trailing spaces, and without blank lines at its end."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


_VAR_TYPE_COMMENT = re.compile(r"(%[\w.]+: (?P<type>[^=]*?)) /\* ty=(?P=type) \*/")


def drop_variable_type_comments(text: str) -> str:
    """``text`` without the ``/* ty=T */`` TVM repeats after a variable annotated ``: T``.

    TVM's printer follows every variable whose type is known with its
    ``checked_type`` as a comment, also when the variable is annotated with
    that very type (so does relay-xdsl's). A second, weaker measure, for
    printers that leave the comment out.
    """
    return _VAR_TYPE_COMMENT.sub(r"\1", text)


def _short(line: str, limit: int = 160) -> str:
    return line if len(line) <= limit else line[: limit - 1] + "…"


def first_difference(tvm_text: str, name: str, variable_types: bool = True) -> str | None:
    """None when ``print_relay(parse_relay(tvm_text))`` is ``tvm_text``, else where it differs.

    ``variable_types=False`` compares ``drop_variable_type_comments`` of TVM's text.
    """
    try:
        ours = print_relay(parse_relay(tvm_text, f"{name}.relay"))
    except Exception as error:  # noqa: BLE001 - the failure is the finding
        lines = str(error).strip().splitlines()
        return f"does not import/print: {_short(lines[0] if lines else type(error).__name__)}"
    if not variable_types:
        tvm_text = drop_variable_type_comments(tvm_text)
    theirs_lines, ours_lines = normalise(tvm_text), normalise(ours)
    for i, (theirs, mine) in enumerate(zip(theirs_lines, ours_lines, strict=False)):
        if theirs != mine:
            return f"line {i + 1}: TVM {_short(theirs.strip())!r} / ours {_short(mine.strip())!r}"
    if len(theirs_lines) != len(ours_lines):
        return f"TVM has {len(theirs_lines)} lines, ours {len(ours_lines)}"
    return None


def pass_differences(name: str, texts: dict[str, Path]) -> dict[str, str | None]:
    """Our ``relay-fuse-ops`` and ``relay-defuse`` against TVM's ``FuseOps`` and ``DefuseOps``.

    Starts from the import of TVM's printout of the text, and compares our
    printout after each pass with TVM's.
    Answers, per pass, None when the texts agree, else the first difference.
    """
    from xdsl.context import Context

    from relay_xdsl.transforms.defuse import RelayDefusePass
    from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

    module = parse_relay(texts[name].read_text(), f"{name}.relay")
    answers: dict[str, str | None] = {}
    for stage, apply in (("fused", RelayFuseOpsPass()), ("defused", RelayDefusePass())):
        apply.apply(Context(), module)
        theirs = normalise(texts[f"{name}.{stage}"].read_text())
        ours = normalise(print_relay(module))
        answers[stage] = next(
            (
                f"line {i + 1}: TVM {_short(a.strip())!r} / ours {_short(b.strip())!r}"
                for i, (a, b) in enumerate(zip(theirs, ours, strict=False))
                if a != b
            ),
            None if len(theirs) == len(ours) else f"TVM has {len(theirs)} lines, ours {len(ours)}",
        )
    return answers


class _Timeout(Exception):
    pass


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def read_xfail(path: Path = XFAIL) -> dict[str, str]:
    """The expected-failure list: name → its first difference when it was written."""
    entries = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, reason = line.partition(": ")
            entries[name] = reason
    return entries


def golden_texts() -> dict[str, Path]:
    """Every golden printout by name: ``NAME`` (after InferType), ``NAME.fused``, ``NAME.defused``."""
    paths = sorted(PRINTED.glob("*.relay")) + sorted(FUSED.glob("*.relay"))
    return {p.name.removesuffix(".relay"): p for p in paths}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.relay_corpus.tvm_printed")
    parser.add_argument("--only", help="only the texts whose name contains this")
    parser.add_argument("--update", action="store_true", help=f"rewrite {XFAIL.name}")
    parser.add_argument(
        "--passes", action="store_true", help="also compare relay-fuse-ops/relay-defuse with TVM's"
    )
    args = parser.parse_args(argv)
    texts = golden_texts()
    names = [n for n in texts if not args.only or args.only in n]
    if args.passes:
        names = [n for n in names if not n.endswith(("fused", "defused"))]
    signal.signal(signal.SIGALRM, _on_alarm)
    differences: dict[str, str] = {}
    for name in names:
        signal.alarm(TIMEOUT)
        try:
            difference = first_difference(texts[name].read_text(), name)
        except _Timeout:
            difference = f"no answer in {TIMEOUT} s"
        finally:
            signal.alarm(0)
        if difference is not None:
            differences[name] = difference
            print(f"{name}: {difference}")
    print(f"{len(names) - len(differences)} of {len(names)} golden texts print back as TVM printed")
    weaker = sum(
        first_difference(texts[name].read_text(), name, False) is None for name in differences
    )
    print(
        f"{len(names) - len(differences) + weaker} once the /* ty=T */ TVM repeats after"
        " a variable annotated : T is dropped"
    )
    if args.passes:
        agree = {"fused": 0, "defused": 0}
        tried = 0
        for name in names:
            if f"{name}.fused" not in texts:
                continue
            tried += 1
            try:
                answers = pass_differences(name, texts)
            except Exception as error:  # noqa: BLE001 - the failure is the finding
                print(f"{name}: passes: {str(error).strip().splitlines()[0]}")
                continue
            for stage, difference in answers.items():
                if difference is None:
                    agree[stage] += 1
                else:
                    print(f"{name}: {stage}: {difference}")
        print(
            f"of {tried} texts TVM fused, relay-fuse-ops agrees with FuseOps on {agree['fused']},"
            f" relay-defuse after it with DefuseOps on {agree['defused']}"
        )
    if args.update and not args.only:
        XFAIL.write_text(
            "# Golden TVM printouts (tests/relay_corpus/tvm_v0.19_printed) that relay-xdsl does\n"
            "# not print back as TVM printed them yet, with the first difference.\n"
            "# Generated by `python -m bench.relay_corpus.tvm_printed --update`: do not edit.\n"
            + "".join(f"{name}: {difference}\n" for name, difference in differences.items())
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
