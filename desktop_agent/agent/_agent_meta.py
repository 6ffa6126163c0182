"""Hook machinery: metaclasses that wrap an agent's hookable methods.

``reply``, ``print`` and ``observe`` (plus ``_reasoning`` and ``_acting`` for ReAct agents)
are wrapped when they are defined in a class body. The hook "func name" is the method name
without underscores (``reply``, ``print``, ``observe``, ``reasoning``, ``acting``).

Design decisions:

- **Class hooks belong to the class they are registered on** (a deliberate difference from
  AgentScope 1.0, where every agent class shares one dictionary). Each class created by
  :class:`_AgentMeta` gets its own ``_class_{pre,post}_{func}_hooks`` ordered dicts; a call
  collects the class hooks along the instance's MRO. The order is **most specific first**:
  instance hooks, then the hooks of ``type(self)``, then those of each base class in MRO
  order (``ReActAgent`` before ``ReActAgentBase`` before ``AgentBase``); within one owner,
  in insertion order.
- **No hooks, no work.** ``print`` runs once per streamed chunk, so when no hook is registered
  for a call the wrapper only checks a few dicts for emptiness and calls the method: no
  signature binding, no deep copy, no re-entrancy bookkeeping.
- **The re-entrancy guard is per task** (a ``ContextVar`` keyed by instance and func name),
  so an inner ``super().reply()`` runs without hooks while parallel ``_acting`` calls of the
  same agent, each in its own task, all run their hooks.
"""

from __future__ import annotations

import functools
import inspect
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from copy import deepcopy
from typing import Any

HookFunc = Callable[..., Any]
"""A hook: ``pre(agent, kwargs) -> dict | None`` or ``post(agent, kwargs, output) -> Any``."""

_RUNNING: ContextVar[frozenset[tuple[int, str]]] = ContextVar(
    "desktop_agent_running_hooked_calls", default=frozenset()
)


def hook_func_name(method_name: str) -> str:
    """The hook name of a method: its name with every underscore removed."""
    return method_name.replace("_", "")


