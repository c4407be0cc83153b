"""``relay-xdsl compile``, and the compiled and TVM backends of ``run`` and ``check``.

    relay-xdsl compile FILE -o model.so [--emit tosa|llvm|runner|so] [--function NAME]
                       [--verbose] [--no-schedule] [--threads N] [--no-cache] [--params FILE]
                       [--random-constants SEED]
                       [--input NAME=FILE.npy ...] [--random-inputs SEED]
    relay-xdsl compile FILE --target iree -o model.vmfb [--iree-device cpu|cuda] ...

lowers @NAME (``main``) of a Relay program (Relay text or the relay
dialect) to TOSA with the conversion (relay_xdsl/conversion) and compiles it
with upstream MLIR (relay_xdsl/compiler). ``--emit`` says how far:

* ``tosa``: the lowered module, in the generic form upstream tools read;
* ``llvm``: the LLVM IR of the model (``mlir-translate`` 's output);
* ``runner``: the LLVM-dialect module with an entry ``@main()`` that runs
  the model on constant inputs (``--input``, ``--random-inputs``; the
  weights are constants too) and prints its outputs, for
  ``mlir-runner-22 -O3 -e main -entry-point-result=void -shared-libs=...``;
* ``so`` (the default): the shared library ``-o model.so``, with
  ``model.json`` (its signature) and ``model.npz`` (its weights) beside it,
  which relay_xdsl.compiler.runtime.CompiledModel loads.

With ``--target iree``, IREE (the optional extra ``iree``) compiles the same
TOSA instead (relay_xdsl/compiler/iree_build.py): ``--emit vmfb`` (its default)
writes the module ``-o model.vmfb``, with ``model.json`` and ``model.npz``
beside it, for ``--iree-device`` ``cpu`` (this machine's CPU, the default)
or ``cuda``, which compiles anywhere and runs where an NVIDIA GPU is.

``--verbose`` states the pipeline and the tools' command lines on stderr.
``--no-schedule`` compiles linalg to plain loops, without the vectorising
schedule (relay_xdsl/compiler/schedule.py), on one thread. With the schedule,
``--threads N`` (default: every core) runs the outer parallel loops of the
heavy ops on N threads with OpenMP (the library, or the runner module, then
needs LLVM's ``libomp``); ``--threads 1`` needs no OpenMP at all.
``--no-cache`` compiles every unit afresh, without the object cache
(relay_xdsl/compiler/cache.py).

``run FILE --backend mlir`` compiles into a temporary directory and runs the
library (on ``--threads N`` threads too); ``--backend iree`` compiles with IREE and runs the module on
``--threads N`` threads (relay_xdsl/compiler/iree_runtime.py); ``--backend tvm``
builds the Relax export with ``relax.build`` for ``llvm`` and runs it on the
Relax VM. ``check FILE --backend mlir|iree|interpreter --against-torch MODEL``
compares those backends' outputs with PyTorch's.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relay_xdsl.tools.commands.arguments import (
    ArgumentError,
    Subcommands,
    add_input,
    add_inputs,
    add_output,
    add_schedule_argument,
    add_threads_argument,
    add_weights,
    check_threads,
)
from relay_xdsl.tools.io import STDIO, CommandError, give_weights, load_module
from relay_xdsl.tools.progress import step

if TYPE_CHECKING:  # numpy and the compiler load when a command needs them
    import numpy as np
    from xdsl.dialects.builtin import ModuleOp

    from relay_xdsl.compiler.artifact import Program
    from relay_xdsl.compiler.pipeline import Schedule

TARGETS = ("mlir", "iree")
"""Who compiles: upstream MLIR (mlir-opt-22, clang-22) or IREE."""
EMITS = {"mlir": ("tosa", "llvm", "runner", "so"), "iree": ("tosa", "vmfb")}
"""What ``--emit`` may ask of each target; the last is its default."""
IREE_DEVICES = ("cpu", "cuda")
"""relay_xdsl.compiler.iree_build.DEVICES, named here so that parsing does not import it."""


def add_compile_arguments(command: argparse.ArgumentParser) -> None:
    """``compile`` 's own options (the input, -o and --random-constants are the CLI's)."""
    command.add_argument(
        "--target",
        choices=TARGETS,
        default="mlir",
        help="mlir: upstream MLIR and clang into a shared library (default); iree: IREE "
        "into a .vmfb module (pip install 'relay-xdsl[iree]')",
    )
    command.add_argument(
        "--emit",
        choices=list(dict.fromkeys(emit for emits in EMITS.values() for emit in emits)),
        help="tosa: the lowered module (generic MLIR); with --target mlir, llvm: LLVM IR; "
        "runner: an LLVM-dialect module for mlir-runner that prints the outputs; so: a shared "
        "library (default); with --target iree, vmfb: an IREE module (default)",
    )
    command.add_argument(
        "--iree-device",
        choices=IREE_DEVICES,
        help="with --target iree: the device to compile for: cpu (this machine's, the "
        "default) or cuda (compiles anywhere; running needs an NVIDIA GPU)",
    )
    command.add_argument(
        "--function", default="main", help="the global function to compile (default: main)"
    )
    command.add_argument(
        "--verbose", action="store_true", help="state the pipeline and the tools' command lines"
    )
    add_schedule_argument(command)
    add_threads_argument(command)


def default_schedule(threads: int | None = None) -> Schedule:
    """The vectorising schedule (relay_xdsl/compiler/schedule.py), its parallel loops on
    `threads` threads (default: every core)."""
    from relay_xdsl.compiler.schedule import vectorize
    from relay_xdsl.support.cores import default_threads

    return vectorize(default_threads() if threads is None else threads)


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``compile`` subcommand and its arguments."""
    command = commands.add_parser(
        "compile",
        help="lower to TOSA and compile with upstream MLIR into a shared library (or with IREE)",
    )
    add_input(command, "a .relay or .mlir file")
    add_output(command, "output file (a shared library with --emit so, a module with vmfb)")
    add_compile_arguments(command)
    add_weights(command)
    add_inputs(command, "with --emit runner: ")
    command.set_defaults(run=run, default_format="mlir")


