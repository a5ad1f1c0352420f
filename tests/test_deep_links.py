"""Deep links in a real Chromium: a first request straight to `/explorer?trace=..&step=..`
(and its review-mode form) must land in the st.navigation app on that trace and step, with
only the app's own pages in the sidebar (no legacy multipage app built from a page directory)."""

from __future__ import annotations

import time

from tests.test_browser import _faulty_maze, _page, _share_id, browser, server  # noqa: F401 - fixtures

NAV_TITLES = {"Home", "Upload & audit", "Live capture", "Corpus", "Length generalisation", "Problems",
              "Explorer", "Stored uploads", "Side by side"}


def _upload_maze(server) -> tuple[str, int]:
    import json

    from db.engine import make_engine
    from pipeline import audit_units
    from records_io.intake import iter_jsonl

    maze = _faulty_maze()
    maze["id"] = "deep-link-maze"
    path = server["tmp"] / "deep.jsonl"
    path.write_text(json.dumps(maze) + "\n")
    with open(path, "rb") as fh:
        list(audit_units(iter_jsonl(fh), make_engine(server["db"]), source="deep.jsonl"))
    return _share_id(server["db"], "deep-link-maze"), maze["expected"]["first_invalid_step"]


def _nav_titles(page) -> set[str]:
    nav = page.locator("[data-testid='stSidebarNav'] a")
    return {t.strip().splitlines()[-1].strip() for t in nav.all_inner_texts()}  # icon name, then title


def test_deep_link_and_review_link_open_the_step_in_the_navigation_app(server, browser):
    share, bad = _upload_maze(server)
    for mode in ("", "&mode=review"):
        ctx, page = _page(browser)  # a fresh browser whose first request is the link
        link = f"{server['base']}/explorer?trace={share}&step={bad}{mode}"
        page.goto(link)
        page.get_by_text(f"Step {bad}", exact=True).wait_for(timeout=30_000)
        page.get_by_text("create_close_wall").first.wait_for()
        time.sleep(1.0)
        # Both land on /explorer: a review session's default page forwards there (issue 18).
        assert page.url.startswith(f"{server['base']}/explorer?"), page.url
        assert page.get_by_text("Page not found").count() == 0
        assert f"trace={share}" in page.url and f"step={bad}" in page.url
        titles = _nav_titles(page)
        if mode:
            assert titles <= {"Explorer"}, (mode, sorted(titles))  # review: the one trace, nothing else
            assert page.get_by_label("Comment").count() == 0
        else:
            assert titles == NAV_TITLES, (mode, sorted(titles))
        ctx.close()


def test_page_file_names_are_not_urls(server, browser):
    """Legacy multipage apps route /<file name>; the navigation app routes only its url_paths."""
    ctx, page = _page(browser)
    page.goto(f"{server['base']}/live_capture")
    page.locator("[data-testid='stApp']").wait_for()
    time.sleep(3.0)
    assert page.get_by_text("Live capture", exact=False).count() >= 1  # the sidebar entry
    assert "/live_capture" not in page.url or page.get_by_text("Page not found").count() > 0
    ctx.close()


def test_review_link_cannot_reach_other_pages(server, browser):
    """A review session sees the explorer only: editing the link to another page gives nothing."""
    _upload_maze(server)
    for path in ("corpus", "upload", "live_capture", "home"):
        ctx, page = _page(browser)
        page.goto(f"{server['base']}/{path}?mode=review")
        page.locator("[data-testid='stApp']").wait_for()
        time.sleep(3.0)
        assert page.get_by_text("trace(s) match").count() == 0, path
        assert page.locator('input[type="file"]').count() == 0, path
        assert _nav_titles(page) <= {"Explorer"}, (path, sorted(_nav_titles(page)))
        ctx.close()


def test_home_path_opens_the_home_page(server, browser):
    """/home is Home's own name (issue 37): it opens Home, not "Page not found", and the sidebar
    still lists Home once."""
    ctx, page = _page(browser)
    page.goto(f"{server['base']}/home")
    page.locator("[data-testid='stApp']").wait_for()
    page.get_by_text("Audit the reasoning traces of large reasoning models").first.wait_for(timeout=30_000)
    assert page.get_by_text("Page not found").count() == 0
    nav = [t.strip().splitlines()[-1].strip()
           for t in page.locator("[data-testid='stSidebarNav'] a").all_inner_texts()]
    assert nav.count("Home") == 1 and set(nav) <= NAV_TITLES
    ctx.close()
