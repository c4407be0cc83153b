"""End to end: ``xdsl-opt FILE -p relay-defuse`` against ``mlir-opt-22 --inline``.

Both tools parse a file, inline every fused function and print the result,
each in its own process; the commands take turns, one run of each a round,
so that a change in the machine's load reaches all of them alike (wall and
CPU time, median of several rounds):

* **ours**: the relay-dialect module of TVM's ``FuseOpsByPattern`` output
  (one ``relay.fn`` per group), through ``xdsl-opt FILE -p relay-defuse``,
  from two files: the module in our custom MLIR syntax (``.mlir``), and
  as Relay text (``.relay``, read by the ``relay`` frontend);
* **MLIR**: the equivalent module in which each ``relay.fn`` is a private
  ``func.func`` called once with ``func.call``, through
  ``mlir-opt-22 --allow-unregistered-dialect --inline='default-pipeline='``,
  which inlines the calls and erases the private functions that are then
  dead.

Two things make the MLIR module differ from a plain transliteration:

* MLIR's inliner never inlines an op whose dialect has no inliner interface,
  and unregistered ops have none: with ``relay.*`` ops left unregistered,
  ``mlir-opt --inline`` inlines nothing. So every relay op becomes a
  ``builtin.unrealized_conversion_cast`` (any operands to any results, and
  inlinable) carrying the op's name as ``relay.op`` and its attributes as
  discardable attributes: the same operands, results, types and attribute
  text, so parsing and printing do the same work;
* ``--inline`` canonicalises every function it inlines into by default,
  which would fold the ``relu`` casts (same type in and out) away;
  ``default-pipeline=`` turns that off, as ``relay-defuse`` does no
  clean-up either.

The same files are also run in this process through ``xDSLOptMain``'s
phases to show where xdsl-opt's time goes, and so what share of it is
``relay-defuse`` itself; ``xdsl-opt`` on an empty module gives its
start-up cost (Python imports, dialect and pass registration).
"""

from __future__ import annotations

import re
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnrealizedConversionCastOp
from xdsl.dialects.func import CallOp, FuncOp, FunctionType
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Region
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import relay_chunks
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.support.memo import clear_memos
from relay_xdsl.support.timing import Policy, Steps, Timing, measure
from relay_xdsl.tools import xdsl_patches
from relay_xdsl.tools.mlir_text import mlir_text
from relay_xdsl.transforms.defuse import RelayDefusePass

MLIR_OPT = Path("/usr/bin/mlir-opt-22")
_OP_LINE = re.compile(
    r'^\s*(?:%\S+ = )?"?(?:relay\.(?!fn\b|return\b|let\b)|builtin\.unrealized_conversion_cast)',
    re.MULTILINE,
)


@dataclass
class EndToEnd:
    graph: str
    ops: int
    xdsl_opt: Timing
    """``xdsl-opt FILE.mlir -p relay-defuse``."""
    xdsl_opt_relay: Timing
    """``xdsl-opt FILE.relay -p relay-defuse``."""
    mlir_opt: Timing | None
    startup: Timing
    phases: dict[str, float]
    """In-process xdsl-opt phases on the ``.mlir`` file (seconds): parse, verify
    (twice), relay-defuse, print."""
    relay_phases: dict[str, float]
    """The same on the ``.relay`` file."""
    note: str = ""

    @property
    def pass_share(self) -> float:
        return self.phases["relay-defuse"] / self.xdsl_opt.median


def func_call_module(module: ModuleOp) -> ModuleOp:
    """`module` with each ``relay.fn`` outlined to a private ``func.func`` called once,
    and each other relay op an inlinable ``builtin.unrealized_conversion_cast``."""
    module = module.clone()
    for op in list(module.walk()):
        if op.name.startswith("relay.") and not isinstance(op, relay.FnOp | relay.ReturnOp):
            attributes = {"relay.op": StringAttr(op.name), **op.properties, **op.attributes}
            cast = UnrealizedConversionCastOp(
                operands=[list(op.operands)],
                result_types=[[r.type for r in op.results]],
                attributes=attributes,
            )
            for new, old in zip(cast.results, op.results):
                new.name_hint = old.name_hint
            cast.location = op.location
            Rewriter.replace_op(op, cast)
    outlined: list[FuncOp] = []
    for func in list(module.ops):
        for fn in [op for op in func.walk() if isinstance(op, relay.FnOp)]:
            name = f"fn_{len(outlined)}"
            block = fn.body.block
            fn.body.detach_block(block)
            terminator = block.last_op
            assert isinstance(terminator, relay.ReturnOp)
            Rewriter.replace_op(terminator, FuncReturnOp(terminator.value))
            result_type = fn.result.type
            outlined.append(
                FuncOp(
                    name,
                    FunctionType.from_lists([a.type for a in block.args], [result_type]),
                    Region(block),
                    "private",
                )
            )
            call = CallOp(name, list(fn.args), [result_type])
            call.results[0].name_hint = fn.result.name_hint
            Rewriter.replace_op(fn, call)
    for func in outlined:
        module.body.block.add_op(func)
    return module


