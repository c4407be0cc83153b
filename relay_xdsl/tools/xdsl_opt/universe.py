"""What `xdsl-opt` sees of relay-xdsl: the dialect, the passes, and Relay text in and out.

Registered through the ``xdsl.universe`` entry point, so that
``xdsl-opt model.relay -p relay-defuse -t relay`` works once the package is
installed. Besides the ``relay`` frontend and target, ``-t upstream-mlir``
prints generic MLIR for upstream tools (``mlir-opt``) and ``-f upstream-mlir``
reads what they print (see mlir_text.py); ``-t dot`` draws the module's
fused groups as Graphviz DOT (relay_xdsl/viz).

xdsl-opt loads this plugin on every run, so loading it changes nothing in
xDSL or in Python: the dialect, passes, frontends and targets are factories,
called only by a run that uses them. relay-xdsl acts only in runs that
involve relay:

* when xdsl-opt loads the relay dialect (the input has a ``relay.`` op), a
  relay pass, frontend or target, the factory applies relay-xdsl's changes
  to xDSL (xdsl_patches.py, on the xDSL version they were written for) and
  has input errors printed as ``file:line:col: error: ...`` diagnostics
  instead of tracebacks (xdsl_opt/excepthook.py);
* xdsl-opt checks the ``-p`` pipeline and opens the input before it loads
  anything, so when its command line names relay (a relay pass in ``-p``,
  ``-f`` or ``-t`` ``relay`` or ``upstream-mlir``, a ``.relay`` input), or
  runs ``-p`` on an MLIR file with relay ops, the diagnostics are set up
  and pass option values may be bare words with dots and colons
  (``relay-defuse{composite=ccompiler.conv_add_relu}``, as mlir-opt reads
  them), ``-`` is stdin and ``-o -`` stdout, ``-f`` reads a file of
  any name (xdsl_patches.py), and the run (parse, verify, passes, print)
  goes with the collector paused, as the plugin loads. That is all loading
  ever does, and only in xdsl-opt with such a command line.

The frontends and targets build and print modules with Python's cyclic
garbage collector paused, and so do relay passes run by xdsl-opt
(support/gc_pause.py); they read and print Relay text with room for deeply
nested programs (``run_deep``, support/depth.py). relay-xdsl's library
functions leave the collector and the recursion limit to the program that
calls them. xdsl-opt itself verifies on its main thread, with Python's
default stack, so it still reports a program nested a few hundred levels
deep as too deep.
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.frontend import Frontend
from xdsl.utils.target import Target


def _relay_in_use() -> None:
    """A run loads relay-xdsl's dialect, a pass, frontend or target: in xdsl-opt,
    xDSL gets relay-xdsl's changes and errors become diagnostics."""
    from relay_xdsl.tools import xdsl_patches
    from relay_xdsl.tools.xdsl_opt.command_line import is_xdsl_opt
    from relay_xdsl.tools.xdsl_opt.excepthook import install_xdsl_opt_excepthook

    if is_xdsl_opt(sys.argv):
        xdsl_patches.apply()
        install_xdsl_opt_excepthook()


def _relay_dialect() -> Dialect:
    _relay_in_use()
    from relay_xdsl.dialects.relay import Relay

    return Relay


def _run_by_xdsl_opt(pass_class: type[ModulePass]) -> type[ModulePass]:
    """`pass_class` as xdsl-opt runs it: with the collector paused while it applies,
    and its warnings printed as ``warning: ...``."""
    _relay_in_use()
    from relay_xdsl.tools.xdsl_opt.command_line import is_xdsl_opt

    return _collector_paused(pass_class) if is_xdsl_opt(sys.argv) else pass_class


@functools.cache
def _collector_paused(pass_class: type[ModulePass]) -> type[ModulePass]:
    from relay_xdsl.support.gc_pause import gc_paused
    from relay_xdsl.tools.diagnostics import pass_warnings_printed

    def apply(self: ModulePass, ctx: Context, op: ModuleOp) -> None:
        with gc_paused(), pass_warnings_printed():
            pass_class.apply(self, ctx, op)

    # Same name, fields and options: only `apply` differs.
    return type(pass_class.__name__, (pass_class,), {"apply": apply, "__doc__": pass_class.__doc__})


def _defuse_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.defuse import RelayDefusePass

    return _run_by_xdsl_opt(RelayDefusePass)


def _merge_composite_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass

    return _run_by_xdsl_opt(RelayMergeCompositePass)


def _infer_type_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.infer_type import RelayInferTypePass

    return _run_by_xdsl_opt(RelayInferTypePass)


def _simplify_inference_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.simplify_inference import RelaySimplifyInferencePass

    return _run_by_xdsl_opt(RelaySimplifyInferencePass)


def _fold_scale_axis_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.fold_scale_axis import RelayFoldScaleAxisPass

    return _run_by_xdsl_opt(RelayFoldScaleAxisPass)


