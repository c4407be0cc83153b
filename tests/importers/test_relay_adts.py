"""Relay text with algebraic data types: TVM's standard library round-trips,
types are worked out as far as the text determines them, and mistakes are
clean errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.dtypes import element_type
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, TypeVarType
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import RelayTextError, parse_relay

STD = Path(__file__).parent / "std"
HEADER = '#[version = "0.0.5"]\n'
LIST = "type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}\n"


def _std_text(name: str) -> str:
    """A library file as TVM's parser reads it: nat.rly into the prelude's module."""
    if name == "nat":
        nat = (STD / "nat.rly").read_text()
        return (STD / "prelude.rly").read_text() + re.sub(r"#\[version[^\n]*\n", "", nat)
    return (STD / f"{name}.rly").read_text()


def _round_trip(text: str) -> tuple[ModuleOp, str]:
    module = parse_relay(text, "input.relay")
    module.verify()
    printed = print_relay(module)
    again = parse_relay(printed, "printed.relay")
    again.verify()
    assert print_relay(again) == printed, "print(parse(print(x))) is not a fixpoint"
    return module, printed


@pytest.mark.parametrize("name", ["prelude", "core", "nat", "gradient"])
def test_std_library_round_trips(name: str):
    module, printed = _round_trip(_std_text(name))
    again = parse_relay(printed, "printed.relay")
    # The same definitions, functions and ops (independent ones, such as a
    # constant and a call, may come in another order).
    assert sorted(op.name for op in again.walk()) == sorted(op.name for op in module.walk())


def test_std_files_keep_their_license_header():
    for path in STD.glob("*.rly"):
        assert path.read_text().startswith("/*\n * Licensed to the Apache Software Foundation")


def test_prelude_definitions():
    module = parse_relay(_std_text("prelude"), "prelude.rly")
    type_defs = [op for op in module.ops if isinstance(op, relay.TypeDefOp)]
    assert [t.type_name.data for t in type_defs] == ["List", "Option", "Tree"]
    tree = type_defs[2]
    (rose,) = tree.constructors.data
    assert rose.fields.data[1] == AdtType("List", [AdtType("Tree", [TypeVarType("A")])])
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
    assert len(functions) == 24
    hd = functions["hd"]
    assert hd.attributes[relay.TYPE_PARAMS].data[0] == TypeVarType("A")
    assert hd.function_type.outputs.data[0] == TypeVarType("A")
    # @sum instantiates the generic @foldl at int32.
    (call,) = [op for op in functions["sum"].walk() if isinstance(op, relay.CallOp)]
    assert call.result.type == TensorType(element_type("int32"), [])


def test_nil_takes_its_type_from_the_cons_around_it():
    module = parse_relay(
        HEADER + LIST + "def @main(%x: float32) {\n  Cons(%x, Nil)\n}\n", "list.relay"
    )
    nil, cons = [op for op in module.walk() if isinstance(op, relay.ConstructOp)]
    assert (
        nil.result.type
        == cons.result.type
        == AdtType("List", [TensorType(element_type("float32"), [])])
    )


def test_nil_alone_is_a_list_of_unknown_elements():
    module, printed = _round_trip(HEADER + LIST + "def @main() {\n  Nil\n}\n")
    (nil,) = [op for op in module.walk() if isinstance(op, relay.ConstructOp)]
    assert nil.result.type == AdtType("List", [IncompleteType()])
    # The unknown element type prints as `_`, which TVM's parser reads as unknown.
    assert "def @main() -> List[_] {\n  Nil /* ty=List[_] */\n}" in printed


def test_match_joins_its_clauses_types():
    text = (
        HEADER
        + LIST
        + (
            "def @f(%x: float32, %l: List[float32]) {\n"
            "  match (%l) {\n    Cons(_, %rest) => %rest,\n    Nil => Nil,\n  }\n}\n"
        )
    )
    module, printed = _round_trip(text)
    (match,) = [op for op in module.walk() if isinstance(op, relay.MatchOp)]
    assert match.result.type == AdtType("List", [TensorType(element_type("float32"), [])])
    assert "Nil /* ty=List[float32] */" in printed


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "def @f(%x: float32) {\n  match (%x) { Foo => %x }\n}",
            "undefined constructor name `Foo`",
        ),
        (
            "def @f(%l: List[float32]) {\n  match (%l) { (%a, %b) => %a }\n}",
            "a tuple pattern of 2 field(s) cannot match a value of type List[float32]",
        ),
        (
            "def @f(%l: List[float32]) {\n  match (%l) { Cons(%a) => %a }\n}",
            "constructor Cons has 2 field(s), the pattern gives 1",
        ),
        ("def @f(%x: float32) {\n  Cons(%x)\n}", "constructor Cons takes 2 field(s), got 1"),
        (
            "def @f(%x: float32, %l: List[int32]) {\n  Cons(%x, %l)\n}",
            "field #1 of Cons has type List[int32], which does not fit List[A]",
        ),
        (
            "def @f(%l: List[float32], %x: float32) {\n  match (%l) { Nil => %x, Cons(_, %r) => %r }\n}",
            "the clauses of this match have different types",
        ),
        ("def @f(%l: List) {\n  %l\n}", "type List takes 1 type argument(s), got 0"),
        ("extern type S { C }\ndef @f() { 0 }", "an external type may not have any constructors"),
    ],
)
def test_mistakes_are_errors_with_a_position(source: str, message: str):
    with pytest.raises(RelayTextError) as error:
        parse_relay(HEADER + LIST + source, "bad.relay")
    first_line = str(error.value).splitlines()[0]
    assert re.match(r"bad\.relay:\d+:\d+: error: ", first_line), first_line
    assert message in first_line, first_line


@pytest.mark.parametrize(
    ("clauses", "cases"),
    [
        ("", "_"),  # no clause handles anything
        ("Nil => 0f", "Cons(_, _)"),
        ("Cons(%a, Cons(_, _)) => %a, Nil => 0f", "Cons(_, Nil)"),
        ("Cons(%a, Nil) => %a", "Nil, Cons(_, Cons(_, _))"),  # in TVM's order
    ],
)
def test_a_match_that_misses_cases_is_an_error_naming_them(clauses: str, cases: str):
    # TVM's type inference: "match expression does not handle the following cases".
    source = f"def @f(%l: List[float32]) -> float32 {{\n  match (%l) {{ {clauses} }}\n}}"
    with pytest.raises(RelayTextError) as error:
        parse_relay(HEADER + LIST + source, "bad.relay")
    first_line = str(error.value).splitlines()[0]
    expected = (
        f"bad.relay:7:3: error: match expression does not handle the following cases: {cases}"
    )
    assert first_line == expected


@pytest.mark.parametrize(
    "clauses",
    [
        "Cons(%a, _) => %a, Nil => 0f",
        "Cons(%a, Cons(_, _)) => %a, Cons(%b, Nil) => %b, Nil => 0f",
        "%any => 0f",  # a variable handles every value
        "Nil => 0f, _ => 1f",
    ],
)
def test_a_match_that_handles_every_case_imports(clauses: str):
    source = f"def @f(%l: List[float32]) -> float32 {{\n  match (%l) {{ {clauses} }}\n}}"
    parse_relay(HEADER + LIST + source, "good.relay")


def test_a_partial_match_may_miss_cases():
    source = "def @f(%l: List[float32]) -> float32 {\n  match? (%l) { Cons(%a, _) => %a }\n}"
    parse_relay(HEADER + LIST + source, "partial.relay")


def test_tuple_patterns_are_checked_field_by_field():
    source = (
        "def @f(%p: (List[float32], List[float32])) -> float32 {\n  match (%p) {"
        " (Nil, _) => 0f, (_, Nil) => 1f, (Cons(%a, _), Cons(_, Cons(_, _))) => %a }\n}"
    )
    with pytest.raises(RelayTextError, match=re.escape("cases: (Cons(_, _), Cons(_, Nil))")):
        parse_relay(HEADER + LIST + source, "bad.relay")


TVM_LIST = "type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}\n"


@pytest.mark.parametrize(
    "text",
    [
        # TVM v0.19 test_ir_parser.py's ADT programs.
        "type Ayy { Nil }",
        "type my_dtype {\n  my_cons(Tensor[(?, 1), uint16]),\n}",
        "type Ayy { }",
        TVM_LIST,
        "type Either[A, B] {\n  Left(A),\n  Right(B),\n}",
        TVM_LIST + "def @length[A](%xs: List[A]) -> int32 {\n  match (%xs) {\n"
        "    Cons(_, %rest : List[A]) => { 1 + @length(%rest) },\n    Nil => 0,\n  }\n}",
        TVM_LIST + "def @length[A](%xs: List[A]) -> int32 {\n  match? (%xs) {\n"
        "    Cons(_, %rest : List[A]) => { 1 + @length(%rest) },\n    Nil => 0,\n  }\n}",
        TVM_LIST + "def @make_singleton(%x: int32) -> List[int32] {\n  Cons(%x, Nil)\n}",
        "extern type T[A]",
    ],
)
def test_tvm_parser_adt_programs_round_trip(text: str):
    _round_trip(HEADER + text)


def test_tvm_parser_duplicate_adt_definition_is_an_error():
    with pytest.raises(RelayTextError, match="duplicate definition of type List"):
        parse_relay(HEADER + TVM_LIST + TVM_LIST, "bad.relay")


def test_tvm_parser_constructor_named_like_a_type_is_an_error():
    # TVM v0.19 test_ir_parser.py's test_duplicate_adt_cons_defn.
    with pytest.raises(RelayTextError, match="`Lmao` names both a type and a constructor"):
        parse_relay(HEADER + "type Ayy { Lmao }\ntype Lmao { Ayy }\n", "bad.relay")


@pytest.mark.parametrize(
    ("text", "call"),
    [
        # TVM v0.19 test_pass_defunctionalization.py: generic functions passed
        # as values; their type parameters are solved with the callee's.
        (
            LIST + "def @id[A](%x: A) -> A {\n  %x\n}\n"
            "def @map[A, B](%f: fn(A) -> B, %xs: List[A]) -> List[B] {\n  match (%xs) {\n"
            "    Cons(%x, %rest) => Cons(%f(%x), @map(%f, %rest)),\n    Nil => Nil,\n  }\n}\n"
            "def @main(%l: List[float32]) -> List[float32] {\n  @map(@id, %l)\n}\n",
            "@map(@id, %l) /* ty=List[float32] */",
        ),
        (
            (
                "def @simple[A, B](%f: fn(A) -> B, %xs: A) -> B {\n  %f(%xs)\n}\n"
                "def @main(%l: Tensor[(5, 5), float32]) -> Tensor[(5, 5), float32] {\n"
                "  %0 = fn[A](%x: A) -> A {\n    %x\n  };\n  @simple(%0, %l)\n}\n"
            ),
            "@simple(%0, %l) /* ty=Tensor[(5, 5), float32] */",
        ),
        (
            # A binding before a clause's value, and a generic global passed
            # where a monomorphic function is expected.
            LIST + "def @sum(%f: fn(int32) -> int32, %k: List[int32]) -> int32 {\n"
            "  match (%k) {\n    Cons(%x, %rest) => %0 = fn(%n) {\n      %x + %f(%n)\n    };\n"
            "    @sum(%0, %rest),\n    Nil => %f(0),\n  }\n}\n"
            "def @id[A](%x: A) -> A {\n  %x\n}\n"
            "def @main(%l: List[int32]) -> int32 {\n  @sum(@id, %l)\n}\n",
            "@sum(@id, %l) /* ty=int32 */",
        ),
    ],
)
def test_generic_functions_as_values(text: str, call: str):
    _, printed = _round_trip(HEADER + text)
    assert call in printed
