"""What every page shares: the engine (cached per process), modes and page switching."""

from __future__ import annotations

import os

import streamlit as st
from sqlalchemy.engine import Engine

from db.engine import database_url, make_engine


@st.cache_resource(show_spinner=False)
def _engine_for(url: str) -> Engine:
    from pipeline import load_demo

    eng = make_engine(url)
    load_demo(eng)
    return eng


def engine() -> Engine:
    """One migrated engine per database URL per server process; demo data goes in on the
    very first start of a database."""
    return _engine_for(database_url())


def read_only() -> bool:
    """Review mode: links opened with ?mode=review, or a server started with
    STEPSCOPE_READ_ONLY=1. The session sees only the linked trace (no corpus, no other traces),
    and nothing can be written: no upload, capture, comment or delete. It sticks for the browser
    session, so a reload without the parameter stays read-only."""
    if st.query_params.get("mode") == "review":
        st.session_state["_review"] = True
    return server_read_only() or bool(st.session_state.get("_review"))


def server_read_only() -> bool:
    """A server started with STEPSCOPE_READ_ONLY=1 writes nothing at all, comments included."""
    return os.environ.get("STEPSCOPE_READ_ONLY") == "1"


def can_write() -> bool:
    return not read_only()


def go_to(page: str, **params: str) -> None:
    """Switch page carrying the given URL parameters (and review mode, when on)."""
    if st.query_params.get("mode") == "review":
        params.setdefault("mode", "review")
    st.switch_page(f"app_pages/{page}.py", query_params=params)
