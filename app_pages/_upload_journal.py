"""What an upload has stored so far, kept in the session as it goes.

Streamlit stops a page's script when the user opens another page, so an upload left midway ends
without a word. Each file's progress is written here while it runs; an upload that never reached
its end is reported when the user comes back: what was stored, from where it was not, and how to
finish it (the same file again: stored records are not stored twice, and any stored without a
verdict get one).
"""

from __future__ import annotations

from typing import Any, MutableMapping

KEY = "upload_journal"


def start(state: MutableMapping[str, Any], names: list[str]) -> None:
    state[KEY] = {"finished": False, "files": [{"name": n, "audited": 0, "last_line": 0, "done": False}
                                               for n in names]}


def progress(state: MutableMapping[str, Any], index: int, audited: int, last_line: int) -> None:
    entry = state[KEY]["files"][index]
    entry["audited"], entry["last_line"] = audited, last_line


def file_done(state: MutableMapping[str, Any], index: int, refused: bool = False) -> None:
    """The file reached its end, or was refused whole (binary, over the size limit)."""
    state[KEY]["files"][index].update(done=True, refused=refused)


def finish(state: MutableMapping[str, Any]) -> None:
    state[KEY]["finished"] = True


def interrupted_report(state: MutableMapping[str, Any]) -> list[str] | None:
    """One line per file of an upload that stopped before its end; None when there is none."""
    journal = state.get(KEY)
    if not journal or journal["finished"]:
        return None
    lines = []
    for f in journal["files"]:
        if f.get("refused"):
            lines.append(f"{f['name']}: refused, nothing from it was stored.")
        elif f["done"]:
            lines.append(f"{f['name']}: complete, {f['audited']:,} record(s) stored and audited.")
        elif f["audited"]:
            lines.append(f"{f['name']}: {f['audited']:,} record(s) stored and audited, up to line "
                         f"{f['last_line']:,}; nothing after that line was audited.")
        else:
            lines.append(f"{f['name']}: not finished, nothing from it was audited.")
    return lines


def dismiss(state: MutableMapping[str, Any]) -> None:
    state.pop(KEY, None)
