"""The intake's hook for step-labelled dataset rows: the layout is core's (records_io/step_rows.py),
the task a row poses is decided here, from the domains' recognisers."""

from __future__ import annotations

from typing import Any

from records_io.intake import Converter
from records_io.step_rows import is_step_row, row_problem, row_task, step_row_to_record
from validators.registry import infer_domain


class StepRowsConverter:
    """Steps rows become records, anything else goes on to `then` (or passes unchanged).

    The task is the row's own, else `domain` (the user's choice), else the one domain that
    recognises the input, else `fallback` (the upload form's default). A class rather than a closure so that it pickles (worker processes,
    Ray tasks).
    """

    def __init__(self, domain: str | None = None, then: Converter | None = None,
                 fallback: str | None = None) -> None:
        self.domain = domain
        self.then = then
        self.fallback = fallback

    def __call__(self, obj: Any) -> Any:
        if is_step_row(obj):
            domain = row_task(obj) or self.domain or infer_domain(row_problem(obj)) or self.fallback
            return step_row_to_record(obj, domain)
        return self.then(obj) if self.then is not None else obj
