"""``relay-xdsl run``: run a Relay program with the reference interpreter (or another backend).

    relay-xdsl run FILE [--function NAME] [--input NAME=file.npy ...]
                        [--random-inputs SEED] [--params FILE] [--random-constants SEED]
                        [-o out.npz] [--backend interpreter|mlir|iree|tvm] [--threads N]

``--params FILE`` (a TVM params file or an ``.npz``) binds parameters of the
function and gives constants their values, by name; ``--random-constants
SEED`` gives the constants still without values (``meta[relay.Constant][i]``
without ``#[metadata]``) random ones, drawn by role as ``export --to
relax-script`` draws them (io.give_weights). Each remaining parameter of
the function (``main`` by default) takes the array of its ``--input`` (a
``.npy`` file, of the parameter's shape and dtype) or, with
``--random-inputs SEED``, a random one: floats uniform in [-1, 1), integers
in [0, 8), drawn from SEED in parameter order. The outputs are the result's tensors
(a tuple's in order), named ``output0``, ``output1``, ...: printed with
their shape and dtype (numpy's printing, big arrays summarised), or saved
with ``-o out.npz``.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from relay_xdsl.tools.commands.arguments import (
    BACKENDS,
    BACKENDS_HELP,
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

if TYPE_CHECKING:  # numpy and the interpreter load when the command runs, not when it parses
    import numpy as np
    from xdsl.ir import Attribute

PRINT_THRESHOLD = 200
"""Arrays with more elements print summarised (their first and last few)."""


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``run`` subcommand and its arguments."""
    command = commands.add_parser(
        "run", help="run a program with the reference interpreter (or --backend mlir|iree|tvm)"
    )
    add_input(command, "a .relay or .mlir file")
    command.add_argument(
        "--function", default="main", help="the global function to run (default: main)"
    )
    add_inputs(command)
    add_weights(command)
    add_output(command, "save the outputs to an .npz file", "print them")
    command.add_argument(
        "--backend",
        choices=BACKENDS,
        default="interpreter",
        help=f"{BACKENDS_HELP} (default: interpreter)",
    )
    add_schedule_argument(command)
    add_threads_argument(command)
    command.set_defaults(run=run, default_format="mlir")


def run(args: argparse.Namespace) -> None:
    from relay_xdsl.interpreter import InterpreterError, parameters
    from relay_xdsl.interpreter import run as interpret

    module = load_module(args.input, args.input_format)
    give_weights(module, args, args.function)
    try:
        params = parameters(module, args.function)
        inputs = input_arrays(args.inputs, params, args.random_inputs)
        if args.backend == "interpreter":
            outputs = interpret(module, inputs, args.function, args.random_constants)
        else:
            from relay_xdsl.interpreter.runner import check_inputs
            from relay_xdsl.tools.commands.compile import run_backend

            check_inputs(params, inputs)
            outputs = run_backend(args.backend, module, inputs, args.function, args)
    except InterpreterError as error:
        raise CommandError(str(error)) from None
    names = [f"output{i}" for i in range(len(outputs))]
    if args.output is None or args.output == STDIO:
        sys.stdout.write(format_outputs(zip(names, outputs)))
        sys.stdout.flush()
    else:
        _save(args.output, dict(zip(names, outputs)))


def input_arrays(
    specs: Sequence[tuple[str, str]], params: Sequence[tuple[str, Attribute]], seed: int | None
) -> dict[str, np.ndarray]:
    """The arrays of `params`, by name and in their order: from the ``--input`` `specs`,
    else random ones drawn from `seed`."""
    from relay_xdsl.interpreter import InterpreterError
    from relay_xdsl.interpreter.random_values import random_inputs

    names = {name for name, _ in params}
    inputs: dict[str, np.ndarray] = {}
    for name, path in specs:
        if name not in names:
            raise CommandError(
                f"--input {name}: the function has no parameter {name} "
                f"(its parameters: {', '.join(n for n, _ in params) or 'none'})"
            )
        if name in inputs:
            raise CommandError(f"--input {name} is given twice")
        inputs[name] = _load_npy(name, path)
    missing = [(name, type_) for name, type_ in params if name not in inputs]
    if missing and seed is not None:
        try:
            inputs |= random_inputs(missing, seed)
        except InterpreterError as error:
            raise CommandError(str(error)) from None
    elif missing:
        raise CommandError(
            f"missing input {missing[0][0]}: give --input {missing[0][0]}=FILE.npy "
            "or --random-inputs SEED"
        )
    return {name: inputs[name] for name, _ in params}


def _load_npy(name: str, path: str) -> np.ndarray:
    import numpy as np

    try:
        array = np.load(path, allow_pickle=False)
    except OSError as error:
        raise CommandError(
            f"--input {name}: cannot read {path}: {error.strerror or error}"
        ) from None
    except (ValueError, EOFError, zipfile.BadZipFile):
        raise CommandError(f"--input {name}: {path} is not a .npy file") from None
    if not isinstance(array, np.ndarray):
        array.close()
        raise CommandError(f"--input {name}: {path} is an .npz archive, not a .npy file")
    return array


def format_outputs(outputs: Iterable[tuple[str, np.ndarray]]) -> str:
    """Each output as ``name: (shape) dtype`` and its values, numpy's printing."""
    import numpy as np

    pieces = []
    for name, array in outputs:
        shape = ", ".join(map(str, array.shape)) + ("," if array.ndim == 1 else "")
        dtype = "bool" if array.dtype == np.bool_ else str(array.dtype)
        values = np.array2string(array, threshold=PRINT_THRESHOLD, edgeitems=3, max_line_width=100)
        pieces.append(f"{name}: ({shape}) {dtype}\n{values}\n")
    return "".join(pieces)


def _save(path: str, arrays: dict[str, np.ndarray]) -> None:
    import numpy as np

    try:
        with open(path, "wb") as file:
            # numpy's stub reads the keywords as savez's own `allow_pickle`.
            cast(Any, np.savez)(file, **arrays)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror}") from None


def check_arguments(args: argparse.Namespace, usage: str) -> None:
    """``--threads`` needs ``--backend mlir`` or ``iree``; TVM's steps run with the collector on."""
    check_threads(args, usage)
    if args.backend == "tvm":
        args.with_tvm = True
