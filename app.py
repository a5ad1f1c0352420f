"""Stepscope's entry point: `streamlit run app.py`.

Which pages a session gets depends on what it may do (app_pages/_access.py), decided on the
server: the owner gets every page; a reader of a shared deployment gets Home, Corpus, Length
generalisation, Problems and Explorer; a review link gets its one trace. Pages a session may not open are still routed, to a
page that says why, so an edited link never ends in Streamlit's "Page not found".

Page scripts live in app_pages/, not pages/. With Streamlit 1.67 and st.navigation, a pages/
directory beside this script is still auto-discovered as a legacy multipage app: a deep link
shows its file-name sidebar (app, common, corpus, explorer, ...) instead of this navigation,
/live_capture serves that file, and a review link edited to /corpus?mode=review shows the whole
corpus (tests/test_deep_links.py fails on each with pages/; README, "How it fits together")."""

from __future__ import annotations

import streamlit as st

from app_pages._access import (can_write, current_review_notice, is_owner, is_shared, owner_token, review_view,
                               sign_in, sign_out)

st.set_page_config(page_title="Stepscope", page_icon=":mag:", layout="wide")

PAGES = {  # url path: (script, title, icon)
    "home": ("app_pages/home.py", "Home", ":material/home:"),
    "upload": ("app_pages/upload.py", "Upload & audit", ":material/upload_file:"),
    "capture": ("app_pages/live_capture.py", "Live capture", ":material/podcasts:"),
    "corpus": ("app_pages/corpus.py", "Corpus", ":material/table_chart:"),
    "lengths": ("app_pages/lengths.py", "Length generalisation", ":material/show_chart:"),
    "explorer": ("app_pages/explorer.py", "Explorer", ":material/account_tree:"),
    "problems": ("app_pages/problems.py", "Problems", ":material/compare:"),
    "compare": ("app_pages/compare.py", "Side by side", ":material/view_column_2:"),
    "stored": ("app_pages/stored.py", "Stored uploads", ":material/delete:"),
}


def _closed(path: str, why: str):
    def page() -> None:
        st.title(PAGES[path][1])
        st.info(why)
        trace = st.query_params.get("trace")
        if trace:
            st.page_link(PAGES["explorer"][0], label="Open the linked trace", icon=":material/account_tree:",
                         query_params={"trace": trace, "step": st.query_params.get("step", "0"), "mode": "review"})
    page.__name__ = f"closed_{path}"
    return st.Page(page, title=PAGES[path][1], url_path=path)


def _open(path: str, default: bool = False):
    script, title, icon = PAGES[path]
    # The default page is served at /; it keeps no path of its own, so _home_alias can own /home.
    return st.Page(script, title=title, icon=icon, url_path="" if default else path, default=default)


def _home_alias():
    """Streamlit serves the default page at / only, so /home (Home's own name, in links people
    type or keep) would be "Page not found"; this hidden page forwards it to Home."""
    def page() -> None:
        st.switch_page(PAGES["home"][0], query_params=dict(st.query_params))
    page.__name__ = "home_alias"
    return st.Page(page, title=PAGES["home"][1], url_path="home", visibility="hidden")


def _review_landing() -> None:
    """The default page of a review session forwards to the linked trace."""
    trace = st.query_params.get("trace")
    if trace:
        st.switch_page(PAGES["explorer"][0], query_params=dict(st.query_params))
    st.title("Stepscope review")
    st.info("This session opens shared links to one trace. Ask for a link of the form "
            "`/explorer?trace=<id>&step=<n>&mode=review`.")


def _sign_in_box() -> None:
    """On a shared deployment, the owner signs in with the token; the token stays server-side."""
    if not is_shared() or owner_token() is None:
        return
    with st.sidebar.expander("Owner" if is_owner() else "Owner sign-in"):
        if is_owner():
            st.caption("Signed in: you may upload, capture and delete.")
            if st.button("Sign out", key="owner_sign_out"):
                sign_out()
                st.rerun()
        else:
            token = st.text_input("Owner token", type="password", key="owner_token_input")
            if st.button("Sign in", key="owner_sign_in"):
                if sign_in(token):
                    st.rerun()
                st.error("That token is not the owner's.")


if review_view():
    why = "This is a review link: it opens its one trace, read-only. Other pages are not part of it."
    pages = [st.Page(_review_landing, title="Review", url_path="review", default=True), _open("explorer")]
    pages += [_closed(p, why) for p in ("home", "upload", "capture", "corpus", "lengths", "problems", "compare",
                                        "stored")]
    nav = st.navigation(pages, position="hidden")
    st.info(current_review_notice(), icon=":material/rate_review:")
    nav.run()
else:
    if can_write():
        pages = [_open("home", default=True), _open("upload"), _open("capture"), _open("corpus"), _open("lengths"),
                 _open("problems"), _open("compare"), _open("explorer"), _open("stored"), _home_alias()]
    else:
        why = ("This server is shared and read-only for you: uploading, live capture and deleting need the "
               "owner's sign-in (sidebar).")
        pages = [_open("home", default=True), _open("corpus"), _open("lengths"), _open("problems"), _open("compare"),
                 _open("explorer"), _home_alias()]
        hidden = [_closed("upload", why), _closed("capture", why), _closed("stored", why)]
    _sign_in_box()
    if can_write():
        st.navigation(pages).run()
    else:
        nav = st.navigation({"": pages, "Needs the owner": hidden}, position="sidebar")
        nav.run()
