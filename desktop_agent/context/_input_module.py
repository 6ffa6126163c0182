"""``InputModule``: builds a model's context from an editable template.

A template is an ordered list of modules; each renders its text and variable segments
and is included always, never, or when an importance function says so. The same
template renders to one text (:meth:`InputModule.build_prompt`) or to the chat messages a
``ReActAgent`` sends (:meth:`InputModule.build_messages`).

Variables resolve, first match wins, from: the values passed to the build, functions
registered with :meth:`InputModule.register_variable`, then ``InputModule`` methods: those
marked with :func:`context_variable` (the built-ins) and any public method a subclass
defines (no decorator needed; the decorator adds a description for the editor, and the
engine's own API names are never variables). A function that raises leaves its module
out, records the error in :attr:`InputModule.last_build_report`, and the build goes on.

**Where the conversation goes.** The conversation (``memory.get_memory()``, or the
short-term memory when no memory is given) is split at the *current user message*: the
``user_input`` given to the build if it is in the conversation; else the first message
of the latest run of consecutive user-role messages that are not hints (mark
``"hint"``), not the compressed summary and carry no tool result. (An agent adds what it
retrieved for the input — long-term memory, knowledge — as user messages right after
it; they belong to the turn.) What comes before the current user message is the
*history*; it and what follows it (retrieved context, this turn's tool calls, tool
results and hints, in order) are the *turn*. The *input module* is the last module
containing a ``current_user_input`` variable whose ``importance_func`` is not ``false``,
preferring modules with role ``user``. Then:

1. With an input module, ``chat_history`` shows the history only, and the turn is placed
   at the input module: the module's message stands in for the current user message
   (carrying its image, audio and video blocks), followed by the rest of the turn. If an
   importance function leaves the module out, the turn's messages stand there as they are.
2. Without one, ``chat_history`` shows the whole conversation.

So each message appears once, in order, and tool calls stay next to their results.
``chat_history`` alone in a module expands, in ``build_messages``, to the messages
themselves (the module's role is not used); anywhere else it renders as
``"name: text"`` lines. Neighbouring included modules of one role become one message.
Builds never change the short-term memory; feed it with :meth:`add_to_short_term`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from desktop_agent._logging import logger
from desktop_agent._resources import resource_path
from desktop_agent.context._config import (
    ContextConfig,
    ContextModule,
    config_json_schema,
    config_to_json,
    load_config_source,
    validate_config_data,
)
from desktop_agent.context._conversation import (
    Conversation,
    as_input_msg,
    conversation_text,
    message_line,
    message_text,
    split_conversation,
    value_text,
)
from desktop_agent.context._exceptions import ContextConfigError
from desktop_agent.context._functions import (
    BuildContext,
    ContextFunction,
    FunctionFailed,
    ModuleReport,
    call_function,
    context_variable,
    importance_function,
    make_function,
    marked_methods,
    subclass_methods,
)
from desktop_agent.context._relevance import shares_meaningful_words
from desktop_agent.context._render import (
    ConversationPart,
    ModulePart,
    Part,
    parts_to_messages,
    parts_to_text,
    turn_parts,
)
from desktop_agent.context._tokens import estimate_tokens
from desktop_agent.message import Msg
from desktop_agent.module import StateModule

if TYPE_CHECKING:
    from desktop_agent.memory import MemoryBase

_CHAT_HISTORY = "chat_history"
_CURRENT_INPUT = "current_user_input"


@dataclass
class _Outcome:
    """One module's result in a build."""

    report: ModuleReport
    parts: list[Part] = field(default_factory=list)


