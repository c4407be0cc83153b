"""Extract the Relay texts of TVM's Python test suite into a corpus directory.

    python -m bench.relay_corpus.extract /work/.mirror/apache+tvm/repo [--tag v0.19.0] [--out DIR]

Reads the test files straight from the git objects of a TVM clone (no work tree,
no TVM install, no network) and finds, with Python's ``ast`` module, every
string that TVM's tests hand to its Relay parser:

* direct calls of ``tvm.relay.parse`` / ``fromtext`` / ``parse_expr`` (and the
  older ``tvm.parser.*`` spellings);
* calls of test helpers that pass one of their parameters on to such a call
  (``parse_text``, ``assert_parses_as``, ``parse_module``, ``optimize_and_check``,
  ...), found by following parameters through the helpers to a fixpoint;
* the expected outputs of ``test_ir_text_printer.py`` (``assert_prints_as`` and
  ``astext(...) == ...``), which that file's ``astext`` helper parses back.

The argument is evaluated when it is built from literals only: string constants,
``+``, ``%`` and ``.format`` formatting, f-strings, ``textwrap.dedent``, names
assigned a literal earlier in the function or module, and ``for`` loops over
literal collections (one text per iteration). Anything else (``mod.astext()``,
values computed at run time) is listed in the index as skipped, with the reason.

A text counts as expected to fail when its parser call sits inside a
``with pytest.raises(...)`` block (directly or inside the helper that was
called). A text is an expression when TVM reads it with ``parse_expr``, and a
module otherwise. Python-side context TVM's call also received (an
``init_meta_table`` or ``init_module`` argument) is recorded. A module text
that calls a global function it does not define, which its test's
``init_module`` supplies, is rejected by TVM's parser without that module (an
undefined global fails its type inference): its ``alone`` says so, and the
corpus measures it as a text TVM rejects.

Every string literal of the test suite that mentions ``#[version``, ``def @`` or
``fn (`` but reaches no parser is listed under ``unreached`` in the index.

Output: ``<out>/<testfile>__<func>__<n>.relay`` (``testfile`` prefixed with its
directory outside ``tests/python/relay``, ``func`` without its ``test_``
prefix, ``n`` counting the distinct texts of that function from 1, in source
order) and ``<out>/index.json``. An entry's ``legacy`` lists the files of
``tests/importers`` (an earlier, partial extraction the pytest suite reads) that
hold the same text.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "tests" / "relay_corpus" / "tvm_v0.19"
LEGACY_FOLDERS = [
    ROOT / "tests" / "importers" / d for d in ("expressions", "fixtures", "unsupported")
]

# Last component of a dotted call name -> the kind of text TVM's function parses.
PARSER_FUNCTIONS = {"parse": "module", "fromtext": "module", "parse_expr": "expression"}
# Prefixes under which those names are TVM's parser (and not, say, argparse).
PARSER_OWNERS = {"relay", "parser", "tvm.relay", "tvm.parser"}
MARKERS = ("#[version", "def @", "fn (")
MAX_VARIANTS = 64


class Unknown(Exception):
    """The expression is not built from literals only."""


@dataclass
class Found:
    file: str
    line: int
    function: str
    kind: str
    expect: str
    via: str
    context: list[str] = field(default_factory=list)
    texts: list[str] | None = None
    skipped: str | None = None


@dataclass
class Helper:
    """A function of the test file that passes its parameter ``index`` to the parser."""

    index: int
    name: str
    kind: str
    expect: str
    prefix_nodes: list[ast.expr] = field(default_factory=list)


def dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return "?"


def parser_kind(call: ast.Call) -> str | None:
    name = dotted(call.func)
    owner, _, last = name.rpartition(".")
    if last in PARSER_FUNCTIONS and (owner in PARSER_OWNERS or owner.endswith(".relay")):
        return PARSER_FUNCTIONS[last]
    return None


class Scope:
    """Where a node sits: its enclosing functions, ``for`` loops and ``with`` blocks."""

    def __init__(self, tree: ast.Module):
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.tree = tree

    def chain(self, node: ast.AST) -> list[ast.AST]:
        out = []
        while node in self.parents:
            node = self.parents[node]
            out.append(node)
        return out

    def functions(self, node: ast.AST) -> list[ast.FunctionDef]:
        return [n for n in self.chain(node) if isinstance(n, ast.FunctionDef)]

    def outer_function(self, node: ast.AST) -> str:
        functions = self.functions(node)
        return functions[-1].name if functions else "module"

    def in_raises(self, node: ast.AST) -> bool:
        for n in self.chain(node):
            if isinstance(n, ast.With):
                for item in n.items:
                    ctx = item.context_expr
                    if isinstance(ctx, ast.Call) and dotted(ctx.func).endswith("raises"):
                        return True
            if isinstance(n, ast.FunctionDef):
                return False
        return False


class Evaluator:
    """Evaluates literal-only expressions; each result is the list of its variants."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.module_env: dict[str, list[Any]] = {}
        for stmt in scope.tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name):
                    try:
                        self.module_env[target.id] = self.values(stmt.value, {})
                    except Unknown:
                        self.module_env.pop(target.id, None)

    def env_at(self, node: ast.AST) -> list[dict[str, list[Any]]]:
        """The name bindings visible at ``node``: one environment per loop iteration.

        The statements of the enclosing functions that precede ``node`` run in order
        (assignments, ``+=``, and ``for`` loops made of those); a ``for`` loop around
        ``node`` gives one environment per iteration.
        """
        line = getattr(node, "lineno", 0)
        envs: list[dict[str, list[Any]]] = [dict(self.module_env)]
        for function in reversed(self.scope.functions(node)):
            envs = [self.run(function.body, env, node, line) for env in envs]
        for loop in reversed([n for n in self.scope.chain(node) if isinstance(n, ast.For)]):
            try:
                items = self.values(loop.iter, envs)
            except Unknown:
                continue
            new_envs = []
            for env, iterable in itertools.product(envs, items):
                for element in iterable:
                    bound = dict(env)
                    try:
                        self.bind(loop.target, element, bound)
                    except Unknown:
                        continue
                    new_envs.append(self.run(loop.body, bound, node, line))
            envs = new_envs[:MAX_VARIANTS]
        return envs

    def run(self, body: list[ast.stmt], env: dict, node: ast.AST, line: int) -> dict:
        """Runs the literal-only statements of ``body`` that end before ``line``."""
        env = dict(env)
        for stmt in body:
            if stmt.lineno >= line:
                break
            contains = node in ast.walk(stmt)
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name):
                    try:
                        env[target.id] = self.values(stmt.value, env)
                    except Unknown:
                        env.pop(target.id, None)
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                binop = ast.BinOp(left=stmt.target, op=stmt.op, right=stmt.value)
                try:
                    env[stmt.target.id] = self.values(binop, env)
                except Unknown:
                    env.pop(stmt.target.id, None)
            elif isinstance(stmt, ast.For) and not contains and not stmt.orelse:
                try:
                    (iterable,) = self.values(stmt.iter, env)
                except (Unknown, ValueError):
                    continue
                for element in list(iterable)[:10000]:
                    try:
                        self.bind(stmt.target, element, env)
                    except Unknown:
                        break
                    env = self.run(stmt.body, env, node, line)
            elif isinstance(stmt, ast.If | ast.With | ast.Try) and contains:
                env = self.run(stmt.body, env, node, line)
        return env

    def bind(self, target: ast.expr, value: Any, env: dict[str, list[Any]]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = [value]
        elif isinstance(target, ast.Tuple) and isinstance(value, tuple | list):
            if len(target.elts) != len(value):
                raise Unknown("unpacking")
            for t, v in zip(target.elts, value, strict=True):
                self.bind(t, v, env)
        else:
            raise Unknown("loop target")

    def values(self, node: ast.expr, envs: list[dict[str, list[Any]]] | dict) -> list[Any]:
        if isinstance(envs, dict):
            envs = [envs]
        out: list[Any] = []
        for env in envs:
            for value in self._values(node, env):
                if value not in out:
                    out.append(value)
        return out[:MAX_VARIANTS]

    def _values(self, node: ast.expr, env: dict[str, list[Any]]) -> list[Any]:
        v = self._values
        if isinstance(node, ast.Constant):
            return [node.value]
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            raise Unknown(f"name {node.id}")
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            parts = [v(e, env) for e in node.elts]
            combos = [tuple(c) for c in itertools.product(*parts)][:MAX_VARIANTS]
            if isinstance(node, ast.Set):
                return [tuple(sorted(c, key=repr)) for c in combos]
            return combos
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise Unknown("dict unpacking")
            out_dict: dict[Any, Any] = {}
            for k, x in zip(node.keys, node.values, strict=True):
                assert k is not None
                try:
                    out_dict[v(k, env)[0]] = v(x, env)[0]
                except Unknown:
                    out_dict[v(k, env)[0]] = None
            return [out_dict]
        if isinstance(node, ast.IfExp):
            return v(node.body, env) + v(node.orelse, env)
        if isinstance(node, ast.Subscript):
            out = []
            for base in v(node.value, env):
                try:
                    keys = v(node.slice, env)
                except Unknown:
                    if not isinstance(base, dict):
                        raise
                    keys = list(base)  # any entry: one text each
                for key in keys:
                    try:
                        out.append(base[key])
                    except (KeyError, IndexError, TypeError) as error:
                        raise Unknown("subscript") from error
            return out
        if isinstance(node, ast.BinOp):
            left, right = v(node.left, env), v(node.right, env)
            out = []
            for a, b in itertools.product(left, right):
                try:
                    if isinstance(node.op, ast.Add):
                        out.append(a + b)
                    elif isinstance(node.op, ast.Mod) and isinstance(a, str):
                        out.append(a % b)
                    elif isinstance(node.op, ast.Mult):
                        out.append(a * b)
                    elif isinstance(node.op, ast.Sub) and isinstance(a, int):
                        out.append(a - b)
                    else:
                        raise Unknown("operator")
                except (TypeError, ValueError) as error:
                    raise Unknown(str(error)) from error
            return out
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return [-x for x in v(node.operand, env)]
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    parts.append([value.value])
                elif isinstance(value, ast.FormattedValue):
                    spec = str(v(value.format_spec, env)[0]) if value.format_spec else ""
                    parts.append(
                        [format(_convert(x, value.conversion), spec) for x in v(value.value, env)]
                    )
                else:
                    raise Unknown("f-string part")
            return ["".join(c) for c in itertools.product(*parts)][:MAX_VARIANTS]
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name in ("str", "range") and not node.keywords:
                args = [v(a, env) for a in node.args]
                return [str(*c) if name == "str" else range(*c) for c in itertools.product(*args)]
            if name in ("textwrap.dedent", "dedent") and len(node.args) == 1:
                return [textwrap.dedent(x) for x in v(node.args[0], env)]
            if isinstance(node.func, ast.Attribute) and node.func.attr == "keys" and not node.args:
                return v(node.func.value, env)
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "strip"):
                bases = v(node.func.value, env)
                args = [v(a, env) for a in node.args]
                if any(k.arg is None for k in node.keywords):
                    raise Unknown("**kwargs")
                kwargs = {str(k.arg): v(k.value, env) for k in node.keywords}
                out = []
                for base in bases:
                    if not isinstance(base, str):
                        raise Unknown("method of a non-string")
                    for combo in itertools.product(*args, *kwargs.values()):
                        pos, kw = combo[: len(args)], combo[len(args) :]
                        method = getattr(base, node.func.attr)
                        out.append(method(*pos, **dict(zip(kwargs, kw, strict=True))))
                return out
        raise Unknown(ast.unparse(node)[:60])


