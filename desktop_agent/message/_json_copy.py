"""A deep copy specialised for JSON-shaped data, the bulk of every ``Msg``.

``InMemoryMemory.add`` deep-copies each message and agents copy messages while
streaming, so ``copy.deepcopy``'s generic protocol (a reducer lookup and a memo entry
per object, even for strings) dominated those paths. Messages hold plain dicts, lists,
strings and numbers; those are copied here directly, and anything else (tuples, dict
subclasses, user objects in ``metadata``) goes through ``copy.deepcopy`` with the same
memo, so the result is still a true deep copy: shared containers stay shared and cycles
are preserved.
"""

from __future__ import annotations

import copy
from typing import Any

_IMMUTABLE_SCALARS = frozenset({str, int, float, bool, type(None)})


def deepcopy_json(value: Any, memo: dict[int, Any]) -> Any:
    """Deep-copy ``value`` with ``copy.deepcopy`` semantics, fast for JSON-shaped data.

    Args:
        value: Any object; plain dicts and lists are copied here, scalars are returned
            as they are (they are immutable), everything else via ``copy.deepcopy``.
        memo: The ``copy.deepcopy`` memo, shared so aliasing and cycles survive.

    Returns:
        The copy.
    """
    kind = type(value)
    if kind in _IMMUTABLE_SCALARS:
        return value
    if kind is dict:
        return _copy_dict(value, memo)
    if kind is list:
        return _copy_list(value, memo)
    return copy.deepcopy(value, memo)


def _copy_dict(source: dict[Any, Any], memo: dict[int, Any]) -> dict[Any, Any]:
    found = memo.get(id(source))
    if found is not None:
        return found
    copied: dict[Any, Any] = {}
    memo[id(source)] = copied  # before recursing, so a cycle finds the copy
    scalars = _IMMUTABLE_SCALARS
    for key, item in source.items():
        if type(key) is not str:
            key = deepcopy_json(key, memo)
        copied[key] = item if type(item) in scalars else deepcopy_json(item, memo)
    return copied


def _copy_list(source: list[Any], memo: dict[int, Any]) -> list[Any]:
    found = memo.get(id(source))
    if found is not None:
        return found
    copied: list[Any] = []
    memo[id(source)] = copied
    scalars = _IMMUTABLE_SCALARS
    append = copied.append
    for item in source:
        append(item if type(item) in scalars else deepcopy_json(item, memo))
    return copied
