"""Issue 37: a missing value in a table of records (no model, no first invalid step) shows as a
dash, not as "None"."""

from __future__ import annotations

import json

import pandas as pd
from streamlit import dataframe_util

from app_pages._table import MISSING, dashed
from tests.test_pages import _upload, app  # noqa: F401 - the AppTest fixture


def test_missing_cells_show_a_dash_and_keep_their_data() -> None:
    frame = pd.DataFrame({"model": [None, "m"], "first": [3, None], "rate": [0.5, 1.0]})
    shown = dashed(frame).to_string()
    assert "None" not in shown and "nan" not in shown and shown.count(MISSING) == 2
    assert " 3 " in shown and "0.5" in shown
    assert dashed(frame).data is frame


def test_home_lists_a_record_without_model_with_a_dash(app) -> None:  # noqa: F811
    _upload(app, json.dumps({"id": "nm", "domain": "freeform", "trace": "1 + 1 = 2.", "answer": "2"}).encode() + b"\n")
    at = app("home").run()
    assert not at.exception
    (table,) = [d for d in at.dataframe if "record_id" in d.value.columns]
    display = dataframe_util.convert_arrow_bytes_to_pandas_df(table.proto.arrow_data.styler.display_values)
    assert MISSING in set(display.astype(str).to_numpy().ravel())
    assert "None" not in set(display.astype(str).to_numpy().ravel())
