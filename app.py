"""Stepscope's entry point: `streamlit run app.py`.

Page scripts live in app_pages/, not pages/. With Streamlit 1.67 and st.navigation, a pages/
directory beside this script is still auto-discovered as a legacy multipage app: a deep link
shows its file-name sidebar (app, common, corpus, explorer, ...) instead of this navigation,
/live_capture serves that file, and a review link edited to /corpus?mode=review shows the whole
corpus (tests/test_deep_links.py fails on each with pages/; README, "How it fits together")."""

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
