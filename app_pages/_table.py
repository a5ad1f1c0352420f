"""Tables of records with gaps in them (no model, no first invalid step, no error kind): the grid
prints a missing value as "None", which reads as a model or an error called None (issue 37).
A Styler gives each missing cell a dash as its display value and leaves the data (and so
sorting and selection) as it is."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

MISSING = "—"


def _shown(value: Any) -> str:
    """A present value as text; whole floats (ints widened by a missing neighbour) as ints."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return str(value)


def dashed(frame: pd.DataFrame) -> Styler:
    """`frame` for st.dataframe, every missing cell shown as a dash."""
    return frame.style.format(_shown, na_rep=MISSING)
