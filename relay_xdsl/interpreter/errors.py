"""The interpreter's one error: a program it cannot run, said in Relay's terms."""

from __future__ import annotations


class InterpreterError(Exception):
    """The program cannot be run: an operator without a kernel, a constant
    without a value, a missing or ill-typed input, a failed ``match``, ..."""