def _convert(value: Any, conversion: int) -> Any:
    """An f-string's ``!s``, ``!r`` or ``!a`` (``-1``: none)."""
    if conversion == ord("s"):
        return str(value)
    if conversion == ord("r"):
        return repr(value)
    if conversion == ord("a"):
        return ascii(value)
    return value


def call_text_arg(call: ast.Call, index: int, keyword: str | None = None) -> ast.expr | None:
    if len(call.args) > index and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    for k in call.keywords:
        if k.arg in (keyword, "source", "code", "program"):
            return k.value
    return None


def context_of(call: ast.Call) -> list[str]:
    """Python-side context a ``tvm.relay.parse`` call passes besides the text."""
    context = []
    names = ["source_name", "init_module", "init_meta_table"]
    for i, arg in enumerate(call.args[1:4], start=1):
        if i >= 2 and not (isinstance(arg, ast.Constant) and arg.value is None):
            context.append(names[i - 1])
    for k in call.keywords:
        if k.arg in ("init_module", "init_meta_table") and not (
            isinstance(k.value, ast.Constant) and k.value.value is None
        ):
            context.append(k.arg)
    return context


def find_helpers(tree: ast.Module, scope: Scope) -> dict[str, list[Helper]]:
    """Functions whose parameters reach a parser call, to a fixpoint over the file."""
    helpers: dict[str, list[Helper]] = {}
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    changed = True
    while changed:
        changed = False
        for function in functions:
            if function.name.startswith("test_"):
                continue
            params = [a.arg for a in function.args.args]
            known = {h.index for h in helpers.get(function.name, [])}
            for call in ast.walk(function):
                if not isinstance(call, ast.Call):
                    continue
                kind = parser_kind(call)
                raises = scope.in_raises(call)
                targets: list[tuple[int, str, str]] = []
                if kind is not None:
                    targets.append((0, kind, "error" if raises else "parse"))
                for helper in helpers.get(dotted(call.func), []):
                    expect = "error" if raises or helper.expect == "error" else "parse"
                    targets.append((helper.index, helper.kind, expect))
                for index, target_kind, expect in targets:
                    arg = call_text_arg(call, index)
                    # The parameter itself, or SEMVER-style literals added in front of it.
                    prefix: list[ast.expr] = []
                    while isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add):
                        prefix.insert(0, arg.left)
                        arg = arg.right
                    if not (isinstance(arg, ast.Name) and arg.id in params):
                        continue
                    position = params.index(arg.id)
                    if position in known:
                        continue
                    known.add(position)
                    helpers.setdefault(function.name, []).append(
                        Helper(position, function.name, target_kind, expect, prefix)
                    )
                    changed = True
    return helpers


