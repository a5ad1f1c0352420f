"""One list of domains: the registry's (validators/registry.py, each family's `domains.py`).

The registry sits in `validators/`, above `core/` and `trace_parsers/` (tests/test_layers.py),
so the layers below cannot read it; they name only the domains their own rules are about (the
problem fields that tell a domain, the formats whose traces are prose or move lists). Those names
are checked here against the registry, and everything that offers or resolves "any domain" (the
upload and capture menus, the reward functions) is checked to take the registry's list whole, so
a new family's `domains.py` is the only place a domain is written down.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from core.record import _PLANBENCH_DOMAINS, _SIGNATURES
from rewards.problem import _OTHER_NAMES, PLANNING, known_domains, resolve_domain
from tests.conftest import REPO
from trace_parsers.move_lists import PUZZLE_DOMAINS
from trace_parsers.think import PROSE_DOMAINS
from validators.registry import get_domain, list_domains

REGISTERED = sorted(spec.name for spec in list_domains())


def test_the_registry_holds_every_family_domain():
    assert {"last_letter", "multiplication", "multistep_arithmetic", "word_sorting"} <= set(REGISTERED)


@pytest.mark.parametrize("where, names", [
    ("core/record.py problem signatures", {domain for domain, _ in _SIGNATURES}),
    ("core/record.py PlanBench domains", set(_PLANBENCH_DOMAINS.values())),
    ("trace_parsers/think.py PROSE_DOMAINS", set(PROSE_DOMAINS)),
    ("trace_parsers/move_lists.py PUZZLE_DOMAINS", set(PUZZLE_DOMAINS)),
    ("rewards/problem.py PLANNING", set(PLANNING)),
    ("rewards/problem.py data-source names", {domain for _, domain in _OTHER_NAMES}),
])
def test_names_below_the_registry_are_registered(where, names):
    assert sorted(n for n in names if get_domain(n) is None) == [], where


def test_rewards_resolve_every_registered_domain():
    assert list(known_domains()) == REGISTERED
    assert {d: resolve_domain(d) for d in REGISTERED} == {d: d for d in REGISTERED}


@pytest.fixture
def app_env(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPSCOPE_DATABASE_URL", f"sqlite:///{tmp_path / 'pages.db'}")
    monkeypatch.setenv("STEPSCOPE_DEMO", "0")
    monkeypatch.delenv("STEPSCOPE_READ_ONLY", raising=False)


def _options(at: AppTest, label: str) -> list[str]:
    return sorted(next(box for box in at.selectbox if box.label.startswith(label)).options)


def test_upload_menu_offers_every_registered_domain(app_env):
    at = AppTest.from_file(str(REPO / "app_pages" / "upload.py"), default_timeout=60).run()
    assert not at.exception
    assert _options(at, "Domain for records that do not name one") == REGISTERED


def test_capture_menu_offers_every_registered_domain(app_env):
    at = AppTest.from_file(str(REPO / "app_pages" / "live_capture.py"), default_timeout=60).run()
    at.radio(key="cap_source").set_value("Paste a record").run()
    assert not at.exception
    assert _options(at, "Domain, when the record names none") == REGISTERED
