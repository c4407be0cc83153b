"""The kernels of the Relay operators, one module per family of operators.

A registry row names its kernel ``"module:function"`` (``"elementwise:exp"``
is :func:`relay_xdsl.interpreter.kernels.elementwise.exp`). A kernel takes
the call (:class:`~relay_xdsl.dialects.relay.inference.Call`: argument types,
attributes with TVM's defaults, ``result_type``) and the argument arrays (a
tuple of arrays for a tuple argument), and returns the result array, or a
tuple of arrays for a tuple result. Kernels follow TVM v0.19's semantics
(topi); each says where it differs from numpy's. They never modify their
arguments, and use vectorised numpy, never loops over elements.
"""