def _count_relay_ops(text: str) -> int:
    """Operator calls and constants: the Relay text binds values with
    ``relay.let`` where the fused MLIR has none, so those are not counted."""
    return len(_OP_LINE.findall(text))


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return done


def _wall(command: list[str], policy: Policy) -> Timing:
    return measure(lambda _: _run(command), policy, children=True)


def alternating(commands: list[list[str]], policy: Policy) -> list[Timing]:
    """Wall and CPU time of each command, run in turns: a round runs each once.

    The first round's slowest command decides how many rounds `policy` allows.
    """
    times: list[list[float]] = [[] for _ in commands]
    cpu_times: list[list[float]] = [[] for _ in commands]
    rounds = 1
    while len(times[0]) < rounds:
        for command, wall, cpu in zip(commands, times, cpu_times, strict=True):
            cpu_start = _children_cpu_seconds()
            start = time.perf_counter()
            _run(command)
            wall.append(time.perf_counter() - start)
            cpu.append(_children_cpu_seconds() - cpu_start)
        if len(times[0]) == 1:
            rounds = policy.runs_after(max(wall[0] for wall in times), 0.0)
    return [Timing(wall, cpu) for wall, cpu in zip(times, cpu_times, strict=True)]


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _xdsl_opt() -> str:
    exe = Path(sys.executable).with_name("xdsl-opt")
    return str(exe) if exe.exists() else (shutil.which("xdsl-opt") or "xdsl-opt")


def in_process_phases(path: Path) -> dict[str, float]:
    """Where ``xdsl-opt path -p relay-defuse``'s time goes, phase by phase.

    xdsl-opt applies relay-xdsl's changes to xDSL when it loads the pass
    (tools/xdsl_opt/universe.py), before it parses, and runs with the
    collector paused; so does this.
    """
    from xdsl.xdsl_opt_main import xDSLOptMain

    xdsl_patches.apply()
    clear_memos()
    main = xDSLOptMain(args=[str(path), "-p", "relay-defuse"])
    steps = Steps()

    def defuse(module: ModuleOp) -> None:
        RelayDefusePass().apply(Context(), module)

    chunks, extension = main.prepare_input()
    ((chunk, _),) = chunks
    with gc_paused():
        module = steps.time("parse", lambda: main.parse_chunk(chunk, extension))
        chunk.close()
        assert module is not None
        steps.time("verify", module.verify)
        steps.time("relay-defuse", lambda: defuse(module))
        steps.time("verify", module.verify)
        steps.time("print", lambda: main.output_resulting_program(module))
    return steps.seconds


def run(name: str, fused: ModuleOp, ops: int, directory: Path, policy: Policy) -> EndToEnd:
    """Compare both tools on `fused` (our import of TVM's FuseOpsByPattern output)."""
    directory.mkdir(parents=True, exist_ok=True)
    ours = directory / f"{name}.fused.mlir"
    ours_relay = directory / f"{name}.fused.relay"
    theirs = directory / f"{name}.calls.mlir"
    empty = directory / "empty.mlir"
    ours.write_text(mlir_text(fused))
    with ours_relay.open("w") as output:
        output.writelines(relay_chunks(fused))
    theirs.write_text(mlir_text(func_call_module(fused), generic=True))
    empty.write_text("builtin.module {\n}\n")

    def xdsl_command(path: Path) -> list[str]:
        out = directory / f"{path.name}.xdsl-opt.out.mlir"
        return [_xdsl_opt(), str(path), "-p", "relay-defuse", "-o", str(out)]

    commands = [xdsl_command(ours), xdsl_command(ours_relay)]
    for command in commands:
        _run(command)
    xdsl_ops = _count_relay_ops(Path(commands[0][-1]).read_text())
    relay_ops = _count_relay_ops(Path(commands[1][-1]).read_text())
    if relay_ops != xdsl_ops:
        raise AssertionError(
            f"{name}: xdsl-opt printed {xdsl_ops} relay ops from MLIR, {relay_ops} from Relay text"
        )

    note = ""
    if MLIR_OPT.exists():
        mlir_out = directory / f"{name}.mlir-opt.out.mlir"
        mlir_command = [
            str(MLIR_OPT),
            "--allow-unregistered-dialect",
            "--inline=default-pipeline=",
            str(theirs),
            "-o",
            str(mlir_out),
        ]
        _run(mlir_command)
        text = mlir_out.read_text()
        if "func.call" in text or "call @" in text:
            raise AssertionError(f"{name}: mlir-opt --inline left calls behind")
        mlir_ops = _count_relay_ops(text)
        if mlir_ops != xdsl_ops:
            raise AssertionError(
                f"{name}: xdsl-opt printed {xdsl_ops} relay ops, mlir-opt {mlir_ops}"
            )
        xdsl, xdsl_relay, mlir = alternating([*commands, mlir_command], policy)
    else:
        note = f"{MLIR_OPT} not found"
        (xdsl, xdsl_relay), mlir = alternating(commands, policy), None
    startup = _wall([_xdsl_opt(), str(empty), "-p", "relay-defuse"], policy)
    return EndToEnd(
        name,
        ops,
        xdsl,
        xdsl_relay,
        mlir,
        startup,
        in_process_phases(ours),
        in_process_phases(ours_relay),
        note,
    )
