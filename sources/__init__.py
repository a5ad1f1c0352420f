"""Where researchers already keep traces, read as Stepscope records: one module per source layout
(lm-evaluation-harness sample logs, Inspect eval logs, Hugging Face datasets on disk) and one
registry of them (`registry.py`), so adding a source is one module. This layer sits beside `rewards/` (whose
`rollouts.py` is a layout too) and above `validators/`, because choosing a domain for a task name
needs the domain registry; core knows no layout.
"""