def _convert_relay_to_tosa_pass() -> type[ModulePass]:
    from relay_xdsl.conversion.convert_relay_to_tosa import ConvertRelayToTosaPass

    return _run_by_xdsl_opt(ConvertRelayToTosaPass)


def _convert_relay_to_linalg_pass() -> type[ModulePass]:
    from relay_xdsl.conversion.convert_relay_to_linalg import ConvertRelayToLinalgPass

    return _run_by_xdsl_opt(ConvertRelayToLinalgPass)


def _fold_constant_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.fold_constant import RelayFoldConstantPass

    return _run_by_xdsl_opt(RelayFoldConstantPass)


def _dynamic_to_static_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.dynamic_to_static import RelayDynamicToStaticPass

    return _run_by_xdsl_opt(RelayDynamicToStaticPass)


def _fuse_ops_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

    return _run_by_xdsl_opt(RelayFuseOpsPass)


@dataclass(frozen=True)
class RelayTextFrontend(Frontend):
    """Reads TVM Relay text (`.relay` files) into the relay dialect."""

    name: ClassVar[str] = "relay"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        from relay_xdsl.importers.relay_text import parse_relay
        from relay_xdsl.support.depth import run_deep
        from relay_xdsl.support.gc_pause import gc_paused

        text = input.read().decode("utf-8", errors="replace")
        # A RelayTextError is an xDSL ParseError: `--parsing-diagnostics`
        # prints it, and otherwise the diagnostics hook does, without a traceback.
        with gc_paused():
            return run_deep(parse_relay, text, input_name, what=input_name)


@dataclass(frozen=True)
class RelayLibraryFrontend(RelayTextFrontend):
    """Reads the `.rly` files of TVM's Relay standard library (prelude.rly, ...)."""

    name: ClassVar[str] = "rly"


@dataclass(frozen=True)
class RelayTextTarget(Target):
    """Prints the module as TVM Relay text (`-t relay`)."""

    name: ClassVar[str] = "relay"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from relay_xdsl.exporters.relay_text import RelayExportError, relay_chunks
        from relay_xdsl.support.depth import run_deep
        from relay_xdsl.support.gc_pause import gc_paused

        with gc_paused():
            try:
                chunks = run_deep(relay_chunks, module, what="the module")
            except RelayExportError as error:
                raise SystemExit(_export_error(error, module)) from None
            output.writelines(chunks)


def _export_error(error: Exception, module: ModuleOp) -> str:
    """`error` at the op it is about, in the input file when xdsl-opt read one unchanged."""
    from relay_xdsl.relay_text.source import SourceFile
    from relay_xdsl.tools.diagnostics import culprit_op, describe_op_error
    from relay_xdsl.tools.xdsl_opt.command_line import read_xdsl_opt_command_line

    command_line = read_xdsl_opt_command_line(sys.argv)
    source = None
    path = command_line.input
    if path not in (None, "-") and not command_line.passes and path.endswith(".mlir"):
        try:
            with open(path, encoding="utf-8") as input:
                source = SourceFile(input.read(), path)
        except (OSError, UnicodeDecodeError):
            source = None
    return describe_op_error(str(error), module, culprit_op(error.__traceback__), source)


@dataclass(frozen=True)
class UpstreamMLIRTarget(Target):
    """Generic MLIR for upstream MLIR tools (`-t upstream-mlir`).

    ``--print-op-generic --print-debuginfo``, with every Relay name first
    recorded as a ``NameLoc``, so that names survive ``mlir-opt`` even when
    they were only SSA names in the input or a pass has moved them.
    """

    name: ClassVar[str] = "upstream-mlir"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from relay_xdsl.support.depth import run_deep
        from relay_xdsl.support.gc_pause import gc_paused
        from relay_xdsl.tools.mlir_text import print_mlir

        with gc_paused():
            run_deep(lambda: print_mlir(module, output, generic=True, ctx=ctx), what="the module")


@dataclass(frozen=True)
class UpstreamMLIRFrontend(Frontend):
    """MLIR as upstream ``mlir-opt`` prints it (`-f upstream-mlir`): location
    aliases may follow the module."""

    name: ClassVar[str] = "upstream-mlir"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        from xdsl.parser import Parser

        from relay_xdsl.support.gc_pause import gc_paused
        from relay_xdsl.tools import xdsl_patches
        from relay_xdsl.tools.mlir_text import hoist_location_aliases

        # Output of other tools goes through xDSL's lexer: with its string fix.
        xdsl_patches.apply()
        text = hoist_location_aliases(input.read().decode("utf-8", errors="replace"))
        with gc_paused():
            return Parser(ctx, text, input_name).parse_module()


@dataclass(frozen=True)
class DotTarget(Target):
    """Graphviz DOT of the module's operators and fused groups (`-t dot`), as
    ``relay-xdsl view --format dot`` writes it (relay_xdsl/viz)."""

    name: ClassVar[str] = "dot"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from relay_xdsl.support.gc_pause import gc_paused
        from relay_xdsl.viz.dot import dot_text
        from relay_xdsl.viz.graph import extract

        with gc_paused():
            output.write(dot_text([("module", extract(module))]))


