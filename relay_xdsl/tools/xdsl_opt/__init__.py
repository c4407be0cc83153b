"""relay-xdsl inside ``xdsl-opt``: the ``xdsl.universe`` entry point (universe.py),
reading xdsl-opt's command line (command_line.py), and its input errors
printed as diagnostics (excepthook.py)."""
