"""Stepscope's entry point: `streamlit run app.py`."""

from __future__ import annotations

import streamlit as st

st.set_page_config(page_title="Stepscope", page_icon=":mag:", layout="wide")

pages = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True, url_path="home"),
    st.Page("pages/live_capture.py", title="Live capture", icon=":material/podcasts:", url_path="capture"),
]
st.navigation(pages).run()
