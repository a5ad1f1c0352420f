"""The shape of the code inside the layers, checked on the source (issue 36, "the house").

One way only. Under `validators/` and `trace_parsers/` a *unit* is a family package
(`validators/countdown/`) or a module beside them (`validators/exact_arithmetic.py`,
`trace_parsers/sos.py`); the packages' own `__init__.py` are units too (`validators`,
`trace_parsers`). No two units may import each other, directly or round a longer loop. Imports
inside functions count: a late import hides a cycle from Python's import machinery, not from a
reader. The registry finding the families' `domains.py` by name (core/discovery.py) is no import
statement and is not an edge; that is how the registry sits above every family.

Private names stay in their module. `from a.b import _x` (a function, class or constant named
with a leading underscore) is refused anywhere in the project's own code when `a.b` is another
module, even in the same package: a helper one sibling needs is public for that sibling, and its
name says so. A private *module* (`from trace_parsers import _thinking`, `validators/x/_y.py`)
is a different thing: tests/test_layers.py lets a family's private modules be used inside it,
and this test leaves module imports alone. Not covered: the tests (they reach into internals on
purpose) and other people's privates (textscan/gates.py reads CPython's `re._parser`; that is a
dependency on Python, not a crossing between our modules).

ALLOWED_PRIVATE_IMPORTS names the packages excused from the private-name rule, each with why;
an entry is to go away with its reason.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO

GRAPH_ROOTS = ("validators", "trace_parsers")
NOT_PROJECT_CODE = {".venv", ".git", "data", "__pycache__", "tests"}
ALLOWED_PRIVATE_IMPORTS: dict[str, str] = {}  # package -> why it may cross; none today


@dataclass(frozen=True)
class ImportLine:
    """One imported module (and, for `from m import n`, the name n) at a line of a file."""

    line: int
    module: str
    name: str | None = None


def module_name(path: Path, repo: Path) -> str:
    parts = list(path.relative_to(repo).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files(repo: Path, under: tuple[str, ...] | None = None) -> list[Path]:
    """The project's own Python files (all of them, or those under the given top-level folders)."""
    roots = [repo / name for name in under] if under else [repo]
    files = (p for root in roots for p in root.rglob("*.py"))
    return sorted(p for p in files
                  if not any(part in NOT_PROJECT_CODE or part.startswith(".venv")
                             for part in p.relative_to(repo).parts))


def imports_of(path: Path, me: str) -> list[ImportLine]:
    """Every import statement of a file, anywhere in it; relative imports resolved against `me`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: list[ImportLine] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [ImportLine(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out += [ImportLine(node.lineno, module, alias.name) for alias in node.names]
    return out


def is_module(repo: Path, dotted: str) -> bool:
    path = repo.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def unit_of(module: str) -> str | None:
    """The unit a module belongs to: `validators.countdown.answer` -> `validators.countdown`."""
    parts = module.split(".")
    if parts[0] not in GRAPH_ROOTS:
        return None
    return ".".join(parts[:2])


def package_graph(repo: Path) -> dict[str, dict[str, str]]:
    """unit -> {imported unit: where the first such import is}, over GRAPH_ROOTS."""
    graph: dict[str, dict[str, str]] = {}
    for path in project_files(repo, GRAPH_ROOTS):
        me = module_name(path, repo)
        source = unit_of(me)
        if source is None:
            continue
        edges = graph.setdefault(source, {})
        for imp in imports_of(path, me):
            full = f"{imp.module}.{imp.name}" if imp.name else imp.module
            target = unit_of(full if imp.name and is_module(repo, full) else imp.module)
            if target is not None and target != source:
                edges.setdefault(target, f"{path.relative_to(repo)}:{imp.line}")
    return graph


def cycles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """Every strongly connected set of two or more units (Tarjan), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                members.append(top)
                if top == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def describe(cycle: list[str], graph: dict[str, dict[str, str]]) -> str:
    members = set(cycle)
    edges = [f"{a} -> {b} ({where})" for a in cycle for b, where in sorted(graph.get(a, {}).items()) if b in members]
    return "cycle between " + ", ".join(cycle) + ": " + "; ".join(edges)


def private_name_imports(repo: Path) -> list[str]:
    """`from a.b import _x` of one of our modules' private names, from any other module."""
    found = []
    for path in project_files(repo):
        me = module_name(path, repo)
        if any(me == pkg or me.startswith(pkg + ".") for pkg in ALLOWED_PRIVATE_IMPORTS):
            continue
        for imp in imports_of(path, me):
            if imp.name is None or not imp.name.startswith("_") or imp.name.startswith("__"):
                continue
            if imp.module == me or not is_module(repo, imp.module) or is_module(repo, f"{imp.module}.{imp.name}"):
                continue
            found.append(f"{path.relative_to(repo)}:{imp.line} imports {imp.module}.{imp.name} (a private name)")
    return found


# ---------------------------------------------------------------- on the tree

def test_no_import_cycle_between_packages():
    graph = package_graph(REPO)
    assert [describe(c, graph) for c in cycles(graph)] == []


