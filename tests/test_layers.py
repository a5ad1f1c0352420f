"""The import direction of the layers (README, "How it fits together"), checked on the source:

core, textscan, records_io, metrics <- trace_parsers <- validators <- audit.py <- rewards, sources <- db <- pipeline.py
<- capture, engines <- cli.py, app.py, app_pages

Every import points down (function-level imports included). The bottom layer is core, the model
(records, steps, verdicts, limits), which imports nothing else of the project; beside it are the
packages that need only the model: textscan (regex prefilters), records_io (files in and out) and
metrics (agreement, problem identity, selection), which may import core and nothing above. Parsers
and validators never import the database, the pages or Streamlit, and parsers never import
validators. The reward functions (rewards/, loaded inside training jobs) import the bottom layer,
trace_parsers, validators and audit only: nothing from the database, the pages, capture, the
pipeline or the CLI, and never Streamlit, SQLAlchemy or litellm; the input sources (sources/,
beside rewards/) may use the rollout layout, never the other way round. A domain family (a
package under validators/) keeps its private modules (`_name.py`) to itself, and so does
trace_parsers/ (the tests and the benchmarks, which time the parsers against their references, excepted). Ray, an optional
extra, is imported only by engines/ (and by the tests and benchmarks of the Ray engine), so the
default install never needs it; inspect_ai, another, only by sources/ (inspect_log.py, inside the
functions that read a log) and the tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

LAYERS = {"core": 0, "textscan": 0, "records_io": 0, "metrics": 0, "trace_parsers": 1, "validators": 2, "audit": 3,
          "rewards": 4, "sources": 4, "db": 5, "pipeline": 6, "capture": 7, "engines": 7, "cli": 8, "app": 8,
          "app_pages": 8, "pages": 8}
# Optional extras and the only top-level packages that may import them.
EXTRAS = {"ray": {"engines", "tests", "bench"}, "inspect_ai": {"sources", "tests"}, "zstandard": {"sources", "tests"}}
PURE = ("trace_parsers", "validators")
NEVER_IN_PURE = {"db", "app_pages", "pages", "pipeline", "capture", "cli", "app", "audit", "rewards",
                 "streamlit", "sqlalchemy", "sqlmodel", "psycopg", "psycopg2"}
NEVER_IN_REWARDS = {"db", "app_pages", "pages", "pipeline", "capture", "cli", "app", "sources",
                    "streamlit", "sqlalchemy", "sqlmodel", "psycopg", "psycopg2", "litellm"}
SKIP_DIRS = {".venv", ".git", "data", "__pycache__"}


def _sources() -> list[Path]:
    def skipped(parts: tuple[str, ...]) -> bool:  # also other virtualenvs beside .venv (.venv-ray, ...)
        return bool(SKIP_DIRS & set(parts)) or any(part.startswith(".venv") for part in parts)

    return sorted(p for p in REPO.rglob("*.py") if not skipped(p.relative_to(REPO).parts))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every imported module name, with `from a import b` giving both `a` and `a.b`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
            out += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return out


def _violations(path: Path) -> list[str]:
    me = _module_name(path)
    top = me.split(".")[0]
    family = me.split(".")[:2] if top == "validators" and (path.parent != REPO / "validators") else None
    found = []
    for line, name in _imports(path):
        parts = name.split(".")
        target = parts[0]
        where = f"{path.relative_to(REPO)}:{line} imports {name}"
        if top in LAYERS and target in LAYERS and LAYERS[target] > LAYERS[top]:
            found.append(f"{where} (a higher layer)")
        if target in EXTRAS and top not in EXTRAS[target]:
            found.append(f"{where} (an optional extra, only for {', '.join(sorted(EXTRAS[target]))})")
        if top == "core" and target in LAYERS and target != "core":
            found.append(f"{where} (core holds the model and imports nothing else of the project)")
        if top in LAYERS and LAYERS[top] == LAYERS.get(target) == LAYERS["capture"] and top != target:
            found.append(f"{where} (capture and engines are side by side)")
        if top in PURE and target in NEVER_IN_PURE:
            found.append(f"{where} (parsers and validators stay pure)")
        if top == "rewards" and target in NEVER_IN_REWARDS:
            found.append(f"{where} (reward functions run in training jobs: no database, app or litellm)")
        if top == "trace_parsers" and target == "validators":
            found.append(f"{where} (parsers never import validators)")
        if target == "trace_parsers" and top not in ("trace_parsers", "tests", "bench") and len(parts) >= 2 \
                and parts[1].startswith("_"):
            found.append(f"{where} (a private module of trace_parsers)")
        if target == "validators" and len(parts) >= 3 and parts[2].startswith("_") and parts[1] != "__future__":
            if family != parts[:2]:
                found.append(f"{where} (a private module of the {parts[1]} family)")
    return found


def test_every_import_points_down_and_families_keep_their_privates():
    problems = [v for path in _sources() for v in _violations(path)]
    assert problems == []


@pytest.mark.parametrize("line, expected", [
    ("from validators.planning import make_domain", ""),
    ("from validators.astar._maze_replay import STRICT", "private module of the astar family"),
    ("import streamlit as st", "stay pure"),
    ("from db.store import store_raw", "a higher layer"),
    ("from rewards import compute_score", "a higher layer"),
    ("import ray", "an optional extra"),
])
def test_the_checker_catches_what_it_should(tmp_path, monkeypatch, line, expected):
    fake_repo = tmp_path
    (fake_repo / "trace_parsers").mkdir()
    module = fake_repo / "trace_parsers" / "x.py"
    module.write_text(line + "\n")
    monkeypatch.setattr(f"{__name__}.REPO", fake_repo)
    found = " ".join(_violations(module))
    assert (expected in found) if expected else ("parsers never import validators" in found)


@pytest.mark.parametrize("line, refused", [
    ("from trace_parsers._thinking import build_steps", True),
    ("from trace_parsers.astar_common import scan_tokens", False),
])
def test_a_private_module_of_the_parsers_stays_with_them(tmp_path, monkeypatch, line, refused):
    (tmp_path / "validators" / "astar").mkdir(parents=True)
    module = tmp_path / "validators" / "astar" / "x.py"
    module.write_text(line + "\n")
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    assert ("a private module of trace_parsers" in " ".join(_violations(module))) is refused


@pytest.mark.parametrize("line, expected", [
    ("from audit import audit_record", None),
    ("from validators.countdown.answer import check_answer", None),
    ("from db.store import store_raw", "a higher layer"),
    ("from pipeline import run", "a higher layer"),
    ("from capture.client import stream", "a higher layer"),
    ("import cli", "a higher layer"),
    ("import streamlit", "no database, app or litellm"),
    ("import litellm", "no database, app or litellm"),
    ("from sqlalchemy import select", "no database, app or litellm"),
])
def test_rewards_import_only_the_layers_below(tmp_path, monkeypatch, line, expected):
    (tmp_path / "rewards").mkdir()
    module = tmp_path / "rewards" / "x.py"
    module.write_text(line + "\n")
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    found = " ".join(_violations(module))
    assert (expected in found) if expected else found == ""


@pytest.mark.parametrize("package, line, expected", [
    ("core", "from core.record import TraceRecord", None),
    ("core", "from records_io.intake import iter_jsonl", "core holds the model"),
    ("core", "from metrics.problem_key import problem_hash", "core holds the model"),
    ("core", "from textscan.gates import Gated", "core holds the model"),
    ("core", "from trace_parsers.base import ParsedTrace", "a higher layer"),
    ("records_io", "from core.record import TraceRecord", None),
    ("metrics", "from core.cells import cell_of", None),
    ("metrics", "from validators.registry import get_domain", "a higher layer"),
    ("textscan", "from trace_parsers.base import ParsedTrace", "a higher layer"),
])
def test_the_bottom_layer_is_the_model_and_packages_that_need_only_it(tmp_path, monkeypatch, package, line, expected):
    (tmp_path / package).mkdir()
    module = tmp_path / package / "x.py"
    module.write_text(line + "\n")
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    found = " ".join(_violations(module))
    assert (expected in found) if expected else found == ""
