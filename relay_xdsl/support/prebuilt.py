"""Building an xDSL attribute from parameters already known to satisfy its definition.

A ``ParametrizedAttribute``'s constructor runs its definition's verifier on
every parameter. For a location (``NameLoc``, ``FileLineColLoc``) or an
``i64`` index that costs ten times building the object, and an import builds
one per op. Where the caller has made the parameters itself, of the kinds the
definition checks (a ``StringAttr`` and a location, ``IntAttr`` line and
column), `prebuilt` makes the same attribute, equal and hashing alike,
without checking them again. Anything from outside goes through the
constructor. `prebuilt_data` does the same for a ``Data`` attribute (a
``StringAttr`` of a str, an ``IntAttr`` of an int), whose constructor
checks its value's kind.
"""

from __future__ import annotations

from typing import Any, TypeVar

from xdsl.ir import Attribute, Data, ParametrizedAttribute

A = TypeVar("A", bound=ParametrizedAttribute)
D = TypeVar("D", bound=Data[Any])


def prebuilt(cls: type[A], *parameters: Attribute) -> A:
    """``cls(*parameters)`` without the verifier: `parameters` must be valid
    for `cls`, in its definition's order."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(name for name, _ in cls.get_irdl_definition().parameters)
    assert len(parameters) == len(names)
    attribute = cls.__new__(cls)
    # The fields a frozen dataclass's __init__ would set, in its order.
    attribute.__dict__.update(zip(names, parameters))
    return attribute


_NAMES: dict[type[ParametrizedAttribute], tuple[str, ...]] = {}
"""Each class's parameter names, in definition order."""


def prebuilt_data(cls: type[D], data: object) -> D:
    """``cls(data)`` without the verifier: `data` must be valid for `cls`."""
    attribute = cls.__new__(cls)
    attribute.__dict__["data"] = data
    return attribute