class _CallPlan:
    """How to turn normalised keyword arguments back into a call of the original method."""

    def __init__(self, signature: inspect.Signature) -> None:
        params = list(signature.parameters.values())[1:]  # drop ``self``
        self.signature = signature
        self.var_positional = next((p.name for p in params if p.kind is p.VAR_POSITIONAL), None)
        self.var_keyword = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
        self.positional = [
            p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        self.positional_only = {p.name for p in params if p.kind is p.POSITIONAL_ONLY}

    def normalise(
        self, owner: str, agent: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        """Bind a call to the signature, apply defaults and drop ``self``.

        Raises:
            TypeError: The arguments do not fit the signature.
        """
        try:
            bound = self.signature.bind(agent, *args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"Failed to bind the arguments of {owner}: {exc}") from exc
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop(next(iter(self.signature.parameters)))
        return arguments

    def split(self, arguments: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """Positional and keyword arguments for calling the original method."""
        remaining = dict(arguments)
        positional: list[Any] = []
        if self.var_positional is not None or self.positional_only:
            for name in self.positional:
                if name not in remaining:
                    break
                positional.append(remaining.pop(name))
            if self.var_positional is not None:
                positional.extend(remaining.pop(self.var_positional, ()))
        if self.var_keyword is not None:
            extra = remaining.pop(self.var_keyword, None) or {}
            remaining.update(extra)
        return positional, remaining


def _container(agent: Any, attr: str) -> OrderedDict[str, HookFunc]:
    hooks = getattr(agent, attr, None)
    assert hooks is not None, (
        f"The hook container '{attr}' is missing in {type(agent).__name__}. "
        "Call super().__init__() in the constructor."
    )
    return hooks


def _class_hooks_present(cls: type, pre_attr: str, post_attr: str) -> bool:
    for owner in cls.__dict__.get("_hook_owners", cls.__mro__):
        namespace = owner.__dict__
        if namespace.get(pre_attr) or namespace.get(post_attr):
            return True
    return False


def iter_class_hooks(cls: type, attr: str) -> Iterator[HookFunc]:
    """The class hooks stored under ``attr`` along the MRO, most specific class first."""
    for owner in cls.__dict__.get("_hook_owners", cls.__mro__):
        hooks = owner.__dict__.get(attr)
        if hooks:
            yield from list(hooks.values())


async def _call_hook(hook: HookFunc, *args: Any) -> Any:
    result = hook(*args)
    if inspect.isawaitable(result):
        result = await result
    return result


async def _run_pre_hooks(
    agent: Any, hooks: list[HookFunc], arguments: dict[str, Any]
) -> dict[str, Any]:
    current = arguments
    for hook in hooks:
        result = await _call_hook(hook, agent, deepcopy(current))
        if result is not None:
            assert isinstance(result, dict), (
                f"A pre-hook must return a dict of keyword arguments or None, "
                f"got {type(result).__name__}."
            )
            current = result
    return current


async def _run_post_hooks(
    agent: Any, hooks: list[HookFunc], arguments: dict[str, Any], output: Any
) -> Any:
    for hook in hooks:
        result = await _call_hook(hook, agent, deepcopy(arguments), deepcopy(output))
        if result is not None:
            output = result
    return output


def wrap_with_hooks(
    original: Callable[..., Awaitable[Any]], func_name: str
) -> Callable[..., Awaitable[Any]]:
    """Wrap an agent method so that its pre- and post-hooks run around it."""
    plan = _CallPlan(inspect.signature(original))
    instance_pre = f"_instance_pre_{func_name}_hooks"
    instance_post = f"_instance_post_{func_name}_hooks"
    class_pre = f"_class_pre_{func_name}_hooks"
    class_post = f"_class_post_{func_name}_hooks"
    owner = original.__qualname__

    async def run_with_hooks(agent: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        cls = type(agent)
        pre = [*_container(agent, instance_pre).values(), *iter_class_hooks(cls, class_pre)]
        post = [*_container(agent, instance_post).values(), *iter_class_hooks(cls, class_post)]
        arguments = plan.normalise(owner, agent, args, kwargs)
        arguments = await _run_pre_hooks(agent, pre, arguments)
        positional, keywords = plan.split(arguments)
        token = _RUNNING.set(_RUNNING.get() | {(id(agent), func_name)})
        try:
            output = await original(agent, *positional, **keywords)
        finally:
            _RUNNING.reset(token)
        if not post:
            return output
        return await _run_post_hooks(agent, post, arguments, output)

    @functools.wraps(original)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if (
            not _container(self, instance_pre)
            and not _container(self, instance_post)
            and not _class_hooks_present(type(self), class_pre, class_post)
        ) or (id(self), func_name) in _RUNNING.get():
            return await original(self, *args, **kwargs)
        return await run_with_hooks(self, args, kwargs)

    wrapper.__wrapped_with_hooks__ = func_name  # type: ignore[attr-defined]
    return wrapper


class _AgentMeta(type):
    """Wraps ``reply``, ``print`` and ``observe`` and gives each class its own class hooks."""

    _hooked_methods: tuple[str, ...] = ("reply", "print", "observe")

    def __new__(
        mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any], **kwargs: Any
    ) -> _AgentMeta:
        for method in mcs._hooked_methods:
            func = attrs.get(method)
            if callable(func) and not hasattr(func, "__wrapped_with_hooks__"):
                attrs[method] = wrap_with_hooks(func, hook_func_name(method))
        for method in mcs._hooked_methods:
            for kind in ("pre", "post"):
                attrs.setdefault(f"_class_{kind}_{hook_func_name(method)}_hooks", OrderedDict())
        cls = super().__new__(mcs, name, bases, attrs, **kwargs)
        owners = tuple(k for k in cls.__mro__ if isinstance(k, _AgentMeta))
        type.__setattr__(cls, "_hook_owners", owners)
        return cls


class _ReActAgentMeta(_AgentMeta):
    """Also wraps ``_reasoning`` and ``_acting`` (hook names ``reasoning`` and ``acting``)."""

    _hooked_methods = (*_AgentMeta._hooked_methods, "_reasoning", "_acting")
