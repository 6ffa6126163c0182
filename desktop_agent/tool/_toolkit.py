"""``Toolkit``: the tools an agent may call, their schemas, groups and execution.

Mirror of AgentScope 1.0's ``Toolkit``: ``await toolkit.call_tool_function(call)`` gives an
async generator of cumulative ``ToolResponse`` chunks, wrapped by the registered middlewares
(onion model, first registered outermost). Its state is only which tool groups are active.

Deviations from AgentScope (improvements, see SPEC §3):

- An exception raised *while iterating* a tool's generator does not escape into the agent:
  ``"Error: {e}"`` is appended to the last chunk (or sent as a fresh chunk), marked last.
- A tool returning something other than a ``ToolResponse`` or a generator of them yields one
  chunk ``"Error: The tool function must return a ToolResponse object, …"`` instead of
  raising ``TypeError`` into the agent; a generator yielding a non-``ToolResponse`` ends the
  same way.
- A ``ToolError`` (e.g. ``ToolPermissionDenied``) raised by a tool becomes
  ``"{label}: {message}"`` (``"Error: …"`` for a plain ``ToolError``).

MCP: ``register_mcp_client`` / ``remove_mcp_clients`` (in ``_mcp_registration``) work
without this module importing the ``mcp`` SDK; an ``McpError`` of a call becomes
``"Error occurred when calling MCP tool: {e}"``, also through a stateless client.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import inspect
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any, Literal

import shortuuid
from pydantic import BaseModel, Field, create_model

from desktop_agent._logging import logger
from desktop_agent.message import ToolUseBlock
from desktop_agent.module import StateModule
from desktop_agent.tool._execution import collect, invoke, single, text_response
from desktop_agent.tool._mcp_registration import (
    is_mcp_tool_function,
    mcp_call,
    mcp_name_of,
    mcp_schema_of,
    register_mcp_client,
    remove_mcp_clients,
)
from desktop_agent.tool._response import ToolResponse
from desktop_agent.tool._schema import callable_name, parse_tool_function
from desktop_agent.tool._skills import (
    DEFAULT_AGENT_SKILL_INSTRUCTION,
    DEFAULT_AGENT_SKILL_TEMPLATE,
    agent_skill_prompt,
    read_agent_skill,
)
from desktop_agent.tool._types import (
    AgentSkill,
    PostprocessFunction,
    RegisteredToolFunction,
    ToolFunction,
    ToolGroup,
)

ToolCallHandler = Callable[..., Awaitable[AsyncGenerator[ToolResponse, None]]]
"""``await handler(tool_call=...)`` gives the stream of chunks of the inner layers."""

Middleware = Callable[[dict[str, Any], ToolCallHandler], AsyncGenerator[ToolResponse, None]]
"""``middleware(kwargs, next_handler)``: an async generator; ``kwargs == {"tool_call": ...}``."""

NamesakeStrategy = Literal["raise", "skip", "override", "rename"]

_META_TOOL = "reset_equipped_tools"


def _check_function_schema(json_schema: dict[str, Any] | None) -> None:
    """A given schema must be an OpenAI function schema (AgentScope's assertion)."""
    if json_schema is not None:
        assert (
            isinstance(json_schema, dict)
            and json_schema.get("type") == "function"
            and isinstance(json_schema.get("function"), dict)
        ), "Invalid JSON schema for the tool function."


def _unwrap(tool_func: ToolFunction) -> tuple[Callable[..., Any], str, dict[str, Any]]:
    """The function to run, its name, and the kwargs a ``functools.partial`` presets."""
    if is_mcp_tool_function(tool_func):
        return mcp_call(tool_func), tool_func.name, {}  # type: ignore[attr-defined]
    if not isinstance(tool_func, functools.partial):
        return tool_func, callable_name(tool_func), {}
    func = tool_func.func
    names = [n for n in inspect.signature(func).parameters if n not in ("self", "cls")]
    presets = dict(zip(names, tool_func.args, strict=False))
    presets.update(tool_func.keywords)
    return func, callable_name(func), presets


def _finish_schema(
    schema: dict[str, Any], name: str, description: str | None, presets: dict[str, Any]
) -> None:
    function = schema["function"]
    function["name"] = name
    if description is not None:
        function["description"] = description
    parameters = function.get("parameters") or {}
    for key in presets:
        parameters.get("properties", {}).pop(key, None)
        if key in parameters.get("required", []):
            parameters["required"].remove(key)
    if "required" in parameters and not parameters["required"]:
        del parameters["required"]


def _with_middleware(middleware: Middleware, inner: ToolCallHandler) -> ToolCallHandler:
    async def handler(**kwargs: Any) -> AsyncGenerator[ToolResponse, None]:
        return middleware(kwargs, inner)

    return handler


class Toolkit(StateModule):
    """The tools an agent can use, grouped, with their JSON schemas."""

    def __init__(
        self,
        agent_skill_instruction: str | None = None,
        agent_skill_template: str | None = None,
    ) -> None:
        """Create an empty toolkit.

        Args:
            agent_skill_instruction: The heading of the agent-skill prompt section.
            agent_skill_template: How one skill is listed; formatted with ``name``,
                ``description`` and ``dir``.
        """
        super().__init__()
        self.tools: dict[str, RegisteredToolFunction] = {}
        self.groups: dict[str, ToolGroup] = {}
        self.skills: dict[str, AgentSkill] = {}
        self._middlewares: list[Middleware] = []
        # Background tool tasks until their result is read or they are cancelled.
        self._async_tasks: dict[str, asyncio.Task[ToolResponse]] = {}
        self._agent_skill_instruction = agent_skill_instruction or DEFAULT_AGENT_SKILL_INSTRUCTION
        self._agent_skill_template = agent_skill_template or DEFAULT_AGENT_SKILL_TEMPLATE

    # -- registration -------------------------------------------------------------------

    def register_tool_function(
        self,
        tool_func: ToolFunction,
        group_name: str = "basic",
        preset_kwargs: dict[str, Any] | None = None,
        func_name: str | None = None,
        func_description: str | None = None,
        json_schema: dict[str, Any] | None = None,
        include_long_description: bool = True,
        include_var_positional: bool = False,
        include_var_keyword: bool = False,
        postprocess_func: PostprocessFunction | None = None,
        namesake_strategy: NamesakeStrategy = "raise",
        async_execution: bool = False,
    ) -> None:
        """Register a tool function.

        Args:
            tool_func: A function, bound method or ``functools.partial`` (whose arguments
                become preset kwargs). Sync or async; it returns a ``ToolResponse`` or a
                (sync or async) generator of cumulative ``ToolResponse`` chunks.
            group_name: ``"basic"`` (always active) or a group made with
                :meth:`create_tool_group`.
            preset_kwargs: Arguments always passed and hidden from the model.
            func_name: The name the model sees (default: the function's name).
            func_description: Replaces the description taken from the docstring.
            json_schema: A ready schema instead of one built from the docstring.
            include_long_description: Append the docstring's long description.
            include_var_positional: Expose ``*args`` as a parameter.
            include_var_keyword: Expose ``**kwargs`` as a parameter.
            postprocess_func: ``(tool_call, chunk) -> chunk | None``, sync or async,
                applied to every chunk; a truthy return replaces the chunk.
            namesake_strategy: What to do when the name is taken: ``"raise"``, ``"skip"``,
                ``"override"`` or ``"rename"``.
            async_execution: Run the tool in the background and answer at once with a task
                id (the ``view_task``/``wait_task``/``cancel_task`` tools are registered too).

        Raises:
            ValueError: Unknown group, name clash with ``"raise"``, unknown strategy.
            AssertionError: ``json_schema`` is not a function schema.
            RuntimeError: No free name found with ``"rename"``.
        """
        if group_name != "basic" and group_name not in self.groups:
            raise ValueError(f"Tool group '{group_name}' not found.")
        json_schema = json_schema or mcp_schema_of(tool_func)
        _check_function_schema(json_schema)
        func, input_name, partial_presets = _unwrap(tool_func)
        presets = {**partial_presets, **(preset_kwargs or {})}
        naming = self._name_for(func_name or input_name, namesake_strategy)
        if naming is None:
            return
        name, renamed_from = naming
        original_name = (input_name if func_name else None) or renamed_from
        schema = (
            copy.deepcopy(json_schema)
            if json_schema is not None
            else parse_tool_function(
                func, include_long_description, include_var_positional, include_var_keyword
            )
        )
        _finish_schema(schema, name, func_description, presets)
        self.tools[name] = RegisteredToolFunction(
            name=name,
            group=group_name,
            source="function",
            original_func=func,
            json_schema=schema,
            preset_kwargs=presets,
            original_name=original_name,
            postprocess_func=postprocess_func,
            async_execution=async_execution,
            mcp_name=mcp_name_of(tool_func),
        )
        if async_execution:
            self._register_task_tools()

    def _name_for(self, name: str, strategy: NamesakeStrategy) -> tuple[str, str | None] | None:
        """The name to register under and the name it replaces (``None``: skip the tool)."""
        if name not in self.tools:
            return name, None
        resolved = self._resolve_namesake(name, strategy)
        if resolved is None:
            return None
        return (resolved, name) if resolved != name else (name, None)

    def _resolve_namesake(self, name: str, strategy: str) -> str | None:
        """The name to register under, or ``None`` to keep the existing tool."""
        if strategy == "raise":
            raise ValueError(f"A function with name '{name}' is already registered in the toolkit.")
        if strategy == "skip":
            logger.warning("A function named %r is already registered; skipping the new one.", name)
            return None
        if strategy == "override":
            logger.warning("A function named %r is already registered; overriding it.", name)
            return name
        if strategy == "rename":
            for _ in range(100):
                candidate = f"{name}_{shortuuid.uuid()[:5]}"
                if candidate not in self.tools:
                    logger.warning(
                        "A function named %r exists; registering as %r.", name, candidate
                    )
                    return candidate
            raise RuntimeError(f"Cannot find a free name for the tool function '{name}'.")
        raise ValueError(
            f"Invalid namesake_strategy {strategy!r}: expected 'raise', 'skip', 'override' or "
            "'rename'."
        )

    def _register_task_tools(self) -> None:
        for task_tool in (self.view_task, self.wait_task, self.cancel_task):
            if task_tool.__name__ not in self.tools:
                self.register_tool_function(task_tool)

    def remove_tool_function(self, tool_name: str, allow_not_exist: bool = True) -> None:
        """Remove a tool.

        Raises:
            ValueError: The tool does not exist and ``allow_not_exist`` is false.
        """
        if tool_name not in self.tools and not allow_not_exist:
            raise ValueError(f"Tool function '{tool_name}' not found in the toolkit.")
        self.tools.pop(tool_name, None)

    def set_extended_model(self, func_name: str, model: type[BaseModel] | None) -> None:
        """Add the fields of ``model`` to a tool's parameters (``None`` removes them).

        Raises:
            TypeError: ``model`` is not a pydantic model class.
            ValueError: The tool does not exist.
        """
        if model is not None and not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(
                f"The extended model must be a subclass of pydantic.BaseModel, but got {model!r}."
            )
        if func_name not in self.tools:
            raise ValueError(f"Tool function '{func_name}' not found in the toolkit.")
        self.tools[func_name].extended_model = model

    async def register_mcp_client(
        self,
        mcp_client: Any,
        group_name: str = "basic",
        enable_funcs: list[str] | None = None,
        disable_funcs: list[str] | None = None,
        preset_kwargs_mapping: dict[str, dict[str, Any]] | None = None,
        postprocess_func: PostprocessFunction | None = None,
        namesake_strategy: NamesakeStrategy = "raise",
        execution_timeout: float | None = None,
    ) -> None:
        """Register the tools of an MCP client (``desktop_agent.mcp``), in the server's order:
        only ``enable_funcs`` (if given), not ``disable_funcs``, with the preset kwargs of
        ``preset_kwargs_mapping[name]``; ``execution_timeout`` bounds each call's wait.

        Raises:
            RuntimeError: A stateful client is not connected.
            AssertionError: Both filters given, and not string lists or overlapping.
            TypeError: ``preset_kwargs_mapping`` is not a dict.
        """
        await register_mcp_client(
            self, mcp_client, group_name, enable_funcs, disable_funcs, preset_kwargs_mapping,
            postprocess_func, namesake_strategy, execution_timeout,
        )  # fmt: skip

    async def remove_mcp_clients(self, client_names: list[str] | str) -> None:
        """Remove every tool registered from the named MCP clients (which stay open).

        Raises:
            TypeError: A name is not a string.
        """
        remove_mcp_clients(self, client_names)

    def clear(self) -> None:
        """Remove every tool and group."""
        self.tools.clear()
        self.groups.clear()

    # -- groups -------------------------------------------------------------------------

    def create_tool_group(
        self,
        group_name: str,
        description: str,
        active: bool = False,
        notes: str | None = None,
    ) -> None:
        """Create a tool group.

        Args:
            group_name: Its name; also the argument name in ``reset_equipped_tools``.
            description: What the group's tools are for (shown to the model).
            active: Whether it starts active.
            notes: Instructions shown to the model when the group gets activated.

        Raises:
            ValueError: The name is ``"basic"`` or already taken.
        """
        if group_name == "basic":
            raise ValueError("The tool group 'basic' is reserved and always exists.")
        if group_name in self.groups:
            raise ValueError(f"Tool group '{group_name}' is already registered in the toolkit.")
        self.groups[group_name] = ToolGroup(
            name=group_name, active=active, description=description, notes=notes
        )

    def update_tool_groups(self, group_names: list[str], active: bool) -> None:
        """Activate or deactivate groups; ``"basic"`` is always active, unknown names ignored."""
        for name in group_names:
            if name == "basic":
                logger.warning("The tool group 'basic' is always active and cannot be changed.")
            elif name in self.groups:
                self.groups[name].active = active

    def remove_tool_groups(self, group_names: str | list[str]) -> None:
        """Remove groups and every tool in them.

        Raises:
            TypeError: ``group_names`` is not a string or a list of strings.
            ValueError: ``"basic"`` is among them.
        """
        if isinstance(group_names, str):
            group_names = [group_names]
        if not isinstance(group_names, list) or not all(isinstance(n, str) for n in group_names):
            raise TypeError(
                f"group_names must be a string or a list of strings, but got {group_names!r}."
            )
        if "basic" in group_names:
            raise ValueError("The tool group 'basic' cannot be removed.")
        for name in group_names:
            self.groups.pop(name, None)
        self.tools = {k: t for k, t in self.tools.items() if t.group not in group_names}

    def get_json_schemas(self) -> list[dict[str, Any]]:
        """The schemas of the tools the model may call now: ``basic`` and active groups."""
        if _META_TOOL in self.tools:
            self.tools[_META_TOOL].extended_model = self._group_switches()
        return [tool.extended_json_schema for tool in self.tools.values() if self._is_active(tool)]

    def _is_active(self, tool: RegisteredToolFunction) -> bool:
        group = self.groups.get(tool.group)
        return tool.group == "basic" or (group is not None and group.active)

    def _group_switches(self) -> type[BaseModel]:
        # Aliases carry the group names, which need not be valid field names ("_x", "a-b").
        fields: dict[str, Any] = {
            f"group_{i}": (bool, Field(default=False, alias=name, description=group.description))
            for i, (name, group) in enumerate(self.groups.items())
        }
        return create_model("_ToolGroupSwitches", **fields)

    def reset_equipped_tools(self, **kwargs: Any) -> ToolResponse:
        """This function allows you to activate or deactivate tool groups dynamically based on your current task requirements.
        **Important: Each call sets the absolute final state of ALL tool groups, not incremental changes**. Any group not explicitly set to True will be deactivated, regardless of its previous state.

        **Best practice**: Actively manage your tool groups——activate only what you need for the current task, and promptly deactivate groups as soon as they are no longer needed to conserve context space.

        The function will return the usage instructions for the activated tool groups, which you **MUST pay attention to and follow**. You can also reuse this function to check the notes of the tool groups.
        """  # noqa: E501  (the model reads this text: AgentScope's exact wording)
        self.update_tool_groups(list(self.groups), False)
        for key, value in kwargs.items():
            if not isinstance(value, bool):
                return text_response(
                    f"Invalid arguments: the argument {key} should be a bool value, "
                    f"but got {type(value)}."
                )
        activated = [key for key, value in kwargs.items() if value and key in self.groups]
        self.update_tool_groups(activated, True)
        if not activated:
            return text_response("All tool groups are now deactivated currently.")
        names = ", ".join(f"'{name}'" for name in activated)
        text = f"Now tool groups {names} are activated."
        notes = [
            f"## About Tool Group '{name}'\n{self.groups[name].notes}"
            for name in activated
            if self.groups[name].notes
        ]
        if notes:
            joined = "\n".join(notes)
            text += f" You MUST follow these notes to use these tools:\n<notes>{joined}</notes>"
        return text_response(text)

    # -- calling ------------------------------------------------------------------------

    def register_middleware(self, middleware: Middleware) -> None:
        """Wrap every tool call: ``middleware(kwargs, next_handler)`` is an async generator.

        ``kwargs`` is ``{"tool_call": ...}``; ``await next_handler(**kwargs)`` gives the inner
        stream. The first middleware registered is the outermost.
        """
        self._middlewares.append(middleware)

    async def call_tool_function(
        self, tool_call: ToolUseBlock
    ) -> AsyncGenerator[ToolResponse, None]:
        """Run a tool call; await this to get the async generator of its cumulative chunks.

        Usage: ``async for chunk in await toolkit.call_tool_function(tool_call): ...``.
        """
        handler: ToolCallHandler = self._call_tool_function
        for middleware in reversed(self._middlewares):
            handler = _with_middleware(middleware, handler)
        return await handler(tool_call=tool_call)

    async def _call_tool_function(
        self, tool_call: ToolUseBlock
    ) -> AsyncGenerator[ToolResponse, None]:
        name = tool_call["name"]
        tool = self.tools.get(name)
        if tool is None:
            return single(
                text_response(f"FunctionNotFoundError: Cannot find the function named {name}")
            )
        if not self._is_active(tool):
            return single(
                text_response(
                    f"FunctionInactiveError: The function '{name}' is in the inactive group "
                    f"'{tool.group}'. Activate the tool group by calling 'reset_equipped_tools' "
                    "first to use this tool."
                )
            )
        kwargs = {**tool.preset_kwargs, **(tool_call.get("input") or {})}
        if tool.async_execution:
            return single(self._start_async_task(tool, kwargs, tool_call))
        return await invoke(tool.original_func, kwargs, tool_call, tool.postprocess_func)

    # -- background execution -----------------------------------------------------------

    def _start_async_task(
        self, tool: RegisteredToolFunction, kwargs: dict[str, Any], tool_call: ToolUseBlock
    ) -> ToolResponse:
        task_id = shortuuid.uuid()
        self._async_tasks[task_id] = asyncio.create_task(
            self._run_in_background(task_id, tool, kwargs, tool_call),
            name=f"desktop_agent.tool:{tool.name}:{task_id}",
        )
        return text_response(
            f"<system-reminder>Tool '{tool.name}' is executing asynchronously. Task ID: "
            f"{task_id}. Use view_task('{task_id}') to check status, wait_task('{task_id}') to "
            f"wait for completion, or cancel_task('{task_id}') to cancel the task."
            "</system-reminder>"
        )

    async def _run_in_background(
        self,
        task_id: str,
        tool: RegisteredToolFunction,
        kwargs: dict[str, Any],
        tool_call: ToolUseBlock,
    ) -> ToolResponse:
        stream = await invoke(tool.original_func, kwargs, tool_call, tool.postprocess_func)
        return await collect(stream)

    def _task_outcome(self, task_id: str, task: asyncio.Task[ToolResponse]) -> ToolResponse:
        """The finished task's result; the task is forgotten (as in AgentScope), so a
        second call reports an invalid task id and its result is freed."""
        self._async_tasks.pop(task_id, None)
        if task.cancelled():
            return text_response(f"Task {task_id} has been cancelled.")
        exc = task.exception()
        if exc is not None:
            return text_response(f"Error: {exc}")
        return task.result()

    def _unknown_task(self, task_id: str) -> ToolResponse:
        return text_response(f"InvalidTaskIdError: Cannot find async task with ID {task_id}.")

    async def view_task(self, task_id: str) -> ToolResponse:
        """See the status of an asynchronous tool task, or its result when it has finished.

        Args:
            task_id (str): The task ID given when the tool started.
        """
        task = self._async_tasks.get(task_id)
        if task is None:
            return self._unknown_task(task_id)
        if not task.done():
            return text_response(f"Task {task_id} is still running.")
        return self._task_outcome(task_id, task)

    async def wait_task(self, task_id: str, timeout: float = 10) -> ToolResponse:
        """Wait for an asynchronous tool task to finish and get its result.

        Args:
            task_id (str): The task ID given when the tool started.
            timeout (float): The longest time to wait, in seconds.
        """
        task = self._async_tasks.get(task_id)
        if task is None:
            return self._unknown_task(task_id)
        await asyncio.wait({task}, timeout=timeout)
        if not task.done():
            return text_response(
                f"Task {task_id} is still running after waiting for {timeout} seconds."
            )
        return self._task_outcome(task_id, task)

    async def cancel_task(self, task_id: str) -> ToolResponse:
        """Cancel an asynchronous tool task that is still running.

        Args:
            task_id (str): The task ID given when the tool started.
        """
        task = self._async_tasks.get(task_id)
        if task is None:
            return self._unknown_task(task_id)
        if task.done():
            return text_response(f"Task {task_id} has already completed and cannot be cancelled.")
        task.cancel()
        await asyncio.wait({task})
        self._async_tasks.pop(task_id, None)
        return text_response(f"Task {task_id} has been cancelled.")

    # -- agent skills -------------------------------------------------------------------

    def register_agent_skill(self, skill_dir: str) -> None:
        """Register the skill in ``skill_dir`` (a folder with a ``SKILL.md``).

        Raises:
            ValueError: The folder or its front matter is invalid, or the name is taken.
        """
        skill = read_agent_skill(skill_dir)
        if skill["name"] in self.skills:
            raise ValueError(f"An agent skill named {skill['name']!r} is already registered.")
        self.skills[skill["name"]] = skill

    def remove_agent_skill(self, name: str) -> None:
        """Forget the skill called ``name`` (nothing happens if there is none)."""
        if self.skills.pop(name, None) is None:
            logger.warning("No agent skill named %r is registered.", name)

    def get_agent_skill_prompt(self) -> str | None:
        """The system-prompt section describing the skills, or ``None`` without skills."""
        return agent_skill_prompt(
            self._agent_skill_instruction, self._agent_skill_template, list(self.skills.values())
        )

    # -- state --------------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """``{"active_groups": [names of the active groups]}``."""
        return {"active_groups": [name for name, g in self.groups.items() if g.active]}

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Activate exactly the groups listed in ``state_dict["active_groups"]``.

        Raises:
            ValueError: Not a dict, no ``active_groups`` list, or (with ``strict``) extra keys.
        """
        if not isinstance(state_dict, dict):
            raise ValueError(f"The toolkit state must be a dict, but got {type(state_dict)}.")
        if "active_groups" not in state_dict:
            raise ValueError("The toolkit state must contain the key 'active_groups'.")
        active = state_dict["active_groups"]
        if not isinstance(active, list):
            raise ValueError(f"'active_groups' must be a list, but got {type(active)}.")
        extra = sorted(set(state_dict) - {"active_groups"})
        if strict and extra:
            raise ValueError(f"Unexpected keys in the toolkit state: {extra}.")
        for name, group in self.groups.items():
            group.active = name in active
