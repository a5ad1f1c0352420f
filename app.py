"""Stepscope's entry point: `streamlit run app.py`."""

from __future__ import annotations

import streamlit as st

from pages._common import read_only

st.set_page_config(page_title="Stepscope", page_icon=":mag:", layout="wide")

pages = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True, url_path="home"),
    st.Page("pages/corpus.py", title="Corpus", icon=":material/table_chart:", url_path="corpus"),
    st.Page("pages/explorer.py", title="Explorer", icon=":material/account_tree:", url_path="explorer"),
]
if not read_only():
    pages.insert(1, st.Page("pages/upload.py", title="Upload & audit", icon=":material/upload_file:",
                            url_path="upload"))
st.navigation(pages).run()
