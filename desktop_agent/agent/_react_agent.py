"""``ReActAgent``: reason with a chat model, act with tools, repeat until it answers.

Mirrors AgentScope 1.0.21's ``ReActAgent`` (structured output through the
``generate_response`` tool, meta tool, plan notebook, long-term memory and knowledge),
with the deliberate differences of SPEC §3: a plain-text reply has ``metadata == {}``, and
the memory never keeps a tool call without a result (interrupted, failed or never-run
calls get a result saying so), so the next model request stays valid. Tool calls of an
answer stopped at the token limit (``finish_reason == "length"``) are never run: their
arguments may be truncated; the answer ends the turn (``tool_calls_cut_off``).

An optional ``input_module`` (``desktop_agent.context.InputModule``) replaces the default
context ``[system prompt, *memory]`` with the messages its template builds.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ValidationError

from desktop_agent._logging import logger
from desktop_agent.agent._compression import CompressionConfig as _CompressionConfig
from desktop_agent.agent._compression import compress_memory
from desktop_agent.agent._knowledge import KnowledgeBase
from desktop_agent.agent._long_term_memory import LongTermMemoryBase
from desktop_agent.agent._react_agent_base import ReActAgentBase
from desktop_agent.memory import InMemoryMemory, MemoryBase
from desktop_agent.message import Msg, TextBlock, ToolResultBlock, ToolUseBlock
from desktop_agent.plan import PlanNotebook
from desktop_agent.tool import Toolkit, ToolResponse

if TYPE_CHECKING:
    from desktop_agent.context import InputModule
    from desktop_agent.formatter import FormatterBase
    from desktop_agent.model import ChatModelBase

INTERRUPTED_TOOL_TEXT = "The tool call has been interrupted by the user."
INTERRUPTED_REPLY_TEXT = "I noticed that you have interrupted me. What can I do for you?"
FAILED_TOOL_TEXT = "The tool call was not executed because the turn failed: {error}"
TRUNCATED_TOOL_TEXT = (
    "The tool call was not executed: the answer was cut off (finish reason {reason}) before "
    "its arguments were complete."
)
SUMMARIZING_PROMPT = (
    "You have failed to generate response within the maximum iterations. Now respond "
    "directly by summarizing the current situation."
)
TEXT_RESPONSE_HINT = (
    "<system-hint>Now generate a text response based on your current situation</system-hint>"
)
STRUCTURED_OUTPUT_HINT = (
    "<system-hint>Structured output is required, go on to finish your task or call "
    "'generate_response' to generate the required structured output.</system-hint>"
)
_LONG_TERM_MEMORY_TEMPLATE = (
    "<long_term_memory>The content below was retrieved from the long-term memory and may be "
    "useful:\n{}</long_term_memory>"
)
_KNOWLEDGE_TEMPLATE = (
    "<knowledge>The content below was retrieved from the knowledge base and may be useful:\n"
    "{}</knowledge>"
)
_LONG_TERM_MEMORY_MODES = ("agent_control", "static_control", "both")


@dataclass
class _Turn:
    """What one ``reply`` call carries from one reasoning step to the next."""

    tool_choice: str | None
    structured_output: dict[str, Any] | None = None
    reply: Msg | None = None

    @property
    def metadata(self) -> dict[str, Any]:
        """The reply's metadata: the structured output, or ``{}`` (never ``None``)."""
        return self.structured_output if self.structured_output is not None else {}


def _answered_since_call(stored: list[Msg], call_ids: set[str]) -> set[Any]:
    """The ids of ``call_ids`` answered after the last message making those calls.

    Servers reuse ids (``call_0`` in every turn), so a result with the same id earlier in
    memory answers an earlier call, not this one: calls and results pair per message.
    """
    answered: set[Any] = set()
    for msg in reversed(stored):
        if any(block.get("id") in call_ids for block in msg.get_content_blocks("tool_use")):
            break
        answered.update(block.get("id") for block in msg.get_content_blocks("tool_result"))
    return answered


