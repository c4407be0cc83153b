"""``relay-xdsl compare A B``: the same dataflow graph, or (``--text``) the same Relay text?"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.tools.commands.arguments import Subcommands
from relay_xdsl.tools.io import FORMATS, STDIO, CommandError, Source, load, read_source


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``compare`` subcommand and its arguments."""
    command = commands.add_parser(
        "compare",
        help="are two programs the same dataflow graph (--text: the same Relay text)?",
    )
    command.add_argument("expected", help="a .relay or .mlir file, or - for stdin")
    command.add_argument("actual", help="a .relay or .mlir file, or - for stdin")
    command.add_argument(
        "--text",
        action="store_true",
        help="compare Relay texts up to whitespace, comments and temp numbering instead",
    )
    command.add_argument(
        "--from",
        dest="input_format",
        choices=FORMATS,
        help="the inputs' format (default: by their names, else by their first words)",
    )
    command.set_defaults(run=run, default_format="relay")


def run(args: argparse.Namespace) -> None:
    if args.expected == STDIO and args.actual == STDIO:
        raise CommandError("only one of the two programs can be read from stdin")
    expected, actual = (
        read_source(path, args.input_format, "relay") for path in (args.expected, args.actual)
    )
    if args.text:
        diff = _text_diff(expected, actual)
        what = "program (as Relay text)"
    else:
        from relay_xdsl.tools.graph_equivalence import graph_diff

        diff = graph_diff(load(expected), load(actual), (expected.name, actual.name))
        what = "program (the same dataflow graph)"
    if diff:
        raise CommandError(f"{actual.name} differs from {expected.name}:\n{diff}")
    print(f"{actual.name} and {expected.name} are the same {what}")


def _text_diff(expected: Source, actual: Source) -> str:
    from relay_xdsl.relay_text.equivalence import canonical_relay, relay_text_diff
    from relay_xdsl.relay_text.metadata import MetadataError

    for source in (expected, actual):
        if source.format != "relay":
            raise CommandError(f"--text compares Relay text; {source.name} is MLIR")
        try:
            canonical_relay(source.text, source.name)
        except MetadataError as error:
            at = source.text.find("#[metadata]")
            start = at + len("#[metadata]") + (error.offset or 0) if at >= 0 else 0
            raise SourceError(
                SourceFile(source.text, source.name),
                start,
                f"bad #[metadata] section: {error.message}",
            ) from None
    return relay_text_diff(expected.text, actual.text)
