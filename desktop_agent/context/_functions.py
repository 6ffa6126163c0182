"""Variable and importance functions: what they receive, how they are called.

A function may be sync or async and may take no argument or one :class:`BuildContext`;
its signature is inspected once, when it is registered, so a build only awaits. Methods
of an ``InputModule`` (sub)class become variables or importance functions by the
:func:`context_variable` / :func:`importance_function` decorators. A public method a
subclass defines is a variable of its name even without the decorator (seed 002:
``def function_name_1(self)`` serves ``function_name_1``); the engine's own API
(``build_prompt``…) is never a variable.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from desktop_agent.context._config import ContextModule
from desktop_agent.message import Msg

if TYPE_CHECKING:
    from desktop_agent.memory import MemoryBase

FunctionKind = Literal["variable", "importance function"]
_F = TypeVar("_F", bound=Callable[..., Any])
_KIND_ATTRIBUTE = "_desktop_agent_context_kind"


@dataclass(frozen=True)
class BuildContext:
    """What a variable or importance function may look at during one build.

    Attributes:
        user_input: The current user input as text ("" when there is none).
        user_msg: The current user message, if there is one.
        variables: The values passed to this build (``build_prompt(**variables)``).
        memory: The memory given to ``build_messages``/``build_prompt``, if any.
        messages: The whole conversation of this build: the memory's messages, or the
            short-term memory's when no memory is given.
        chat_history: The part of ``messages`` the ``chat_history`` variable shows.
        module: For an importance function: the module being judged.
        module_content: For an importance function: the module's rendered variable
            content (its text segments left out).
    """

    user_input: str = ""
    user_msg: Msg | None = None
    variables: Mapping[str, Any] = field(default_factory=dict)
    memory: MemoryBase | None = None
    messages: Sequence[Msg] = ()
    chat_history: Sequence[Msg] = ()
    module: ContextModule | None = None
    module_content: str = ""


@dataclass(frozen=True)
class ModuleReport:
    """How one template module fared in the last build (the editor's live preview).

    Attributes:
        module_name: The module's name.
        included: Whether the module is part of the built prompt.
        reason: Why: ``"always"``, ``"importance_func=false"``,
            ``"is_relevant_func returned False"``, ``"error: ..."``.
        text: The module's rendered text ("" when it was not rendered).
        tokens: The token estimate of ``text``.
    """

    module_name: str
    included: bool
    reason: str
    text: str
    tokens: int


@dataclass(frozen=True)
class ContextFunction:
    """A registered variable or importance function, ready to be awaited."""

    name: str
    kind: FunctionKind
    description: str
    takes_context: bool
    fn: Callable[..., Any]

    async def __call__(self, context: BuildContext) -> Any:
        """Call the function (with ``context`` if it takes one) and await its result."""
        result = self.fn(context) if self.takes_context else self.fn()
        if inspect.isawaitable(result):
            result = await result
        return result


def make_function(
    name: str, fn: Callable[..., Any], kind: FunctionKind, description: str | None = None
) -> ContextFunction:
    """Check ``fn`` and wrap it.

    Raises:
        TypeError: ``name`` is not a non-empty string, ``fn`` is not callable, or it
            needs more than one argument.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"A {kind} name must be a non-empty string, got {name!r}.")
    if not callable(fn):
        raise TypeError(f"The {kind} {name!r} must be callable, got {type(fn).__name__}.")
    return ContextFunction(
        name=name,
        kind=kind,
        description=description if description is not None else first_doc_line(fn),
        takes_context=_takes_context(name, fn, kind),
        fn=fn,
    )


def _takes_context(name: str, fn: Callable[..., Any], kind: FunctionKind) -> bool:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # some builtins have no signature: call bare
        return False
    required = [
        p
        for p in parameters
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    positional = [p for p in required if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(required) > 1 or len(positional) != len(required):
        raise TypeError(
            f"The {kind} {name!r} must take no arguments or one BuildContext argument; "
            f"its signature is {inspect.signature(fn)}."
        )
    return len(positional) == 1


def first_doc_line(obj: object) -> str:
    """The first line of an object's docstring, or ""."""
    doc = inspect.getdoc(obj)
    return doc.strip().splitlines()[0] if doc and doc.strip() else ""


def context_variable(method: _F) -> _F:
    """Mark an ``InputModule`` method as the variable of the same name.

    The method takes ``self`` and optionally a :class:`BuildContext`; it may be async.
    Its docstring's first line is the description shown in the template editor.
    """
    setattr(method, _KIND_ATTRIBUTE, "variable")
    return method


def importance_function(method: _F) -> _F:
    """Mark an ``InputModule`` method as the importance function of the same name.

    The method takes ``self`` and optionally a :class:`BuildContext` and returns a
    bool (or an awaitable of one).
    """
    setattr(method, _KIND_ATTRIBUTE, "importance function")
    return method


def marked_methods(instance: object, kind: FunctionKind) -> dict[str, ContextFunction]:
    """The methods of ``instance``'s class marked as ``kind``, bound and wrapped."""
    found: dict[str, ContextFunction] = {}
    for name in dir(type(instance)):
        attribute = getattr(type(instance), name, None)
        if getattr(attribute, _KIND_ATTRIBUTE, None) == kind:
            found[name] = make_function(name, getattr(instance, name), kind)
    return found


def subclass_methods(instance: object, base: type) -> dict[str, ContextFunction]:
    """The public methods that subclasses of ``base`` define, as variables of their names.

    Left out: ``base``'s own names (its API; its decorated variables are found by
    :func:`marked_methods`), methods marked as importance functions, static/class
    methods and properties, and methods a variable cannot be (more than one argument).
    """
    api = {
        name for name in dir(base) if getattr(getattr(base, name), _KIND_ATTRIBUTE, None) is None
    }
    found: dict[str, ContextFunction] = {}
    for cls in reversed(type(instance).__mro__):
        if cls is base or not issubclass(cls, base):
            continue
        for name, attribute in vars(cls).items():
            if name.startswith("_") or name in api or not inspect.isfunction(attribute):
                continue
            if getattr(attribute, _KIND_ATTRIBUTE, None) == "importance function":
                continue
            try:
                found[name] = make_function(name, getattr(instance, name), "variable")
            except TypeError:  # e.g. a helper taking two arguments: not a variable
                found.pop(name, None)
    return found


class FunctionFailed(Exception):
    """A variable or importance function raised (or is missing); the report's reason."""


async def call_function(
    function: ContextFunction | None, name: str, kind: str, context: BuildContext
) -> Any:
    """Await ``function(context)``; any failure becomes :class:`FunctionFailed`."""
    if function is None:
        raise FunctionFailed(f"no {kind} named {name!r}")
    try:
        return await function(context)
    except Exception as exc:  # a faulty plug-in must not break the whole build
        raise FunctionFailed(f"{kind} {name!r} raised {type(exc).__name__}: {exc}") from exc