def extract_file(path: str, source: str) -> tuple[list[Found], list[dict[str, Any]]]:
    tree = ast.parse(source)
    scope = Scope(tree)
    evaluator = Evaluator(scope)
    helpers = find_helpers(tree, scope)
    helper_defs = {
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in helpers
    }
    found: list[Found] = []
    reached: set[int] = set()

    def record(
        call: ast.Call,
        arg: ast.expr,
        kind: str,
        expect: str,
        via: str,
        prefix: Sequence[ast.expr] = (),
    ) -> None:
        item = Found(
            file=path,
            line=arg.lineno,
            function=scope.outer_function(call),
            kind=kind,
            expect=expect,
            via=via,
            context=context_of(call) if parser_kind(call) == "module" else [],
        )
        for node in ast.walk(arg):
            if isinstance(node, ast.Constant):
                reached.add(id(node))
        try:
            texts = []
            for env in evaluator.env_at(call):
                heads = [evaluator.values(p, env) for p in prefix]
                for combo in itertools.product(*heads, evaluator.values(arg, env)):
                    text = "".join(combo)
                    if not isinstance(text, str):
                        raise Unknown("not a string")
                    if text not in texts:
                        texts.append(text)
            item.texts = texts
        except (Unknown, TypeError) as error:
            item.skipped = f"not a literal: {error}"
        found.append(item)

    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        inside_helper = any(f in helper_defs for f in scope.functions(call))
        kind = parser_kind(call)
        raises = scope.in_raises(call)
        if kind is not None:
            if inside_helper:
                continue  # measured at the helper's call sites
            arg = call_text_arg(call, 0)
            if arg is not None:
                record(call, arg, kind, "error" if raises else "parse", dotted(call.func))
            continue
        name = dotted(call.func)
        for helper in [] if inside_helper else helpers.get(name, []):
            arg = call_text_arg(call, helper.index)
            if arg is not None:
                expect = "error" if raises or helper.expect == "error" else "parse"
                record(call, arg, helper.kind, expect, name, helper.prefix_nodes)

    if Path(path).name == "test_ir_text_printer.py":
        printer_expectations(tree, scope, evaluator, found, reached)

    texts = [t for item in found for t in item.texts or []]
    unreached = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in reached
            and any(m in node.value for m in MARKERS)
        ):
            continue
        literal = node.value
        if any(literal in t or textwrap.dedent(literal) in t for t in texts):
            continue  # built into a text that reached the parser
        docstring = isinstance(scope.parents.get(node), ast.Expr)
        if not docstring and literal.strip().startswith("#[version") and "def @" in literal:
            # A whole program that the test hands to TVM some other way (a file, a fixture).
            found.append(
                Found(
                    file=path,
                    line=node.lineno,
                    function=scope.outer_function(node),
                    kind="module",
                    expect="parse",
                    via="string literal (no parser call in sight: written to a file or a fixture)",
                    texts=[literal],
                )
            )
            continue
        unreached.append(
            {
                "file": path,
                "line": node.lineno,
                "function": scope.outer_function(node),
                "what": "docstring or bare string" if docstring else "string literal",
                "first_line": next((ln.strip() for ln in literal.splitlines() if ln.strip()), "")[
                    :100
                ],
            }
        )
    return found, unreached


