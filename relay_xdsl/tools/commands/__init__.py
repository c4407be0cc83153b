"""The subcommands of ``relay-xdsl``, one module each.

A command module has ``add_parser(commands, argv)``, which adds its
subparser and sets ``run`` (and ``default_format``, ``with_tvm``) as its
defaults; ``run(args)``, which does the work; and, where the command line
alone can be wrong, ``check_arguments(args, usage)``. Their modules import
what they need when they run, so that parsing a command line stays quick.
"""

from types import ModuleType

from relay_xdsl.tools.commands import (
    check,
    compare,
    compile,
    defuse,
    export,
    import_,
    import_torch,
    run,
    view,
)

COMMANDS: dict[str, ModuleType] = {
    "import": import_,
    "export": export,
    "defuse": defuse,
    "compare": compare,
    "view": view,
    "run": run,
    "compile": compile,
    "import-torch": import_torch,
    "check": check,
}
"""Each subcommand's module, in the order ``relay-xdsl --help`` lists them."""
