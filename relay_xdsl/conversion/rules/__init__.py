"""The lowering rules of the operators, one module per operator family.

A registry row's ``lowering`` names its rule as ``"module:function"`` in
this package (``"nn:conv2d"``). A rule takes the
:class:`~relay_xdsl.conversion.lowering.RuleCall` of one operator call and
returns the lowered result (a :class:`~relay_xdsl.conversion.values.Tensor`,
or a tuple of them for a tuple result); it emits TOSA operations through
``call.emit`` and raises ``call.error(...)`` for what it cannot lower.
"""
