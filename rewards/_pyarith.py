"""What Python's `eval` makes of an arithmetic string, without running `eval`.

TinyZero evaluates a model's equation with `eval(equation, {"__builtins__": None}, {})` after a
character whitelist of digits, `+ - * / ( ) .` and whitespace (verl/utils/reward_score/
countdown.py::evaluate_equation in Jiayi-Pan/TinyZero). Those characters still spell more than
four-function arithmetic: `**` powers, `//` floor division, unary signs, float literals such
as `3.` and `.5`, the empty tuple `()` and `...` (Ellipsis), and Python's int/float/complex
semantics (`2/3` is a float, `(-8)**(1/3)` a complex number). To score exactly as TinyZero does,
this module reads the string with Python's own parser (`ast.parse`, the parser `eval` uses, so
every syntax error is the same), checks that the tree would compile, and applies Python's own
operators to the same values, so the result is bit for bit what `eval` returns.

One difference, on purpose: `eval` of `44**19**35` never returns (it tries to build a number of
about 10^44 bits) and would stall a training run. A power whose integer result would exceed
`MAX_POW_BITS` bits is refused here (TinyZero: a hang, or MemoryError, which its code catches and
scores like any other failed evaluation).
"""

from __future__ import annotations

import ast
import operator
import warnings
from typing import Any, Callable

MAX_POW_BITS = 1 << 20
_COMPILE_CHECK_CHARS = 64

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow, ast.Mod: operator.mod,
}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}


class NotEvaluated(Exception):
    """The string would not evaluate (or, for huge powers, is not evaluated); the message says why."""


def _power(base: Any, exponent: Any) -> Any:
    if type(base) is int and type(exponent) is int and exponent > 0 and abs(base) > 1:
        if (abs(base).bit_length() - 1) * exponent > MAX_POW_BITS:
            raise NotEvaluated(f"{base}**{exponent} has more than {MAX_POW_BITS:,} bits (eval would not return)")
    return base ** exponent


def _apply(node: ast.AST, values: list[Any]) -> None:
    if isinstance(node, ast.BinOp):
        right = values.pop()
        left = values.pop()
        if isinstance(node.op, ast.Pow):
            values.append(_power(left, right))
        else:
            values.append(_BINARY[type(node.op)](left, right))
    else:
        assert isinstance(node, ast.UnaryOp)
        values.append(_UNARY[type(node.op)](values.pop()))


def python_value(text: str) -> Any:
    """The value `eval(text, {"__builtins__": None}, {})` returns for a string of TinyZero's
    whitelisted characters; raises NotEvaluated where eval raises (or would not return)."""
    source = text.lstrip(" \t")  # builtins.eval strips leading spaces and tabs; ast.parse does not
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. "'int' object is not callable" for `2(3)`
            if len(source) > _COMPILE_CHECK_CHARS:
                # Deep nesting meets the compiler's limits at other depths than the parser's;
                # compiling the text (as eval does, without running it) fails exactly when eval does.
                compile(source, "<string>", "eval")
            tree = ast.parse(source, mode="eval")
            nodes = list(ast.walk(tree))
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        raise NotEvaluated(f"{type(exc).__name__}: {exc}") from None
    for node in nodes:
        ok = (isinstance(node, (ast.Expression, ast.Constant, ast.operator, ast.unaryop, ast.expr_context))
              or isinstance(node, ast.BinOp) and type(node.op) in _BINARY
              or isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY
              or isinstance(node, ast.Tuple) and not node.elts)
        if not ok:
            raise NotEvaluated(f"{type(node).__name__} is outside TinyZero's character set")
    # Post-order walk with an explicit stack: no recursion limit of our own, left before right.
    values: list[Any] = []
    stack: list[tuple[ast.AST, bool]] = [(tree.body, False)]
    try:
        while stack:
            node, ready = stack.pop()
            if isinstance(node, ast.Constant):
                values.append(node.value)
            elif isinstance(node, ast.Tuple):
                values.append(())
            elif ready:
                _apply(node, values)
            elif isinstance(node, ast.BinOp):
                stack += [(node, True), (node.right, False), (node.left, False)]
            else:
                stack += [(node, True), (node.operand, False)]  # type: ignore[attr-defined]
    except NotEvaluated:
        raise
    except Exception as exc:  # noqa: BLE001 - TinyZero catches every exception of eval alike
        raise NotEvaluated(f"{type(exc).__name__}: {exc}") from None
    return values.pop()
