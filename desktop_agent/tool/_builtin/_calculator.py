"""``calculate``: arithmetic a model can trust, without ``eval``.

The expression is parsed with ``ast`` and walked over a whitelist (numbers, arithmetic
operators, parentheses, some ``math`` functions and constants). Sizes are checked *before*
the expensive step, so ``2**10**10`` or ``factorial(10**6)`` is refused at once instead of
eating the CPU and memory of the app.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from desktop_agent.tool._exceptions import ToolError
from desktop_agent.tool._execution import text_response
from desktop_agent.tool._response import ToolResponse

Number = int | float

MAX_EXPRESSION_LENGTH = 2_000
MAX_INT_BITS = 4_096
"""The largest integer result (about 1,233 decimal digits)."""
MAX_FACTORIAL_ARGUMENT = 500

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
_REFUSED_OPERATORS: dict[type[ast.AST], str] = {
    ast.BitXor: "^",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.MatMult: "@",
    ast.Invert: "~",
    ast.Not: "not",
}
_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf}


def _factorial(n: Number) -> int:
    if isinstance(n, int) and n > MAX_FACTORIAL_ARGUMENT:
        raise ToolError(f"factorial is limited to arguments up to {MAX_FACTORIAL_ARGUMENT}.")
    return math.factorial(n)  # type: ignore[arg-type]


def _bounded_combinatoric(func: Callable[..., int]) -> Callable[..., int]:
    def bounded(n: int, k: int | None = None) -> int:
        if isinstance(n, int) and n > 100_000:
            raise ToolError(f"{func.__name__} is limited to n up to 100000.")
        return func(n) if k is None else func(n, k)

    bounded.__name__ = func.__name__
    return bounded


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": abs,
    "round": round,
    "min": min,
    "max": max,
    "sqrt": math.sqrt,
    "cbrt": math.cbrt,
    "exp": math.exp,
    "log": math.log,
    "log10": math.log10,
    "log2": math.log2,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "atan2": math.atan2,
    "sinh": math.sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "degrees": math.degrees,
    "radians": math.radians,
    "hypot": math.hypot,
    "floor": math.floor,
    "ceil": math.ceil,
    "trunc": math.trunc,
    "gcd": math.gcd,
    "lcm": math.lcm,
    "factorial": _factorial,
    "comb": _bounded_combinatoric(math.comb),
    "perm": _bounded_combinatoric(math.perm),
}


def _check_size(value: Any) -> Number:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolError(f"the result {value!r} is not a real number.")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise ToolError("the result is too large.")
    return value


def _check_power(base: Number, exponent: Number) -> None:
    """Refuse a power whose result would be too large, before computing it."""
    if not (isinstance(base, int) and isinstance(exponent, int)):
        return
    if abs(base) > 1 and exponent > 0 and exponent * math.log2(abs(base)) > MAX_INT_BITS:
        raise ToolError("the result of the power is too large.")


class _Evaluator:
    """Evaluates the whitelisted subset of Python expressions."""

    def visit(self, node: ast.AST) -> Number:
        method: Callable[[Any], Number] | None = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise ToolError(f"{_describe(node)} is not allowed in a calculation.")
        return _check_size(method(node))

    def _Expression(self, node: ast.Expression) -> Number:
        return self.visit(node.body)

    def _Constant(self, node: ast.Constant) -> Number:
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise ToolError(f"the value {node.value!r} is not a number.")
        return node.value

    def _Name(self, node: ast.Name) -> Number:
        if node.id not in _CONSTANTS:
            raise ToolError(f"unknown name {node.id!r}. Known constants: {', '.join(_CONSTANTS)}.")
        return _CONSTANTS[node.id]

    def _UnaryOp(self, node: ast.UnaryOp) -> Number:
        func = _UNARY.get(type(node.op))
        if func is None:
            raise ToolError(f"the operator {_describe(node.op)} is not allowed.")
        return func(self.visit(node.operand))

    def _BinOp(self, node: ast.BinOp) -> Number:
        func = _BINARY.get(type(node.op))
        if func is None:
            hint = " Use ** for powers." if isinstance(node.op, ast.BitXor) else ""
            raise ToolError(f"the operator {_describe(node.op)} is not allowed.{hint}")
        left, right = self.visit(node.left), self.visit(node.right)
        if isinstance(node.op, ast.Pow):
            _check_power(left, right)
        return func(left, right)

    def _Call(self, node: ast.Call) -> Number:
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
            name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            raise ToolError(
                f"the function {name!r} is not available. Available functions: "
                f"{', '.join(_FUNCTIONS)}."
            )
        if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
            raise ToolError("functions take plain positional arguments only.")
        args = [self.visit(arg) for arg in node.args]
        return _FUNCTIONS[node.func.id](*args)


def _describe(node: ast.AST) -> str:
    if type(node) in _REFUSED_OPERATORS:
        return repr(_REFUSED_OPERATORS[type(node)])
    return repr(ast.unparse(node))


def evaluate(expression: str) -> Number:
    """The value of ``expression``.

    Raises:
        ToolError: The expression is invalid, not allowed, or its result too large.
    """
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise ToolError(f"the expression is longer than {MAX_EXPRESSION_LENGTH} characters.")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise ToolError(f"the expression is not valid: {exc.msg}.") from exc
    try:
        return _Evaluator().visit(tree)
    except ZeroDivisionError as exc:
        raise ToolError("division by zero.") from exc
    except OverflowError as exc:
        raise ToolError("the result is too large.") from exc
    except (ValueError, TypeError) as exc:
        raise ToolError(f"{exc}.") from exc
    except RecursionError as exc:
        raise ToolError("the expression is nested too deeply.") from exc


def calculate(expression: str) -> ToolResponse:
    """Evaluate an arithmetic expression exactly, e.g. "2 * (3 + 4) ** 2" or "sqrt(2) * pi".

    Supports numbers, + - * / // % ** (use ** for powers, not ^), parentheses, the
    constants pi, e, tau and inf, and the functions abs, round, min, max, sqrt, cbrt, exp,
    log (natural, or log(x, base)), log10, log2, sin, cos, tan, asin, acos, atan, atan2,
    sinh, cosh, tanh, degrees, radians, hypot, floor, ceil, trunc, gcd, lcm, factorial,
    comb and perm. Angles are in radians.

    Args:
        expression (str): The expression to evaluate.
    """
    try:
        result = evaluate(expression)
    except ToolError as exc:
        raise ToolError(f"Cannot calculate {expression!r}: {exc}") from exc
    return text_response(f"{expression.strip()} = {result!r}")
