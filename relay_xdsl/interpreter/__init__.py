"""A reference interpreter for the relay dialect, on numpy.

It runs a module's function with xDSL's interpreter framework: each op has
an implementation (structure.py, language.py, func's from xDSL), and every
Relay operator runs the kernel registered under its name (dispatch.py,
registry.py; kernels/). Values are numpy arrays, tuples, closures, references and ADT
values (values.py). It needs numpy (the ``interp`` extra); nothing below
the tools and transforms imports it.

    from relay_xdsl.interpreter import run
    outputs = run(module, {"x": x}, function="main")
"""

from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.runner import make_interpreter, parameters, run

__all__ = ["InterpreterError", "make_interpreter", "parameters", "run"]