def printer_expectations(
    tree: ast.Module, scope: Scope, evaluator: Evaluator, found: list[Found], reached: set[int]
) -> None:
    """``assert_prints_as(e, TEXT)`` and ``astext(e) == TEXT``: the helper parses TEXT back."""
    semver: ast.expr = ast.Name(id="SEMVER", ctx=ast.Load())
    for node in ast.walk(tree):
        arg = None
        prefix: tuple[ast.expr, ...] = ()
        if isinstance(node, ast.Call) and dotted(node.func) == "assert_prints_as":
            if len(node.args) == 2:
                arg, prefix = node.args[1], (semver,)
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Call)
            and dotted(node.left.func) == "astext"
            and len(node.comparators) == 1
            and isinstance(node.ops[0], ast.Eq)
        ):
            arg = node.comparators[0]
        if arg is None:
            continue
        for inner in ast.walk(arg):
            if isinstance(inner, ast.Constant):
                reached.add(id(inner))
        item = Found(
            file=found[0].file if found else "",
            line=arg.lineno,
            function=scope.outer_function(node),
            kind="expression",
            expect="parse",
            via="astext (printer expectation, parsed back by parse_expr)",
        )
        try:
            texts = []
            for env in evaluator.env_at(node):
                heads = [evaluator.values(p, env) for p in prefix]
                for combo in itertools.product(*heads, evaluator.values(arg, env)):
                    texts.append("".join(combo))
            item.texts = list(dict.fromkeys(texts))
        except Unknown as error:
            item.skipped = f"not a literal: {error}"
        found.append(item)


