"""The app's Streamlit configuration (issue 37 item 12)."""

from __future__ import annotations

import tomllib

from tests.conftest import REPO


def test_the_app_config_turns_the_file_watcher_off() -> None:
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["fileWatcherType"] == "none"
    assert config["server"]["runOnSave"] is False
