"""Pure model of Stepscope: records, step graphs, verdicts and the audit of one record.

Nothing here touches Streamlit or the database; `db/`, `pages/` and `cli.py` sit on top.
"""