def tool_result_msg(tool_call: ToolUseBlock, output: Any) -> Msg:
    """A system message carrying the result of ``tool_call``."""
    block = ToolResultBlock(
        type="tool_result", id=tool_call["id"], name=tool_call["name"], output=output
    )
    return Msg("system", [block], "system")


def _query_text(msg: Msg | list[Msg] | None) -> str:
    items = msg if isinstance(msg, list) else [msg] if msg is not None else []
    return "\n".join(t for t in (m.get_text_content() for m in items) if t)


async def _close(stream: Any) -> None:
    aclose = getattr(stream, "aclose", None)
    if aclose is not None:
        await aclose()


class ReActAgent(ReActAgentBase):
    """A tool-using agent: ``await agent(msg)`` reasons and acts until it can answer."""

    finish_function_name: str = "generate_response"
    CompressionConfig: ClassVar[type[_CompressionConfig]] = _CompressionConfig

    def __init__(
        self,
        name: str,
        sys_prompt: str,
        model: ChatModelBase,
        formatter: FormatterBase,
        toolkit: Toolkit | None = None,
        memory: MemoryBase | None = None,
        long_term_memory: LongTermMemoryBase | None = None,
        long_term_memory_mode: Literal["agent_control", "static_control", "both"] = "both",
        enable_meta_tool: bool = False,
        parallel_tool_calls: bool = False,
        knowledge: KnowledgeBase | list[KnowledgeBase] | None = None,
        enable_rewrite_query: bool = True,
        plan_notebook: PlanNotebook | None = None,
        print_hint_msg: bool = False,
        max_iters: int = 10,
        tts_model: Any = None,
        compression_config: _CompressionConfig | None = None,
        input_module: InputModule | None = None,
    ) -> None:
        """Create the agent.

        Args:
            name: The agent's name.
            sys_prompt: The system prompt.
            model: The chat model.
            formatter: Turns messages into the model's request format.
            toolkit: The tools; an empty ``Toolkit`` by default.
            memory: The short-term memory; an ``InMemoryMemory`` by default.
            long_term_memory: A long-term memory, used as ``long_term_memory_mode`` says.
            long_term_memory_mode: ``"static_control"`` (the agent retrieves before and
                records after each reply), ``"agent_control"`` (the model gets the memory
                tools) or ``"both"``.
            enable_meta_tool: Give the model ``reset_equipped_tools`` to switch tool groups.
            parallel_tool_calls: Run the tool calls of one reasoning step concurrently.
            knowledge: Knowledge bases searched with the user's text before each reply.
            enable_rewrite_query: Accepted for compatibility; the query is not rewritten
                (the user's text is used as is).
            plan_notebook: A plan notebook whose tools the model gets.
            print_hint_msg: Print the hint messages added to the memory.
            max_iters: The most reasoning steps per reply before summarizing.
            tts_model: Not supported (text-to-speech); must be ``None``.
            compression_config: When and how to compress the memory.
            input_module: Builds the model's context from a template instead of
                ``[system prompt, *memory]``; it becomes part of the agent's state.

        Raises:
            AssertionError: ``long_term_memory_mode`` is invalid.
            NotImplementedError: ``tts_model`` is given.
        """
        super().__init__()
        if tts_model is not None:
            raise NotImplementedError("desktop_agent does not support tts_model; pass None.")
        self.name = name
        self._sys_prompt = sys_prompt
        self.max_iters = max_iters
        self.model = model
        self.formatter = formatter
        self.tts_model = tts_model
        self.compression_config = compression_config
        self.memory = memory if memory is not None else InMemoryMemory()
        self._set_long_term_memory(long_term_memory, long_term_memory_mode)
        self.toolkit = toolkit if toolkit is not None else Toolkit()
        self.parallel_tool_calls = parallel_tool_calls
        self.knowledge: list[KnowledgeBase] = (
            knowledge if isinstance(knowledge, list) else [knowledge] if knowledge else []
        )
        self.enable_rewrite_query = enable_rewrite_query
        self.plan_notebook = plan_notebook
        self.print_hint_msg = print_hint_msg
        self._required_structured_model: type[BaseModel] | None = None
        self._finish_reason: str | None = None
        """Why the model stopped its last answer (``ChatResponse.finish_reason``)."""
        self._register_builtin_tools(enable_meta_tool)
        self.register_state("name")
        self.register_state("_sys_prompt")
        # A StateModule attribute joins the agent's state; ``None`` stays out of it.
        self.input_module: InputModule | None = input_module

    def _set_long_term_memory(self, long_term_memory: LongTermMemoryBase | None, mode: str) -> None:
        """Keep ``long_term_memory`` and note who controls it (the agent, the model, both)."""
        assert mode in _LONG_TERM_MEMORY_MODES, (
            f"Invalid long-term memory mode: {mode!r}. Expected one of "
            f"{', '.join(_LONG_TERM_MEMORY_MODES)}."
        )
        self.long_term_memory = long_term_memory
        present = long_term_memory is not None
        self._static_control = present and mode in ("static_control", "both")
        self._agent_control = present and mode in ("agent_control", "both")

    def _register_builtin_tools(self, enable_meta_tool: bool) -> None:
        if self._agent_control:
            assert self.long_term_memory is not None
            self.toolkit.register_tool_function(self.long_term_memory.record_to_memory)
            self.toolkit.register_tool_function(self.long_term_memory.retrieve_from_memory)
        if enable_meta_tool:
            self.toolkit.register_tool_function(self.toolkit.reset_equipped_tools)
        if self.plan_notebook is not None:
            group = "basic"
            if enable_meta_tool:
                group = "plan_related"
                self.toolkit.create_tool_group(
                    group,
                    description=PlanNotebook.description,
                )
            for tool in self.plan_notebook.list_tools():
                self.toolkit.register_tool_function(tool, group_name=group)

    @property
    def sys_prompt(self) -> str:
        """The system prompt, followed by the agent-skill prompt when skills are registered."""
        skills = self.toolkit.get_agent_skill_prompt()
        if skills:
            return f"{self._sys_prompt}\n\n{skills}"
        return self._sys_prompt

    @property
    def _compression_enabled(self) -> bool:
        return bool(self.compression_config and self.compression_config.enable)

    # ------------------------------------------------------------------ reply

    async def reply(
        self,
        msg: Msg | list[Msg] | None = None,
        structured_model: type[BaseModel] | None = None,
    ) -> Msg:
        """Reason and act until the model answers (or ``max_iters`` runs out).

        Args:
            msg: The new message(s); added to the memory.
            structured_model: Require a structured output of this pydantic model; it
                becomes the reply's ``metadata``.
        """
        await self.memory.add(msg)
        self._remember_dialogue(msg)
        await self._retrieve_from_long_term_memory(msg)
        await self._retrieve_from_knowledge(msg)
        turn = _Turn(self._prepare_structured_output(structured_model))
        for _ in range(self.max_iters):
            await self._compress_memory_if_needed()
            msg_reasoning = await self._reasoning(tool_choice=turn.tool_choice)
            if await self._refuse_cut_tool_calls(msg_reasoning):
                msg_reasoning.metadata = turn.metadata
                turn.reply = msg_reasoning
                break
            results = await self._act(msg_reasoning)
            if self._required_structured_model is not None:
                await self._check_structured_output(turn, msg_reasoning, results)
            elif not msg_reasoning.has_content_blocks("tool_use"):
                msg_reasoning.metadata = turn.metadata
                turn.reply = msg_reasoning
            if turn.reply is not None:
                break
        if turn.reply is None:
            turn.reply = await self._summarizing()
            turn.reply.metadata = turn.metadata
            await self.memory.add(turn.reply)
        if self._static_control:
            assert self.long_term_memory is not None
            await self.long_term_memory.record(
                list(await self.memory.get_memory(exclude_mark="compressed"))
            )
        self._remember_dialogue(turn.reply)
        return turn.reply

    def _remember_dialogue(self, msg: Msg | list[Msg] | None) -> None:
        """Feed the user's messages and the final replies (not the tool steps) to the
        input module's short-term memory (its ``short_term_history_content`` variable)."""
        if self.input_module is None or msg is None:
            return
        for item in msg if isinstance(msg, list) else [msg]:
            # Text only: the short-term memory renders text, and images stay in `memory`.
            text = item.get_text_content()
            if text:
                self.input_module.add_to_short_term(
                    Msg(item.name, text, item.role, timestamp=item.timestamp)
                )

    async def _check_structured_output(
        self, turn: _Turn, msg_reasoning: Msg, results: list[dict[str, Any] | None]
    ) -> None:
        """Finish the turn with the structured output, or hint the model towards it."""
        outputs = [r for r in results if r]
        if not outputs:
            if not msg_reasoning.has_content_blocks("tool_use"):
                turn.tool_choice = "required"
                await self._add_hint(STRUCTURED_OUTPUT_HINT)
            return
        turn.structured_output = outputs[-1]
        if msg_reasoning.has_content_blocks("text"):
            turn.reply = Msg(
                self.name,
                msg_reasoning.get_content_blocks("text"),
                "assistant",
                metadata=turn.structured_output,
            )
            return
        turn.tool_choice = "none"
        self._required_structured_model = None
        await self._add_hint(TEXT_RESPONSE_HINT)

    def _prepare_structured_output(self, structured_model: type[BaseModel] | None) -> str | None:
        name = self.finish_function_name
        if structured_model is None:
            self.toolkit.remove_tool_function(name)
            self._required_structured_model = None
            return None
        if name not in self.toolkit.tools:
            self.toolkit.register_tool_function(getattr(self, name))
        self.toolkit.set_extended_model(name, structured_model)
        self._required_structured_model = structured_model
        return "required"

    async def _add_hint(self, text: str) -> None:
        hint = Msg("user", text, "user")
        await self.memory.add(hint, marks="hint")
        if self.print_hint_msg:
            await self.print(hint)

    async def _retrieve_from_long_term_memory(self, msg: Msg | list[Msg] | None) -> None:
        if not self._static_control or msg is None:
            return
        assert self.long_term_memory is not None
        retrieved = await self.long_term_memory.retrieve(msg)
        if retrieved:
            text = _LONG_TERM_MEMORY_TEMPLATE.format(retrieved)
            await self.memory.add(Msg("user", text, "user"))

    async def _retrieve_from_knowledge(self, msg: Msg | list[Msg] | None) -> None:
        query = _query_text(msg)
        if not self.knowledge or not query:
            return
        docs = []
        for knowledge_base in self.knowledge:
            docs.extend(await knowledge_base.retrieve(query=query))
        if docs:
            docs.sort(key=lambda d: -(d.score or 0.0))
            text = _KNOWLEDGE_TEMPLATE.format("\n".join(f"- {d.content}" for d in docs))
            await self.memory.add(Msg("user", text, "user"))

    async def _compress_memory_if_needed(self) -> None:
        if self.compression_config is None or not self.compression_config.enable:
            return
        await compress_memory(
            self.compression_config, self.memory, self.sys_prompt, self.model, self.formatter
        )

    # ------------------------------------------------------------------ reasoning

    async def _reasoning(self, tool_choice: str | None = None) -> Msg:
        """Call the model once with the context and the tools; stream its message.

        The message is added to the memory even when the call is interrupted or fails; then
        each of its tool calls gets a result saying it was not run.
        """
        await self._add_plan_hint()
        prompt = await self._prompt()
        await self.memory.delete_by_mark("hint")
        msg: Msg | None = None
        failure: BaseException | None = None
        try:
            res = await self.model(
                prompt, tools=self.toolkit.get_json_schemas(), tool_choice=tool_choice
            )
            msg = Msg(self.name, [], "assistant")
            await self._receive(res, msg)
            await asyncio.sleep(0.001)
            return msg
        except BaseException as exc:
            failure = exc
            raise
        finally:
            await self.memory.add(msg)
            if failure is not None and msg is not None:
                await self._end_partial(msg, failure)

    async def _end_partial(self, msg: Msg, failure: BaseException) -> None:
        """Close the stream of a partial message and answer its tool calls."""
        if msg.content:
            await self.print(msg, True)
        await self._answer_tool_calls(msg.get_content_blocks("tool_use"), failure)

    async def _add_plan_hint(self) -> None:
        if self.plan_notebook is None:
            return
        hint = await self.plan_notebook.get_current_hint()
        if hint is None:
            return
        if self.print_hint_msg:
            await self.print(hint)
        await self.memory.add(hint, marks="hint")

    async def _prompt(self) -> list[dict[str, Any]]:
        """The model's input: the context messages, formatted."""
        return await self.formatter.format(msgs=await self._context_msgs())

    async def _context_msgs(self) -> list[Msg]:
        if self.input_module is not None:
            built: list[Msg] = await self.input_module.build_messages(
                memory=self.memory, agent_name=self.name, sys_prompt=self.sys_prompt
            )
            return built
        exclude = "compressed" if self._compression_enabled else None
        return [
            Msg("system", self.sys_prompt, "system"),
            *await self.memory.get_memory(exclude_mark=exclude),
        ]

    def tool_calls_cut_off(self) -> bool:
        """Whether the last model answer's tool calls may be incomplete and must not run.

        Deviation from AgentScope: an answer stopped by the token limit (finish reason
        ``"length"``) may hold truncated arguments (``{"path": "a.txt", "cont``), which
        JSON repair would turn into a call that runs with missing or wrong arguments.
        """
        return self._finish_reason == "length"

    async def _refuse_cut_tool_calls(self, msg: Msg) -> bool:
        """Answer the tool calls of a cut-off answer without running them; whether it was."""
        tool_calls: list[ToolUseBlock] = msg.get_content_blocks("tool_use")
        if not tool_calls or not self.tool_calls_cut_off():
            return False
        text = TRUNCATED_TOOL_TEXT.format(reason=repr(self._finish_reason))
        for tool_call in tool_calls:
            result = tool_result_msg(tool_call, [TextBlock(type="text", text=text)])
            await self.memory.add(result)
            await self.print(result, True)
        return True

    async def _receive(self, res: Any, msg: Msg) -> None:
        """Fill ``msg`` from a model result, printing each streamed state."""
        self._finish_reason = None
        if not isinstance(res, AsyncGenerator):
            msg.invocation_id = res.id
            msg.content = list(res.content)
            self._finish_reason = getattr(res, "finish_reason", None)
            await self.print(msg, True, speech=msg.get_content_blocks("audio") or None)
            return
        print_ = self.print
        try:
            async for chunk in res:
                msg.invocation_id = chunk.id
                msg.content = chunk.content
                self._finish_reason = getattr(chunk, "finish_reason", None)
                await print_(msg, False, speech=msg.get_content_blocks("audio") or None)
        finally:
            await _close(res)
        await print_(msg, True, speech=msg.get_content_blocks("audio") or None)

    async def _answer_tool_calls(
        self, tool_calls: list[ToolUseBlock], cause: BaseException | None
    ) -> None:
        """Give each tool call without a result in memory a result saying it did not run."""
        if not tool_calls:
            return
        answered = _answered_since_call(
            await self.memory.get_memory(prepend_summary=False),
            {tool_call["id"] for tool_call in tool_calls},
        )
        if isinstance(cause, asyncio.CancelledError):
            text = INTERRUPTED_TOOL_TEXT
        else:
            text = FAILED_TOOL_TEXT.format(error=f"{type(cause).__name__}: {cause}")
        for tool_call in tool_calls:
            if tool_call["id"] in answered:
                continue
            result = tool_result_msg(tool_call, text)
            await self.memory.add(result)
            await self.print(result, True)

    # ------------------------------------------------------------------ acting

    async def _act(self, msg_reasoning: Msg) -> list[dict[str, Any] | None]:
        """Run every tool call of ``msg_reasoning``, in order or concurrently."""
        tool_calls: list[ToolUseBlock] = msg_reasoning.get_content_blocks("tool_use")
        if not tool_calls:
            return []
        try:
            if self.parallel_tool_calls:
                return await self._act_in_parallel(tool_calls)
            return [await self._acting(tool_call=tool_call) for tool_call in tool_calls]
        except BaseException as exc:
            await self._answer_tool_calls(tool_calls, exc)
            raise

    async def _act_in_parallel(self, tool_calls: list[ToolUseBlock]) -> list[dict[str, Any] | None]:
        tasks = [
            asyncio.create_task(
                self._acting(tool_call=call), name=f"{self.name}.acting[{call['name']}]"
            )
            for call in tool_calls
        ]
        try:
            return list(await asyncio.gather(*tasks))
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise

    async def _acting(self, tool_call: ToolUseBlock) -> dict[str, Any] | None:
        """Run one tool call, printing its (cumulative) output; the result goes to memory.

        Returns:
            The structured output when this is a successful ``generate_response`` call.

        Raises:
            asyncio.CancelledError: The tool was interrupted.
        """
        tool_res_msg = tool_result_msg(tool_call, [])
        block = tool_res_msg.content[0]
        try:
            stream = await self.toolkit.call_tool_function(tool_call)
            try:
                async for chunk in stream:
                    block["output"] = chunk.content
                    await self.print(tool_res_msg, chunk.is_last)
                    if chunk.is_interrupted:
                        raise asyncio.CancelledError()
                    if self._is_structured_output(tool_call, chunk):
                        assert chunk.metadata is not None
                        structured: dict[str, Any] | None = chunk.metadata.get("structured_output")
                        return structured
            finally:
                await _close(stream)
        except asyncio.CancelledError:
            if not block["output"]:
                block["output"] = INTERRUPTED_TOOL_TEXT
            raise
        except Exception as exc:  # a tool the toolkit could not contain: the model reads it
            block["output"] = [TextBlock(type="text", text=f"Error: {exc}")]
            await self.print(tool_res_msg, True)
        finally:
            await self.memory.add(tool_res_msg)
        return None

    def _is_structured_output(self, tool_call: ToolUseBlock, chunk: ToolResponse) -> bool:
        return bool(
            tool_call["name"] == self.finish_function_name
            and chunk.metadata
            and chunk.metadata.get("success")
        )

    # ------------------------------------------------------------------ other turns

    async def observe(self, msg: Msg | list[Msg] | None) -> None:
        """Add the message(s) to the memory without replying."""
        await self.memory.add(msg)

    async def _summarizing(self) -> Msg:
        """Answer without tools after ``max_iters`` reasoning steps."""
        prompt = await self.formatter.format(
            msgs=[
                Msg("system", self.sys_prompt, "system"),
                *await self.memory.get_memory(),
                Msg("user", SUMMARIZING_PROMPT, role="user"),
            ]
        )
        res = await self.model(prompt)
        res_msg = Msg(self.name, [], "assistant")
        await self._receive(res, res_msg)
        if res_msg.has_content_blocks("tool_use"):
            # No tools were offered and none will run: a tool call kept here would stay
            # without a result in memory and make the next request invalid.
            res_msg.content = [b for b in res_msg.get_content_blocks() if b["type"] != "tool_use"]
            await self.print(res_msg, True)
        return res_msg

    async def handle_interrupt(
        self,
        msg: Msg | list[Msg] | None = None,
        structured_model: type[BaseModel] | None = None,
    ) -> Msg:
        """The reply to an interruption: printed, added to the memory and returned."""
        response_msg = Msg(
            self.name, INTERRUPTED_REPLY_TEXT, "assistant", metadata={"_is_interrupted": True}
        )
        await self.print(response_msg, True)
        await self.memory.add(response_msg)
        return response_msg

    def generate_response(self, **kwargs: Any) -> ToolResponse:
        """Generate required structured output by this function and return it"""
        structured_output = None
        if self._required_structured_model is not None:
            try:
                structured_output = self._required_structured_model.model_validate(
                    kwargs
                ).model_dump()
            except ValidationError as exc:
                return ToolResponse(
                    content=[TextBlock(type="text", text=f"Arguments Validation Error: {exc}")],
                    metadata={"success": False, "structured_output": {}},
                )
        else:
            logger.warning(
                "The generate_response function is called when no structured output model "
                "is required."
            )
        return ToolResponse(
            content=[TextBlock(type="text", text="Successfully generated response.")],
            metadata={"success": True, "structured_output": structured_output},
            is_last=True,
        )
