"""The kernels of the Relay operators, one module per family of operators.

Each kernel registers itself by operator name with ``@kernel(...)``
(:mod:`~relay_xdsl.interpreter.registry`); importing this package
imports every family, which fills the registry. Kernels follow TVM v0.19's
semantics (topi); each says where it differs from numpy's. They never
modify their arguments, and use vectorised numpy, never loops over elements.
"""

from relay_xdsl.interpreter.kernels import (  # noqa: F401  (each registers its kernels)
    broadcasting,
    devices,
    dynamic,
    elementwise,
    gather,
    image,
    nn,
    pooling,
    reductions,
    relax_only,
    shape,
    sorting,
)
