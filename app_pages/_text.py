"""Model and user text inside Streamlit's markdown elements (titles, captions, help): every
markdown character escaped, so an answer holding `![x](http://host/pixel.png)` stays text and
the browser requests nothing (issue 37). Tables of model text use st.dataframe, which never
renders markdown, rather than st.table, which does."""

from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&])")


def md_escape(value: object) -> str:
    """`value` as literal text in a markdown string."""
    return _SPECIAL.sub(r"\\\1", str(value)).replace("\n", " ")
