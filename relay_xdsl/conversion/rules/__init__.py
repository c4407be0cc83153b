"""The lowering rules of the operators, one module per operator family.

Each rule registers itself by operator name with ``@lowering(...)``
(:mod:`~relay_xdsl.conversion.registry`); importing this package
imports every family, which fills the registry. A rule emits TOSA
operations through ``call.emit`` and raises ``call.error(...)`` for what it
cannot lower.
"""

from relay_xdsl.conversion.rules import (  # noqa: F401  (each registers its rules)
    activations,
    bitwise,
    broadcast,
    casts,
    comparisons,
    convolutions,
    devices,
    division,
    elementwise,
    gather,
    nn,
    normalization,
    padding,
    pooling,
    powers,
    reductions,
    repetition,
    resize,
    rounding,
    sampling,
    shape,
    slicing,
    sorting,
    sub_pixel,
    transcendental,
    windows,
)