def run(args: argparse.Namespace) -> None:
    """``relay-xdsl compile``."""
    from relay_xdsl.compiler import build
    from relay_xdsl.compiler.errors import CompileError
    from relay_xdsl.compiler.pipeline import describe, stages
    from relay_xdsl.compiler.runner import runner_module
    from relay_xdsl.tools.commands.run import input_arrays
    from relay_xdsl.tools.io import write

    if args.emit in ("so", "vmfb") and (args.output is None or args.output == STDIO):
        what = "a shared library" if args.emit == "so" else "an IREE module"
        raise CommandError(f"--emit {args.emit} writes {what}: give -o FILE.{args.emit}")
    if args.target == "iree":
        _require_iree()
    schedule = None if args.no_schedule else default_schedule(args.threads)
    pipeline = stages(schedule)
    log = _stderr_log if args.verbose else None
    module = load_module(args.input, args.input_format)
    give_weights(module, args, args.function)
    try:
        program = lower_program(
            module,
            args.function,
            args.random_constants,
            weights_as_arguments=args.emit != "runner",
            in_place_taps=args.target != "iree",
        )
        if args.emit == "tosa":
            write(args.output, build.generic_text(program))
            return
        if args.emit == "so":
            build.build(
                program,
                Path(args.output),
                schedule=schedule,
                cache=not args.no_cache,
                step=step,
                log=log,
            )
            return
        if args.emit == "vmfb":
            from relay_xdsl.compiler.iree_build import DEVICES, build_vmfb

            device = DEVICES[args.iree_device or "cpu"]
            build_vmfb(program, Path(args.output), device, step=step, log=log)
            return
        if log is not None:
            log(f"pipeline (mlir-opt stages):\n{describe(pipeline).rstrip()}")
        if args.emit == "runner":
            arrays = input_arrays(args.inputs, program.inputs, args.random_inputs)
            runner = runner_module(program, list(arrays.values()))
            text = build.module_text(runner)
        else:
            text = build.generic_text(program)
        llvm = build.lower_to_llvm_dialect(text, pipeline, schedule, step=step, log=log)
        if args.emit == "llvm":
            llvm = build.translate_to_llvm_ir(llvm, step=step, log=log)
        write(args.output, llvm)
    except CompileError as error:
        raise CommandError(str(error)) from None


