"""LALR reading of well-formed A* maze traces with the grammar in astar_trace.lark.

Not used by the parsers: the regex reader (astar_common.scan_tokens) is faster on these flat
token streams and keeps going after errors. This module exists to cross-check the regex reader
(tests) and to measure the difference (bench/bench_astar.py).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Transformer

GRAMMAR = Path(__file__).with_name("astar_trace.lark")


class _Steps(Transformer):
    def start(self, items):
        return [i for i in items if isinstance(i, tuple)]

    def op(self, t):
        return (str(t[0]), t[0].start_pos, t[4].end_pos, int(t[1]), int(t[2]), int(t[3][1:]), int(t[4][1:]))

    def plan(self, t):
        return ("plan", t[0].start_pos, t[2].end_pos, int(t[1]), int(t[2]), None, None)

    def entry(self, t):
        return (str(t[0]), t[0].start_pos, t[2].end_pos, int(t[1]), int(t[2]), None, None)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr", lexer="contextual", transformer=_Steps())


def lark_steps(text: str) -> list[tuple]:
    """(kind, start, end, x, y, g, h) for every create/close/plan/prompt entry; raises on bad text."""
    return _parser().parse(text)
