"""Implementations that register themselves under operator names.

Interpreter kernels, lowering rules and Relax exports each live in their own
layer and name the operators they implement with a decorator
(``@kernel("nn.conv2d")``), as xDSL's ``@impl(Op)`` does; the operator table
in the dialect names none of them. A :class:`Registry` is the table one such
decorator fills.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

Implementation = TypeVar("Implementation", bound=Callable[..., object])
Function = TypeVar("Function", bound=Callable[..., object])


class Registry(Generic[Implementation]):
    """Operator name → implementation, filled by :meth:`register` when the
    implementing modules are imported (`package`, imported on first lookup)."""

    def __init__(self, what: str, package: str):
        self.what = what
        """What an implementation is, for error messages ("kernel", "lowering rule")."""
        self.package = package
        """The package whose import registers every implementation."""
        self._implementations: dict[str, Implementation] = {}
        self._loaded = False

    def register(self, *names: str) -> Callable[[Function], Function]:
        """A decorator registering its function as the implementation of `names`."""

        def decorate(function: Function) -> Function:
            for name in names:
                previous = self._implementations.get(name)
                if previous is not None and previous is not function:
                    raise ValueError(
                        f"'{name}' has two {self.what}s: {_where(previous)} and {_where(function)}"
                    )
                self._implementations[name] = function  # type: ignore[assignment]
            return function

        return decorate

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            __import__(self.package)

    def get(self, name: str) -> Implementation | None:
        """The implementation of operator `name`, or None."""
        self._load()
        return self._implementations.get(name)

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def names(self) -> Iterator[str]:
        """Every registered operator name."""
        self._load()
        return iter(sorted(self._implementations))


def _where(function: Callable[..., object]) -> str:
    return f"{function.__module__}.{function.__qualname__}"
