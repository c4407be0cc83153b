"""The compiler's one error class: what it reports to the user, without a traceback."""


class CompileError(Exception):
    """A program the compiler cannot compile or run, a tool that failed, a bad artifact or input."""
