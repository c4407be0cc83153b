"""Relay text for type definitions, constructors and match, with function values and if."""

from __future__ import annotations

from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay

TEXT = """#[version = "0.0.5"]
type Option[A] {
  Some(A),
  None,
}

extern type Storage

def @get(%o: Option[float32] /* ty=Option[float32] */, %d: float32 /* ty=float32 */, %c: bool /* ty=bool */) -> float32 {
  %1 = fn (%x: float32 /* ty=float32 */) -> float32 {
    %0 = match? (%o) {
      Some(%v: float32 /* ty=float32 */) => {
        %v
      },
    };
    add(%x, %0) /* ty=float32 */
  } /* ty=fn (float32) -> float32 */;
  %2 = (%1,) /* ty=(fn (float32) -> float32,) */;
  if (%c) {
    %3 = Some(%d) /* ty=Option[float32] */;
    %4 = @unwrap(%3) /* ty=float32 */;
    %5 = %2.0 /* ty=fn (float32) -> float32 */;
    %5(%4) /* ty=float32 */
  } else {
    %d
  }
}

def @unwrap(%o: Option[float32] /* ty=Option[float32] */) -> float32 {
  match? (%o) {
    Some(%v: float32 /* ty=float32 */) => {
      %v
    },
  }
}

def @nothing() -> Option[_] {
  None /* ty=Option[_] */
}
"""


def test_printed_text_is_what_was_read():
    # A match inside a closure stored in a tuple, an if, a constructor
    # without fields, a call of a function value, a definition after its
    # use, a body of unknown type.
    assert print_relay(parse_relay(TEXT, "option.relay")) == TEXT + "\n"
