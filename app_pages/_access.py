"""Who may do what, decided on the server from the deployment and the session, never from the URL.

* A server that only listens on this machine (the default of `./stepscope app`) belongs to
  whoever runs it: they may upload, capture, re-audit, delete and comment.
* A shared deployment (`STEPSCOPE_SHARED=1`, or `server.address` anything but a loopback
  address) is read-only for everyone except the owner, who signs in with the token from
  `STEPSCOPE_OWNER_TOKEN` or Streamlit's secrets (`owner_token`). Without a token nobody writes.
  The token is kept in the server-side session only; it never appears in a URL.
* Reviewers may comment, under a name, when the owner allows it (`STEPSCOPE_REVIEW_COMMENTS=1`).
* `STEPSCOPE_READ_ONLY=1` writes nothing at all, not even the owner's comments.
* `?mode=review` only chooses the view (the linked trace alone); it grants nothing, and a link
  without it grants nothing either. The review view says exactly that (`review_notice`): on a
  private server the same address without it, in a new tab, is the owner's.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Mapping

import streamlit as st

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def shared_deployment(env: Mapping[str, str], address: str | None) -> bool:
    """Is the server reachable by others? An unset address makes Streamlit listen on every
    interface, so only an explicit loopback address counts as private."""
    if env.get("STEPSCOPE_SHARED") == "1":
        return True
    return (address or "").strip() not in LOOPBACK


def token_matches(candidate: str, token: str | None) -> bool:
    """Constant-time comparison; an empty or missing token never matches."""
    return bool(token) and bool(candidate) and hmac.compare_digest(candidate.encode(), token.encode())


def _server_address() -> str | None:
    try:
        return st.get_option("server.address")
    except Exception:  # noqa: BLE001 - outside a server (AppTest, scripts): treat as unset
        return None


def is_shared() -> bool:
    return shared_deployment(os.environ, _server_address())


def owner_token() -> str | None:
    token = os.environ.get("STEPSCOPE_OWNER_TOKEN")
    if token:
        return token
    try:
        return st.secrets.get("owner_token")  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - no secrets file is the common case
        return None


def server_read_only() -> bool:
    return os.environ.get("STEPSCOPE_READ_ONLY") == "1"


def is_owner() -> bool:
    if server_read_only():
        return False
    if not is_shared():
        return True
    return bool(st.session_state.get("_owner")) and owner_token() is not None


def sign_in(candidate: str) -> bool:
    ok = token_matches(candidate, owner_token())
    st.session_state["_owner"] = ok
    return ok


def sign_out() -> None:
    st.session_state.pop("_owner", None)


def can_write() -> bool:
    """Upload, capture, re-audit, delete."""
    return is_owner()


def reviewer_comments() -> bool:
    return os.environ.get("STEPSCOPE_REVIEW_COMMENTS") == "1" and not server_read_only()


def can_comment() -> bool:
    """In the review view everyone gets exactly what a reviewer gets (the owner previewing a
    link included); elsewhere the owner comments, and readers when the owner allows it."""
    if review_view():
        return reviewer_comments()
    return is_owner() or reviewer_comments()


def review_view() -> bool:
    """The one-trace view of a review link. Sticky for the browser session so that a reload
    without the parameter keeps it, for a reader; the owner's rights are unchanged by it."""
    if st.query_params.get("mode") == "review":
        st.session_state["_review"] = True
    return bool(st.session_state.get("_review")) or (server_read_only() and not is_owner())


def review_notice(shared: bool, comments: bool) -> str:
    """What a review link grants, said exactly, for the banner of the review view. On a private
    server (listening on this machine only) whoever reaches it owns it: the review view is
    read-only in this tab, but the same address without `mode=review`, in a new tab, has every
    right. Only a shared deployment makes the link binding."""
    said = ("**Review**: this link opens one trace, read-only"
            + (" (you may comment, under your name)." if comments else "."))
    if shared:
        return said + " Other pages, uploading and deleting are not part of it."
    return (said + " This server is private (it listens on this machine only), so whoever can open it owns it: "
            "the same address without `mode=review`, in a new tab, may upload and delete. To give someone a "
            "link that grants only this, run a shared server (`STEPSCOPE_SHARED=1` with `STEPSCOPE_OWNER_TOKEN`).")


def current_review_notice() -> str:
    return review_notice(is_shared(), reviewer_comments())
