"""What every page shares: the engine (cached per process), modes and page switching."""

from __future__ import annotations

import streamlit as st
from sqlalchemy.engine import Engine

from app_pages._access import can_write
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
    """Nothing may be written in this session (see app_pages/_access.py for who may write)."""
    return not can_write()


def go_to(page: str, **params: str) -> None:
    """Switch page carrying the given URL parameters (and review mode, when on)."""
    if st.query_params.get("mode") == "review":
        params.setdefault("mode", "review")
    st.switch_page(f"app_pages/{page}.py", query_params=params)
