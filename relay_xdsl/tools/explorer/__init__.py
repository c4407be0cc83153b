"""relay-xdsl's Model Explorer extension.

Model Explorer loads an extension package's ``main`` module, so this package
is what ``--extensions`` names::

    model-explorer model.relay --extensions=relay_xdsl.tools.explorer

``main.py`` holds the adapter, ``launch.py`` starts Model Explorer with it
(``relay-xdsl view FILE --explorer``).
"""