def git(repo: str, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", *args], check=True, capture_output=True, text=True
    ).stdout


def read_blobs(repo: str, ref: str, paths: list[str]) -> list[str]:
    """The files ``paths`` at ``ref``, through one ``git cat-file --batch``."""
    request = "".join(f"{ref}:{path}\n" for path in paths).encode()
    out = subprocess.run(
        ["git", f"--git-dir={repo}", "cat-file", "--batch"],
        input=request,
        check=True,
        capture_output=True,
    ).stdout
    blobs = []
    position = 0
    for _ in paths:
        header_end = out.index(b"\n", position)
        size = int(out[position:header_end].split()[2])
        blobs.append(out[header_end + 1 : header_end + 1 + size].decode())
        position = header_end + 1 + size + 1  # the blob, then a newline
    return blobs


def file_stem(path: str) -> str:
    """``test_ir_parser`` for Relay's own tests, ``tensorflow_test_forward`` elsewhere."""
    p = Path(path)
    if "relay" in p.parts:
        return p.stem
    return f"{p.parent.name}_{p.stem}"


def legacy_names() -> dict[str, list[str]]:
    """Text -> the files of tests/importers holding it (an earlier, partial extraction)."""
    names: dict[str, list[str]] = {}
    for folder in LEGACY_FOLDERS:
        for path in sorted(folder.glob("*.relay")):
            names.setdefault(path.read_text(), []).append(str(path.relative_to(ROOT)))
    return names


