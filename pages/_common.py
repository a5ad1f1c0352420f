"""What every page shares: the engine (cached per process) and read-only mode."""

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
    """Review mode: links opened with ?mode=review, or a server started with STEPSCOPE_READ_ONLY=1."""
    if os.environ.get("STEPSCOPE_READ_ONLY") == "1":
        return True
    return st.query_params.get("mode") == "review"
