"""Check one Relay text the way the corpus measures it.

    python -m bench.relay_corpus.check FILE [--expect parse|error]

``--expect parse`` (the default): the text imports, verifies, prints to a fixpoint
(``print(parse(print(x))) == print(x)``, the reprint verifying too), and
``relay-defuse`` runs on it, verifies and prints. ``--expect error`` (TVM's test
expects its parser to reject the text): importing gives a clean
``FILE:line:col: error:`` diagnostic, a ``RelayTextError``, and nothing else.

Exits 0 when the text passes, 1 with the failing stage and its first error line
on stderr otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.context import Context

from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import RelayTextError, parse_relay
from relay_xdsl.transforms.defuse import RelayDefusePass

# The stages a text expected to parse goes through, in order.
STAGES = ("import", "verify", "fixpoint", "defuse")


@dataclass
class Outcome:
    """How far a text got: ``passed`` stages, and the first failure if any."""

    passed: list[str]
    stage: str | None = None  # the stage that failed, None when all passed
    message: str = ""  # its first error line, without the file:line:col prefix

    @property
    def ok(self) -> bool:
        return self.stage is None


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    line = text[0] if text else type(error).__name__
    return re.sub(r"^\S*:\d+:\d+: error: ", "", line)


def _crash(error: BaseException) -> str:
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno}"
    return f"{type(error).__name__} at {where}: {_first_line(error)}"


def expected_outcome(entry: dict[str, Any]) -> str:
    """What the corpus expects of the text of index entry `entry`: ``error``
    when TVM's test expects its parser to reject it, or when TVM's parser
    rejects the text alone, without the context the test gives it (``alone``);
    ``parse`` otherwise."""
    return "error" if "alone" in entry else entry["expect"]


def check_text(text: str, name: str, expect: str = "parse") -> Outcome:
    """Runs the corpus measurement on ``text``, read as the file ``name``."""
    if expect == "error":
        try:
            parse_relay(text, name)
        except RelayTextError as error:
            if re.match(rf"{re.escape(name)}:\d+:\d+: error: ", str(error)):
                return Outcome(["error"])
            return Outcome([], "error", f"not a file:line:col error: {_first_line(error)}")
        except Exception as error:  # noqa: BLE001 - any other exception is the finding
            return Outcome([], "error", f"crash: {_crash(error)}")
        return Outcome([], "error", "imports, but TVM's test expects a parse error")

    passed: list[str] = []
    stage = "import"
    try:
        module = parse_relay(text, name)
        passed.append(stage)
        stage = "verify"
        module.verify()
        passed.append(stage)
        stage = "fixpoint"
        printed = print_relay(module)
        again = parse_relay(printed, f"{name} (printed)")
        again.verify()
        reprinted = print_relay(again)
        if reprinted != printed:
            first = next(
                (
                    f"line {i + 1}: {a.strip()!r} then {b.strip()!r}"
                    for i, (a, b) in enumerate(
                        zip(printed.splitlines(), reprinted.splitlines(), strict=False)
                    )
                    if a != b
                ),
                "the line counts differ",
            )
            return Outcome(passed, stage, f"print(parse(print(x))) != print(x): {first}")
        passed.append(stage)
        stage = "defuse"
        RelayDefusePass().apply(Context(), again)
        again.verify()
        print_relay(again)
        passed.append(stage)
    except RelayTextError as error:
        return Outcome(passed, stage, _first_line(error))
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return Outcome(passed, stage, f"crash: {_crash(error)}")
    return Outcome(passed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.relay_corpus.check")
    parser.add_argument("file", type=Path)
    parser.add_argument("--expect", choices=("parse", "error"), default="parse")
    args = parser.parse_args(argv)
    outcome = check_text(args.file.read_text(), args.file.name, args.expect)
    if outcome.ok:
        return 0
    print(f"{args.file.name}: {outcome.stage}: {outcome.message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
