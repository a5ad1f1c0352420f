"""The bottom layer, the model only: records (`record.py`), steps and step graphs (`steps.py`),
verdicts (`verdicts.py`), trace kinds (`trace_kind.py`), every input limit (`limits.py`), grid
cells (`cells.py`) and how the registries find formats and domains (`discovery.py`).

Nothing here imports anything else of the project: not the packages beside it (textscan,
records_io, metrics) and not the layers above (trace_parsers, validators, audit.py, db, app_pages).
"""