_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_GLOBAL_USE = re.compile(r"@([A-Za-z_][\w.]*)")
_GLOBAL_DEF = re.compile(r"\bdef\s+@([A-Za-z_][\w.]*)")


def undefined_globals(text: str) -> list[str]:
    """The global functions a module text uses but does not define, in order."""
    code = _COMMENT.sub(" ", text)
    defined = set(_GLOBAL_DEF.findall(code))
    used = dict.fromkeys(_GLOBAL_USE.findall(code))
    return [name for name in used if name not in defined]


def rejected_alone(kind: str, context: list[str], text: str) -> str | None:
    """Why TVM's parser rejects `text` without its test's ``init_module``, or None."""
    if kind != "module" or "init_module" not in context:
        return None
    missing = undefined_globals(text)
    if not missing:
        return None
    names = ", ".join(f"@{name}" for name in missing)
    return (
        f"uses {names}, which the test's init_module defines; TVM's parser rejects the text "
        "alone (an undefined global)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.relay_corpus.extract")
    parser.add_argument("repo", help="git directory of a TVM clone (a bare mirror is fine)")
    parser.add_argument("--tag", default="v0.19.0")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    ref = f"refs/tags/{args.tag}"
    commit = git(args.repo, "rev-parse", f"{ref}^{{commit}}").strip()
    paths = [
        p
        for p in git(args.repo, "ls-tree", "-r", "--name-only", ref, "tests/").splitlines()
        if p.endswith(".py")
    ]
    legacy = legacy_names()
    entries: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    unreached: list[dict[str, Any]] = []
    for path, source in zip(paths, read_blobs(args.repo, ref, paths), strict=True):
        if not any(m in source for m in ("parse", "fromtext", *MARKERS)):
            continue
        try:
            found, missed = extract_file(path, source)
        except SyntaxError:
            continue
        unreached.extend(missed)
        counters: dict[str, list[str]] = {}
        for item in sorted(found, key=lambda f: f.line):
            if item.texts is None:
                skipped.append(
                    {
                        "file": item.file,
                        "line": item.line,
                        "function": item.function,
                        "via": item.via,
                        "reason": item.skipped,
                    }
                )
                continue
            stem = file_stem(path)
            func = item.function.removeprefix("test_")
            seen = counters.setdefault(func, [])
            for text in item.texts:
                if text in seen:
                    continue
                seen.append(text)
                name = f"{stem}__{func}__{len(seen)}"
                entry = {
                    "name": name,
                    "file": item.file,
                    "line": item.line,
                    "function": item.function,
                    "kind": item.kind,
                    "expect": item.expect,
                    "via": item.via,
                }
                if item.context:
                    entry["context"] = item.context
                alone = rejected_alone(item.kind, item.context, text)
                if alone is not None and item.expect == "parse":
                    entry["alone"] = alone
                if len(item.texts) > 1:
                    entry["variant_of"] = f"{len(item.texts)} texts from one call site"
                if text in legacy:
                    entry["legacy"] = legacy[text]
                entry["text"] = text
                entries.append(entry)

    names = [e["name"] for e in entries]
    assert len(names) == len(set(names)), "duplicate corpus names"
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.relay"):
        old.unlink()
    for entry in entries:
        (args.out / f"{entry['name']}.relay").write_text(entry.pop("text"))
    index = {
        "source": f"apache/tvm {args.tag} ({commit}), tests/**/*.py",
        "generated_by": "python -m bench.relay_corpus.extract",
        "texts": entries,
        "skipped": skipped,
        "unreached": unreached,
    }
    (args.out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    print(
        f"{len(entries)} texts ({sum(e['expect'] == 'error' for e in entries)} expected to fail),"
        f" {len(skipped)} call sites skipped, {len(unreached)} unreached literals -> {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
