"""``relay-xdsl compile``, and the compiled and TVM backends of ``run`` and ``check``.

    relay-xdsl compile FILE -o model.so [--emit tosa|llvm|runner|so] [--function NAME]
                       [--verbose] [--no-schedule] [--params FILE] [--random-constants SEED]
                       [--input NAME=FILE.npy ...] [--random-inputs SEED]

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

``--verbose`` states the pipeline and the tools' command lines on stderr.
``--no-schedule`` compiles linalg to plain loops, without the vectorising
schedule (relay_xdsl/compiler/schedule.py).

``run FILE --backend mlir`` compiles into a temporary directory and runs the
library; ``--backend tvm`` builds the Relax export with ``relax.build`` for
``llvm`` and runs it on the Relax VM. ``check FILE --backend mlir|interpreter
--against-torch MODEL`` compares those backends' outputs with PyTorch's.
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
    add_weights,
)
from relay_xdsl.tools.io import STDIO, CommandError, give_weights, load_module
from relay_xdsl.tools.progress import step

if TYPE_CHECKING:  # numpy and the compiler load when a command needs them
    import numpy as np
    from xdsl.dialects.builtin import ModuleOp

    from relay_xdsl.compiler.artifact import Program
    from relay_xdsl.compiler.pipeline import Schedule

EMITS = ("tosa", "llvm", "runner", "so")


def add_compile_arguments(command: argparse.ArgumentParser) -> None:
    """``compile`` 's own options (the input, -o and --random-constants are the CLI's)."""
    command.add_argument(
        "--emit",
        choices=EMITS,
        default="so",
        help="tosa: the lowered module (generic MLIR); llvm: LLVM IR; runner: an LLVM-dialect "
        "module for mlir-runner that prints the outputs; so: a shared library (default)",
    )
    command.add_argument(
        "--function", default="main", help="the global function to compile (default: main)"
    )
    command.add_argument(
        "--verbose", action="store_true", help="state the pipeline and the tools' command lines"
    )
    add_schedule_argument(command)


def default_schedule() -> Schedule:
    """The vectorising schedule (relay_xdsl/compiler/schedule.py)."""
    from relay_xdsl.compiler.schedule import SCHEDULE

    return SCHEDULE


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``compile`` subcommand and its arguments."""
    command = commands.add_parser(
        "compile", help="lower to TOSA and compile with upstream MLIR into a shared library"
    )
    add_input(command, "a .relay or .mlir file")
    add_output(command, "output file (a shared library with --emit so)")
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

    if args.emit == "so" and (args.output is None or args.output == STDIO):
        raise CommandError("--emit so writes a shared library: give -o FILE.so")
    schedule = None if args.no_schedule else default_schedule()
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
        )
        if args.emit == "tosa":
            write(args.output, build.generic_text(program))
            return
        if args.emit == "so":
            build.build(program, Path(args.output), schedule=schedule, step=step, log=log)
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
) -> Program:
    """`module` 's @`function` through the conversion, with progress."""
    from relay_xdsl.compiler.frontend import lower
    from relay_xdsl.tools.io import check_constants_have_values

    check_constants_have_values(module, random_constants)

    with step(f"lowering @{function} to TOSA"):
        return lower(
            module,
            function=function,
            weights_as_arguments=weights_as_arguments,
            random_constants=random_constants,
        )


def run_compiled(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str = "main",
    random_constants: int | None = None,
    *,
    scheduled: bool = True,
) -> list[np.ndarray]:
    """@`function` of `module` compiled (with the vectorising schedule if `scheduled`) and
    run on `inputs` (by parameter name, in order)."""
    import tempfile

    from relay_xdsl.compiler.build import build
    from relay_xdsl.compiler.errors import CompileError
    from relay_xdsl.compiler.runtime import CompiledModel

    try:
        program = lower_program(module, function, random_constants)
        if len(inputs) != len(program.inputs):
            raise CompileError(
                f"the lowered @{function} takes {len(program.inputs)} inputs, "
                f"the program has {len(inputs)} parameters"
            )
        with tempfile.TemporaryDirectory(prefix="relay-xdsl-") as directory:
            library = Path(directory) / f"{function}.so"
            schedule = default_schedule() if scheduled else None
            build(program, library, schedule=schedule, step=step)
            model = CompiledModel.load(library)
        with step("running the compiled model"):
            return model(*inputs.values())  # the parameters' order is the inputs'
    except CompileError as error:
        raise CommandError(str(error)) from None


def run_tvm(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str = "main",
    random_constants: int | None = None,
    *,
    scheduled: bool = True,
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
    """For ``check --backend mlir|interpreter``: main's input shape, and its one output
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
            outputs = run_compiled(
                module, {name: array}, "main", args.random_constants, scheduled=not args.no_schedule
            )
    except InterpreterError as error:
        raise CommandError(str(error)) from None
    if len(outputs) != 1:
        raise CommandError(f"main returns {len(outputs)} tensors; a torchvision model one")
    return shape, outputs[0]


def _stderr_log(message: str) -> None:
    for line in message.splitlines():
        print(f"relay-xdsl: {line}", file=sys.stderr)


def check_arguments(args: argparse.Namespace, usage: str) -> None:
    """What the command line alone shows wrong, before any work."""
    if args.emit != "runner":
        for given, option in ((args.inputs, "--input"), (args.random_inputs, "--random-inputs")):
            if given not in (None, []):
                raise ArgumentError(f"argument {option}: '{option}' needs --emit runner", usage)