def test_no_private_name_is_imported_from_another_module():
    assert private_name_imports(REPO) == []


def test_every_allowed_package_exists():
    assert all(is_module(REPO, pkg) for pkg in ALLOWED_PRIVATE_IMPORTS)


# ---------------------------------------------------------------- the checkers can fail

def test_cycles_finds_loops_and_nothing_else():
    graph = {"a": {"b": "a.py:1"}, "b": {"c": "b.py:2"}, "c": {"a": "c.py:3"},
             "d": {"e": "d.py:1"}, "e": {"d": "e.py:9"}, "f": {"a": "f.py:1"}, "g": {}}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert describe(["d", "e"], graph) == "cycle between d, e: d -> e (d.py:1); e -> d (e.py:9)"
    assert cycles({"a": {"b": ""}, "b": {"c": ""}, "f": {"a": ""}}) == []


def _write(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_between_two_families_is_found(tmp_path):
    _write(tmp_path, {
        "validators/__init__.py": "",
        "validators/exact.py": "",
        "validators/alpha/__init__.py": "",
        "validators/alpha/replay.py": "from validators.beta.finders import find\nfrom validators import exact\n",
        "validators/beta/__init__.py": "",
        "validators/beta/finders.py": "def find():\n    from validators.alpha import replay\n",
        "trace_parsers/__init__.py": "",
        "trace_parsers/sos.py": "from . import lines\n",
        "trace_parsers/lines.py": "from trace_parsers.sos import parse\n",
    })
    graph = package_graph(tmp_path)
    assert graph["validators.alpha"] == {"validators.beta": "validators/alpha/replay.py:1",
                                         "validators.exact": "validators/alpha/replay.py:2"}
    assert cycles(graph) == [["trace_parsers.lines", "trace_parsers.sos"], ["validators.alpha", "validators.beta"]]


@pytest.mark.parametrize("module, line, found", [
    ("validators/alpha/replay.py", "from validators.alpha.lines import _Reader", True),
    ("validators/alpha/replay.py", "from .lines import _Reader", True),
    ("capture/responses.py", "from capture.client import _get", True),
    ("validators/alpha/replay.py", "def f():\n    from validators.alpha.lines import _Reader", True),
    ("validators/alpha/replay.py", "from validators.alpha.lines import Reader", False),
    ("validators/alpha/replay.py", "from validators.alpha import _sos_replay", False),
    ("validators/alpha/replay.py", "from re import _parser", False),
    ("validators/alpha/replay.py", "from __future__ import annotations", False),
    ("validators/planning/thinking.py", "from validators.planning.extract import _LineReader", True),
])
def test_private_names_are_caught(tmp_path, module, line, found):
    _write(tmp_path, {"validators/__init__.py": "", "validators/alpha/__init__.py": "",
                      "validators/alpha/lines.py": "class _Reader: ...\nclass Reader: ...\n",
                      "validators/alpha/_sos_replay.py": "", "capture/__init__.py": "",
                      "capture/client.py": "def _get(): ...\n", "validators/planning/__init__.py": "",
                      "validators/planning/extract.py": "class _LineReader: ...\n", module: line + "\n"})
    assert bool(private_name_imports(tmp_path)) is found


# -- the model stays small, and pages ask the domain ----------------------------------------------

CORE_LINES = 600  # the model: records, steps, verdicts, limits (the house issue's bound)
ASKS_THE_DOMAIN = ("app_pages", "metrics")  # what they need of a domain is a DomainSpec hook


def _literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and bool(node.elts) and all(map(_literal, node.elts))


def domain_branches(root: Path) -> list[str]:
    """Comparisons of a domain against a named domain (`domain == "maze"`, `rec.get("domain") in
    ("a", "b")`) in the packages that should ask the domain instead."""
    found = []
    for pkg in ASKS_THE_DOMAIN:
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Compare):
                    continue
                sides = [node.left, *node.comparators]
                if any(_literal(s) for s in sides) and any("domain" in ast.unparse(s) for s in sides if not _literal(s)):
                    found.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(node)}")
    return found


def test_core_holds_the_model_only():
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (REPO / "core").rglob("*.py"))
    assert lines < CORE_LINES, f"core/ has {lines} lines"


def test_pages_and_metrics_ask_the_domain_instead_of_naming_it():
    assert domain_branches(REPO) == []


@pytest.mark.parametrize("line, found", [
    ('if rec["domain"] == "sokoban":\n    pass', True),
    ('x = rec.get("domain") in ("maze", "hanoi")', True),
    ('generic = domain == GENERIC_DOMAIN', False),
    ('same = a["domain"] == b["domain"]', False),
])
def test_domain_branches_are_caught(tmp_path, line, found):
    (tmp_path / "app_pages").mkdir()
    (tmp_path / "metrics").mkdir()
    (tmp_path / "app_pages" / "x.py").write_text(line + "\n")
    assert bool(domain_branches(tmp_path)) is found