class InputModule(StateModule):
    """The context template engine (see the module docstring for the rules).

    Attributes:
        config: The validated configuration in use.
        short_term_memory: Recent utterances, oldest first, bounded by the config's
            ``short_term_max_utterances`` (200) and ``short_term_max_tokens`` (5,000).
        last_build_report: One :class:`ModuleReport` per template module, from the
            latest ``build_prompt``/``build_messages``.
        token_counter: Counts the tokens of a text (default: :func:`estimate_tokens`).
    """

    def __init__(
        self,
        config_path: str | Path | None = None,
        *,
        token_counter: Callable[[str], int] | None = None,
        variables: Mapping[str, Callable[..., Any]] | None = None,
        importance_funcs: Mapping[str, Callable[..., Any]] | None = None,
    ) -> None:
        """Load the config at ``config_path``, or the default one.

        Args:
            config_path: A JSON config file. When it is missing, unreadable or invalid,
                the default template is used and a warning says why.
            token_counter: Counts tokens for the short-term memory bound and the report.
            variables: Variables to register before the config is validated, so that
                the file may use them.
            importance_funcs: Importance functions to register likewise.
        """
        super().__init__()
        self.token_counter: Callable[[str], int] = token_counter or estimate_tokens
        self._method_variables = {
            **subclass_methods(self, InputModule),
            **marked_methods(self, "variable"),
        }
        self._method_importance = marked_methods(self, "importance function")
        self._variables: dict[str, ContextFunction] = {}
        self._importance: dict[str, ContextFunction] = {}
        for name, fn in (variables or {}).items():
            self.register_variable(name, fn)
        for name, fn in (importance_funcs or {}).items():
            self.register_importance_func(name, fn)
        self.short_term_memory: deque[Msg] = deque()
        self._short_term_tokens: deque[int] = deque()
        self.last_build_report: list[ModuleReport] = []
        self._apply_config(self._initial_config(config_path))
        self.register_state("config", custom_to_json=config_to_json)
        self.register_state("short_term_memory", custom_to_json=_messages_to_json)

    # ----------------------------------------------------------------- configuration

    @staticmethod
    def default_config_path() -> Path:
        """The default template shipped with the app."""
        return resource_path("context", "default.json")

    @staticmethod
    def config_json_schema() -> dict[str, Any]:
        """The JSON Schema of a config file (structure only: names are checked on load)."""
        return config_json_schema()

    def validate_config(
        self, config: ContextConfig | Mapping[str, Any] | str | Path
    ) -> ContextConfig:
        """Validate a config completely without using it.

        Args:
            config: A ``ContextConfig``, a dict, a ``Path``, or a ``str``: the path of an
                existing file, else JSON text if it starts with ``{`` or ``[``, else the
                path of a missing file.

        Raises:
            ContextConfigError: One line per fault, each with its JSON path.
        """
        if isinstance(config, ContextConfig):
            config = config_to_json(config)
        return self._validate_data(*load_config_source(config))

    def _validate_data(self, data: Any, source: str | None) -> ContextConfig:
        return validate_config_data(
            data,
            known_variables=self.known_variables(),
            known_importance_funcs=self.known_importance_funcs(),
            source=source,
        )

    def load_config(self, config: ContextConfig | Mapping[str, Any] | str | Path) -> None:
        """Validate ``config`` (as :meth:`validate_config`) and use it.

        Raises:
            ContextConfigError: The config is invalid; the current one stays in use.
        """
        self._apply_config(self.validate_config(config))

    def _initial_config(self, config_path: str | Path | None) -> ContextConfig:
        if config_path is None:
            return self.validate_config(self.default_config_path())
        try:
            return self.validate_config(Path(config_path))
        except ContextConfigError as exc:
            logger.warning(
                "Context config %s is not usable, using the default template %s instead. %s",
                config_path,
                self.default_config_path(),
                exc,
            )
        return self.validate_config(self.default_config_path())

    def _apply_config(self, config: ContextConfig) -> None:
        self.config = config
        limit = config.short_term_max_utterances
        if self.short_term_memory.maxlen != limit:
            self.short_term_memory = deque(self.short_term_memory, maxlen=limit)
            self._short_term_tokens = deque(self._short_term_tokens, maxlen=limit)
        self._trim_short_term()

    # ------------------------------------------------------------ functions and names

    def register_variable(
        self, name: str, fn: Callable[..., Any], description: str | None = None
    ) -> None:
        """Register (or replace) the variable ``name``.

        Args:
            name: The name ``variable`` segments use.
            fn: Sync or async; takes no argument or one :class:`BuildContext`.
            description: One line for the editor (default: ``fn``'s docstring).

        Raises:
            TypeError: ``fn`` is not callable or needs more than one argument.
        """
        self._variables[name] = make_function(name, fn, "variable", description)

    def register_importance_func(
        self, name: str, fn: Callable[..., Any], description: str | None = None
    ) -> None:
        """Register (or replace) the importance function ``name``.

        Args:
            name: The name ``importance_func`` uses.
            fn: Sync or async, returning a bool; takes no argument or one
                :class:`BuildContext` (whose ``module_content`` is the module's variable
                content).
            description: One line for the editor (default: ``fn``'s docstring).

        Raises:
            TypeError: ``fn`` is not callable or needs more than one argument.
        """
        self._importance[name] = make_function(name, fn, "importance function", description)

    def known_variables(self) -> dict[str, str]:
        """Every variable name a template may use, with a one-line description."""
        return _describe({**self._method_variables, **self._variables})

    def known_importance_funcs(self) -> dict[str, str]:
        """Every importance function name, with a one-line description."""
        return _describe({**self._method_importance, **self._importance})

    # ------------------------------------------------------------- short-term memory

    def add_to_short_term(self, item: Msg | str) -> None:
        """Remember an utterance; a ``str`` is a user utterance.

        The oldest utterances are dropped until both bounds hold. An utterance longer
        than the whole token budget is not kept (logged at INFO).

        Raises:
            TypeError: ``item`` is neither a ``Msg`` nor a ``str``.
        """
        if isinstance(item, str):
            item = Msg("user", item, "user")
        elif not isinstance(item, Msg):
            raise TypeError(f"add_to_short_term expects a Msg or a str, got {item!r}.")
        tokens = self.token_counter(message_line(item))
        if tokens > self.config.short_term_max_tokens:
            # INFO, not WARNING: the agent feeds every reply, and long answers are routine.
            logger.info(
                "An utterance of %d tokens exceeds the short-term memory budget of %d tokens "
                "and is not kept.",
                tokens,
                self.config.short_term_max_tokens,
            )
        self._sync_short_term_tokens()
        self.short_term_memory.append(item)
        self._short_term_tokens.append(tokens)
        self._trim_short_term()

    def short_term_tokens(self) -> int:
        """The tokens the short-term memory holds."""
        self._sync_short_term_tokens()
        return sum(self._short_term_tokens)

    def _sync_short_term_tokens(self) -> None:
        # The deque is public: recount if it was changed behind our back.
        if len(self._short_term_tokens) != len(self.short_term_memory):
            self._short_term_tokens = deque(
                (self.token_counter(message_line(msg)) for msg in self.short_term_memory),
                maxlen=self.short_term_memory.maxlen,
            )

    def _trim_short_term(self) -> None:
        self._sync_short_term_tokens()
        total = sum(self._short_term_tokens)
        while self.short_term_memory and total > self.config.short_term_max_tokens:
            self.short_term_memory.popleft()
            total -= self._short_term_tokens.popleft()

    # ------------------------------------------------------------------------- state

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Restore the config and the short-term memory saved by :meth:`state_dict`.

        Everything is checked before anything changes.

        Raises:
            ContextConfigError: The saved config is invalid (the module is unchanged).
            KeyError: A key is missing (with ``strict``).
        """
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"InputModule.load_state_dict expects a dict, got {type(state_dict).__name__}."
            )
        config, utterances = self.config, list(self.short_term_memory)
        if _has_key(state_dict, "config", strict):
            config = self._validate_data(state_dict["config"], "the saved state")
        if _has_key(state_dict, "short_term_memory", strict):
            utterances = [Msg.from_dict(data) for data in state_dict["short_term_memory"]]
        limit = config.short_term_max_utterances
        self.short_term_memory = deque(utterances, maxlen=limit)
        self._short_term_tokens = deque(maxlen=limit)
        self._apply_config(config)

    # ------------------------------------------------------------------------ builds

    async def build_prompt(
        self,
        user_input: str | Msg | None = None,
        *,
        memory: MemoryBase | None = None,
        **variables: Any,
    ) -> str:
        """Render the template to one text; modules are separated by blank lines.

        Args:
            user_input: The current input; default: derived from the conversation.
            memory: The conversation for ``chat_history`` (default: the short-term memory).
            **variables: Values for this build; they win over every other source.
        """
        return parts_to_text(await self._build(user_input, memory, variables))

    async def build_messages(
        self,
        user_input: str | Msg | None = None,
        *,
        memory: MemoryBase | None = None,
        **variables: Any,
    ) -> list[Msg]:
        """Render the template to the chat messages for a model.

        A ``ReActAgent`` calls ``build_messages(memory=self.memory, agent_name=self.name,
        sys_prompt=self.sys_prompt)`` at each reasoning step.

        Args:
            user_input: The current input; default: derived from the conversation.
            memory: The conversation (default: the short-term memory).
            **variables: Values for this build; they win over every other source.
        """
        return parts_to_messages(await self._build(user_input, memory, variables))

    async def _build(
        self, user_input: str | Msg | None, memory: MemoryBase | None, variables: dict[str, Any]
    ) -> list[Part]:
        explicit = user_input if user_input is not None else variables.get(_CURRENT_INPUT)
        conversation = await self._conversation(as_input_msg(explicit), memory)
        anchor = self._input_module_index()
        context = BuildContext(
            user_input=message_text(conversation.current),
            user_msg=conversation.current,
            variables=MappingProxyType(variables),
            memory=memory,
            messages=tuple(conversation.messages),
            chat_history=tuple(
                conversation.history if anchor is not None else conversation.messages
            ),
        )
        parts: list[Part] = []
        reports: list[ModuleReport] = []
        for index, module in enumerate(self.config.context_template):
            outcome = await self._render_module(module, context)
            reports.append(outcome.report)
            if index == anchor:
                parts.extend(turn_parts(outcome.report.included, outcome.parts, conversation))
            elif outcome.report.included:
                parts.extend(outcome.parts)
        self.last_build_report = reports
        return parts

    async def _conversation(self, explicit: Msg | None, memory: MemoryBase | None) -> Conversation:
        if memory is None:
            return split_conversation(list(self.short_term_memory), explicit, ())
        messages = list(await memory.get_memory(exclude_mark="compressed"))
        stored = await memory.get_memory(exclude_mark="compressed", prepend_summary=False)
        hints = await memory.get_memory(mark="hint", prepend_summary=False)
        skip = {msg.id for msg in hints}
        if len(messages) > len(stored):  # the compressed summary, prepended as a user msg
            skip.add(messages[0].id)
        return split_conversation(messages, explicit, skip)

    def _input_module_index(self) -> int | None:
        candidates = [
            index
            for index, module in enumerate(self.config.context_template)
            if module.importance_func is not False
            and any(s.type == "variable" and s.value == _CURRENT_INPUT for s in module.segments)
        ]
        users = [i for i in candidates if self.config.context_template[i].role == "user"]
        if users or candidates:
            return (users or candidates)[-1]
        return None

    async def _render_module(self, module: ContextModule, context: BuildContext) -> _Outcome:
        if module.importance_func is False:
            return self._outcome(module, False, "importance_func=false", "")
        try:
            text, content = await self._render_segments(module, context)
            included, reason = await self._judge(module, context, content)
        except FunctionFailed as exc:
            logger.warning("Context module %r left out: %s", module.module_name, exc)
            return self._outcome(module, False, f"error: {exc}", "")
        outcome = self._outcome(module, included, reason, text)
        if self._is_structured_history(module, context):
            outcome.parts = [ConversationPart(list(context.chat_history))]
        else:
            outcome.parts = [ModulePart(module.role, _speaker(module, context), text)]
        return outcome

    def _outcome(self, module: ContextModule, included: bool, reason: str, text: str) -> _Outcome:
        tokens = self.token_counter(text) if text else 0
        return _Outcome(ModuleReport(module.module_name, included, reason, text, tokens))

    async def _render_segments(
        self, module: ContextModule, context: BuildContext
    ) -> tuple[str, str]:
        """The module's text, and its variable content alone."""
        pieces: list[str] = []
        variable_pieces: list[str] = []
        for segment in module.segments:
            if segment.type == "text":
                pieces.append(segment.value)
                continue
            value = value_text(await self._resolve(segment.value, context))
            pieces.append(value)
            variable_pieces.append(value)
        return "".join(pieces).strip(), "\n".join(variable_pieces)

    async def _resolve(self, name: str, context: BuildContext) -> Any:
        if name in context.variables:
            return context.variables[name]
        function = self._variables.get(name) or self._method_variables.get(name)
        return await call_function(function, name, "variable", context)

    async def _judge(
        self, module: ContextModule, context: BuildContext, content: str
    ) -> tuple[bool, str]:
        name = module.importance_func
        if not isinstance(name, str):
            return True, "always"
        function = self._importance.get(name) or self._method_importance.get(name)
        judged = replace(context, module=module, module_content=content)
        verdict = bool(await call_function(function, name, "importance function", judged))
        return verdict, f"{name} returned {verdict}"

    def _is_builtin_history(self, context: BuildContext) -> bool:
        return _CHAT_HISTORY not in context.variables and _CHAT_HISTORY not in self._variables

    def _is_structured_history(self, module: ContextModule, context: BuildContext) -> bool:
        only = module.segments[0] if len(module.segments) == 1 else None
        is_history = only is not None and only.type == "variable" and only.value == _CHAT_HISTORY
        return is_history and self._is_builtin_history(context)

    # ----------------------------------------------------------- built-in variables

    @context_variable
    def current_user_input(self, context: BuildContext) -> str:
        """The text of the current user message."""
        return context.user_input

    @context_variable
    def chat_history(self, context: BuildContext) -> str:
        """The conversation: the messages themselves when alone in a module, else lines."""
        return conversation_text(context.chat_history)

    @context_variable
    def short_term_history_content(self) -> str:
        """Recent dialogue from the short-term memory, as "name: text" lines."""
        return conversation_text(self.short_term_memory)

    @context_variable
    def current_datetime(self) -> str:
        """The local date and time, e.g. "Monday, 2025-09-01 14:30 CEST"."""
        return datetime.now().astimezone().strftime("%A, %Y-%m-%d %H:%M %Z")

    @context_variable
    def agent_name(self) -> str:
        """The agent's name (passed by the agent; "Assistant" otherwise)."""
        return "Assistant"

    @context_variable
    def sys_prompt(self) -> str:
        """The agent's system prompt (passed by the agent; empty otherwise)."""
        return ""

    @context_variable
    def long_term_memory(self) -> str:
        """Long-term memories recalled for this input (empty unless passed or registered)."""
        return ""

    @context_variable
    def knowledge(self) -> str:
        """Retrieved knowledge for this input (empty unless passed or registered)."""
        return ""

    # ---------------------------------------------------- built-in importance functions

    @importance_function
    def is_relevant_func(self, context: BuildContext) -> bool:
        """Include the module when its variable content shares a meaningful word with the input."""
        return shares_meaningful_words(context.module_content, context.user_input)

    @importance_function
    def has_content(self, context: BuildContext) -> bool:
        """Include the module when its variable content is not blank."""
        return bool(context.module_content.strip())


def _speaker(module: ContextModule, context: BuildContext) -> str:
    if module.role == "assistant":
        return str(context.variables.get("agent_name") or "assistant")
    return module.role


def _describe(functions: Mapping[str, ContextFunction]) -> dict[str, str]:
    return {name: functions[name].description for name in sorted(functions)}


def _has_key(state_dict: Mapping[str, Any], key: str, strict: bool) -> bool:
    if key in state_dict:
        return True
    if strict:
        raise KeyError(
            f"Key '{key}' not found in state_dict. Ensure that the state_dict contains all "
            "required keys."
        )
    return False


def _messages_to_json(messages: deque[Msg]) -> list[dict[str, Any]]:
    return [msg.to_dict() for msg in messages]