def lower_program(
    module: ModuleOp,
    function: str,
    random_constants: int | None,
    *,
    weights_as_arguments: bool = True,
    in_place_taps: bool = True,
) -> Program:
    """`module` 's @`function` through the conversion, with progress; for
    IREE without `in_place_taps` (relay_xdsl/compiler/iree_build.py)."""
    from relay_xdsl.compiler.frontend import lower
    from relay_xdsl.tools.io import check_constants_have_values

    check_constants_have_values(module, random_constants)

    with step(f"lowering @{function} to TOSA"):
        return lower(
            module,
            function=function,
            weights_as_arguments=weights_as_arguments,
            random_constants=random_constants,
            in_place_taps=in_place_taps,
        )


def run_compiled(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str = "main",
    random_constants: int | None = None,
    *,
    scheduled: bool = True,
    cached: bool = True,
    threads: int | None = None,
) -> list[np.ndarray]:
    """@`function` of `module` compiled (with the vectorising schedule if `scheduled`, its
    parallel loops on `threads` threads, default every core; with the object cache if
    `cached`) and run on `inputs` (by parameter name, in order)."""
    from relay_xdsl.compiler.build import build
    from relay_xdsl.compiler.runtime import CompiledModel

    schedule = default_schedule(threads) if scheduled else None

    def compile_and_load(program: Program, directory: Path) -> Callable[..., list[np.ndarray]]:
        library = directory / f"{function}.so"
        build(program, library, schedule=schedule, cache=cached, step=step)
        return CompiledModel.load(library)

    return _compile_and_run(compile_and_load, module, inputs, function, random_constants)


def run_iree(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str = "main",
    random_constants: int | None = None,
    *,
    threads: int | None = None,
) -> list[np.ndarray]:
    """@`function` of `module` compiled by IREE for this CPU and run on `threads` threads
    (default: every core) on `inputs` (by parameter name, in order)."""
    from relay_xdsl.compiler.iree_build import build_vmfb
    from relay_xdsl.compiler.iree_runtime import IreeModel

    _require_iree()

    def compile_and_load(program: Program, directory: Path) -> Callable[..., list[np.ndarray]]:
        path = directory / f"{function}.vmfb"
        build_vmfb(program, path, step=step)
        return IreeModel.load(path, threads=threads)

    return _compile_and_run(
        compile_and_load, module, inputs, function, random_constants, in_place_taps=False
    )


def _compile_and_run(
    compile_and_load: Callable[[Program, Path], Callable[..., list[np.ndarray]]],
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str,
    random_constants: int | None,
    *,
    in_place_taps: bool = True,
) -> list[np.ndarray]:
    """@`function` lowered (`in_place_taps` as `lower_program` 's), compiled and
    loaded by `compile_and_load` (in a temporary directory), and run on `inputs`."""
    import tempfile

    from relay_xdsl.compiler.errors import CompileError

    try:
        program = lower_program(module, function, random_constants, in_place_taps=in_place_taps)
        if len(inputs) != len(program.inputs):
            raise CompileError(
                f"the lowered @{function} takes {len(program.inputs)} inputs, "
                f"the program has {len(inputs)} parameters"
            )
        with tempfile.TemporaryDirectory(prefix="relay-xdsl-") as directory:
            model = compile_and_load(program, Path(directory))
        with step("running the compiled model"):
            return model(*inputs.values())  # the parameters' order is the inputs'
    except CompileError as error:
        raise CommandError(str(error)) from None


