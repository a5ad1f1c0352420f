"""Stepscope's entry point: `streamlit run app.py`.

Page scripts live in app_pages/, not pages/: Streamlit runs a directory named pages/ beside the
entry script as a legacy multipage app, and a visitor whose first request is a deep link
(/explorer?trace=...) would get that instead of this navigation."""

from __future__ import annotations

import streamlit as st

from app_pages._common import read_only

st.set_page_config(page_title="Stepscope", page_icon=":mag:", layout="wide")

explorer = st.Page("app_pages/explorer.py", title="Explorer", icon=":material/account_tree:", url_path="explorer")
if read_only():
    # A review link shows its one trace and nothing else: no corpus, no listing, no writes.
    pages = [st.Page("app_pages/explorer.py", title="Explorer", icon=":material/account_tree:",
                     url_path="explorer", default=True)]
else:
    pages = [
        st.Page("app_pages/home.py", title="Home", icon=":material/home:", default=True, url_path="home"),
        st.Page("app_pages/upload.py", title="Upload & audit", icon=":material/upload_file:", url_path="upload"),
        st.Page("app_pages/live_capture.py", title="Live capture", icon=":material/podcasts:", url_path="capture"),
        st.Page("app_pages/corpus.py", title="Corpus", icon=":material/table_chart:", url_path="corpus"),
        explorer,
    ]
st.navigation(pages).run()
