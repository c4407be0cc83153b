"""Relax exports of the operators no Relax operator maps onto 1:1, one module
per family; each registers itself with ``@relax_export(...)``
(:mod:`~relay_xdsl.exporters.relax_compositions.registry`), and importing
this package imports every family, which fills the registry."""

from relay_xdsl.exporters.relax_compositions import (  # noqa: F401  (each registers its exports)
    elementwise,
    image,
    nn,
    reductions,
    shape,
    widening,
)