def _require_iree() -> None:
    """IREE's compiler and runtime, before any work; else a one-line error naming the extra."""
    from relay_xdsl.compiler.errors import CompileError
    from relay_xdsl.compiler.iree_build import iree_package

    try:
        iree_package("iree.compiler")
        iree_package("iree.runtime")
    except CompileError as error:
        raise CommandError(str(error)) from None


def run_backend(
    backend: str,
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str,
    args: argparse.Namespace,
) -> list[np.ndarray]:
    """@`function` of `module` run on `inputs` by the compiled `backend` (mlir, iree or tvm),
    with the command line's --random-constants, --no-schedule, --no-cache and --threads."""
    if backend == "iree":
        return run_iree(module, inputs, function, args.random_constants, threads=args.threads)
    if backend == "mlir":
        return run_compiled(
            module,
            inputs,
            function,
            args.random_constants,
            scheduled=not args.no_schedule,
            cached=not args.no_cache,
            threads=args.threads,
        )
    return run_tvm(module, inputs, function, args.random_constants)


def run_tvm(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str = "main",
    random_constants: int | None = None,
) -> list[np.ndarray]:
    """@`function` of `module` exported to Relax, built for ``llvm`` by TVM and run on its VM."""
    from relay_xdsl.tools.tvm_bridge import relax_module, tvm_models

    if function != "main":
        raise CommandError("--backend tvm runs main only (the Relax export's entry)")
    with step("loading TVM"):
        models = tvm_models()
    mod = relax_module(module, random_constants)
    with step("building with relax.build(target='llvm') and running on the Relax VM"):
        return models.run(mod, *inputs.values())


def run_for_check(
    backend: str,
    module: ModuleOp,
    example_input: Callable[[tuple[int, ...]], Any],
    args: argparse.Namespace,
) -> tuple[tuple[int, ...], np.ndarray]:
    """For ``check --backend mlir|iree|interpreter``: main's input shape, and its one output
    on ``example_input(shape)``."""
    from relay_xdsl.interpreter import InterpreterError, parameters, run
    from relay_xdsl.interpreter.arrays import tensor_dtype

    try:
        params = parameters(module, "main")
        if len(params) != 1:
            raise CommandError(f"main takes {len(params)} parameters; a torchvision model one")
        name, type_ = params[0]
        shape = tuple(getattr(type_, "get_shape", tuple)())
        array = example_input(shape).numpy().astype(tensor_dtype(type_))
        if backend == "interpreter":
            with step("running the module with the reference interpreter"):
                outputs = run(module, {name: array}, "main", args.random_constants)
        else:
            outputs = run_backend(backend, module, {name: array}, "main", args)
    except InterpreterError as error:
        raise CommandError(str(error)) from None
    if len(outputs) != 1:
        raise CommandError(f"main returns {len(outputs)} tensors; a torchvision model one")
    return shape, outputs[0]


def _stderr_log(message: str) -> None:
    for line in message.splitlines():
        print(f"relay-xdsl: {line}", file=sys.stderr)


def check_arguments(args: argparse.Namespace, usage: str) -> None:
    """What the command line alone shows wrong, before any work; ``--emit`` 's default,
    which depends on ``--target``."""
    emits = EMITS[args.target]
    if args.emit is None:
        args.emit = emits[-1]
    elif args.emit not in emits:
        raise ArgumentError(
            f"argument --emit: --target {args.target} emits {', '.join(emits)}, not '{args.emit}'",
            usage,
        )
    if args.iree_device is not None and args.target != "iree":
        raise ArgumentError("argument --iree-device: '--iree-device' needs --target iree", usage)
    check_threads(args, usage, "--target")
    if args.emit != "runner":
        for given, option in ((args.inputs, "--input"), (args.random_inputs, "--random-inputs")):
            if given not in (None, []):
                raise ArgumentError(f"argument {option}: '{option}' needs --emit runner", usage)