def _loaded(component: type) -> type:
    _relay_in_use()
    return component


RELAY_UNIVERSE = Universe(
    all_dialects={"relay": _relay_dialect},
    all_passes={
        "relay-defuse": _defuse_pass,
        "relay-merge-composite": _merge_composite_pass,
        "relay-fuse-ops": _fuse_ops_pass,
        "relay-infer-type": _infer_type_pass,
        "relay-simplify-inference": _simplify_inference_pass,
        "relay-fold-scale-axis": _fold_scale_axis_pass,
        "relay-fold-constant": _fold_constant_pass,
        "relay-dynamic-to-static": _dynamic_to_static_pass,
        "convert-relay-to-tosa": _convert_relay_to_tosa_pass,
        "convert-relay-to-linalg": _convert_relay_to_linalg_pass,
    },
    all_frontends={
        "relay": lambda: _loaded(RelayTextFrontend),
        # TVM's Relay standard library (prelude.rly, ...) uses this extension.
        "rly": lambda: _loaded(RelayLibraryFrontend),
        "upstream-mlir": lambda: _loaded(UpstreamMLIRFrontend),
    },
    all_targets={
        "relay": lambda: _loaded(RelayTextTarget),
        "upstream-mlir": lambda: _loaded(UpstreamMLIRTarget),
        "dot": lambda: _loaded(DotTarget),
    },
)


_WORD = re.compile(r"[\w.-]+")


def names_relay(argv: list[str]) -> bool:
    """Whether ``xdsl-opt`` command line `argv` names relay: a relay frontend (by
    ``-f`` or a ``.relay`` input), a relay target, or a relay pass in ``-p``
    (or a misspelt one: a ``relay-`` word)."""
    from relay_xdsl.tools.xdsl_opt.command_line import read_xdsl_opt_command_line

    command_line = read_xdsl_opt_command_line(argv)
    if command_line.frontend_name in RELAY_UNIVERSE.all_frontends:
        return True
    if command_line.target_name in RELAY_UNIVERSE.all_targets:
        return True
    return any(
        word in RELAY_UNIVERSE.all_passes or word.startswith("relay-")
        for word in _WORD.findall(command_line.passes or "")
    )


_RELAY_OP = re.compile(rb"\brelay\.[a-z_]")


def reads_relay(argv: list[str]) -> bool:
    """Whether ``xdsl-opt`` command line `argv` has ``-p`` and an MLIR input file
    that holds relay ops (judged by its first 64 KiB): the pipeline is checked
    before the input loads the relay dialect."""
    from relay_xdsl.tools.xdsl_opt.command_line import read_xdsl_opt_command_line

    command_line = read_xdsl_opt_command_line(argv)
    if command_line.passes is None or command_line.input in (None, "-"):
        return False
    try:
        with open(command_line.input, "rb") as input:
            head = input.read(1 << 16)
    except OSError:
        return False
    return _RELAY_OP.search(head) is not None


def _loading() -> None:
    """xdsl-opt checks ``-p`` and opens the input before it loads any pass or
    frontend: a command line that names relay, or a pipeline run on relay ops,
    needs the diagnostics and relay's pass option words from the start, and
    runs with the collector paused (`_run_with_collector_paused`)."""
    from relay_xdsl.tools import xdsl_patches
    from relay_xdsl.tools.xdsl_opt.command_line import is_xdsl_opt
    from relay_xdsl.tools.xdsl_opt.excepthook import install_xdsl_opt_excepthook

    if is_xdsl_opt(sys.argv) and (names_relay(sys.argv) or reads_relay(sys.argv)):
        xdsl_patches.apply_pipeline_words()
        xdsl_patches.apply_standard_streams()
        install_xdsl_opt_excepthook()
        _run_with_collector_paused()


def _run_with_collector_paused() -> None:
    """xdsl-opt's run (parse, verify, passes, print) with the cyclic garbage
    collector paused, as ``relay-xdsl`` runs its commands (support/gc_pause.py):
    parsing an MLIR file of relay ops builds a module of O(N) long-lived
    objects, and with the collector on a tenth of the run went to full
    collections over it. xdsl-opt loads this plugin while it is constructed,
    before it runs."""
    import gc

    from xdsl.xdsl_opt_main import xDSLOptMain

    from relay_xdsl.support.gc_pause import gc_paused

    run = xDSLOptMain.run
    # xDSL's own, not yet wrapped (the wrapper keeps its name and module).
    if run.__module__ != xDSLOptMain.__module__ or hasattr(run, "__wrapped__"):
        return

    @functools.wraps(run)
    def paused_run(self: xDSLOptMain) -> None:
        with gc_paused():
            try:
                run(self)
            finally:
                # The process ends once the run returns: the objects built
                # meanwhile are left out of collections rather than walked
                # by the first one (a fifth of a second on a 10k-op module).
                gc.freeze()

    xDSLOptMain.run = paused_run  # type: ignore[method-assign]


_loading()
