"""Relax exports of the operators that no Relax operator maps onto 1:1.

An operator whose row has a :class:`~relay_xdsl.dialects.relay.relax_mapping.RelaxOp`
exports as that Relax operator. Any other operator exports through the
function registered for it here with ``@relax_export("nn.dense")``: a
composition of Relax operators (``nn.dense`` is ``permute_dims`` and
``matmul``), or, where no Relax operator fits, a TVM ``topi`` compute
emitted with ``BlockBuilder.call_te`` (``te=True``), as TVM's own
Relay-to-Relax translator did.

A composition takes the :class:`ExportContext`, the operator op (its
attributes and its recorded argument and result types) and the Relax
expressions of its arguments; it binds any intermediate values through the
context and returns the Relax expression of the result, which the exporter
binds under the op's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from relay_xdsl.support.registration import Registry

if TYPE_CHECKING:
    from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp


class RelaxExportError(Exception):
    """The module has something Relax cannot express (or lacks a constant's value)."""


class ExportContext(Protocol):
    """What a composition may do with the module being built."""

    def emit(self, expr: Any) -> Any:
        """Bind intermediate value `expr` in the current block; its variable."""
        ...

    def call_te(self, compute: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``compute`` (a ``te`` function of the arguments' tensors) as a PrimFunc of
        the module, and the ``call_tir`` of it on `args` (``BlockBuilder.call_te``)."""
        ...


Composition = Callable[["ExportContext", "RegisteredOperatorOp", list[Any]], Any]
"""``composition(context, op, args)``: the Relax expression of `op`'s result."""

RELAX_EXPORTS: Registry[Composition] = Registry(
    "Relax export", "relay_xdsl.exporters.relax_compositions"
)
"""Every composition by operator name; importing the package fills it."""

TE_EXPORTS: set[str] = set()
"""The operators whose composition emits a ``topi``/``te`` compute (``te=True``)."""

Applies = Callable[["RegisteredOperatorOp"], bool]

PREFERRED: dict[str, Applies] = {}
"""For operators that have a Relax mapping: when their composition replaces it
(``when=``), e.g. on a dtype TVM's mapped operator cannot compile."""


def relax_export(
    *names: str, te: bool = False, when: Applies | None = None
) -> Callable[[Composition], Composition]:
    """A decorator registering a composition as the Relax export of `names`;
    `te` says that it emits a ``te`` compute rather than Relax operators only;
    `when` says for which ops it replaces the operator's Relax mapping (otherwise
    it does so only where the mapping cannot express the attributes)."""
    if te:
        TE_EXPORTS.update(names)
    if when is not None:
        PREFERRED.update(dict.fromkeys(names, when))
    return RELAX_EXPORTS.register(*names)


def export_kind(name: str) -> str | None:
    """How operator `name` exports without a mapping: ``"composition"``,
    ``"te"``, or None when nothing is registered."""
    if name not in RELAX_EXPORTS:
        return None
    return "te" if name in TE_EXPORTS else "composition"
