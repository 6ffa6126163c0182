"""The app's agent: ``ReActAgent`` with what a chat window needs on top of AgentScope.

Three differences, kept out of the mirrored core (which behaves as AgentScope does):

- **The reply says why it ended.** Every assistant message the model produced carries
  ``metadata["finish_reason"]`` (``"stop"``, ``"length"``, ``"tool_calls"``, …, or
  ``None`` when the stream ended without saying — an incomplete answer), in the window and
  in the saved session. Tool calls of an incomplete answer are never run.
- **Stop adds nothing.** AgentScope answers an interruption with an invented message ("I
  noticed that you have interrupted me…"); here the partial answer stays as it was and is
  marked ``metadata["_is_interrupted"]``. If the model had not said a word, an empty answer
  marked so keeps the user/assistant turns alternating.
- **Continue.** ``await agent(None, continue_answer=True)`` asks the model to go on from
  where its last answer stopped and grows that same message (one answer, not two).

And one for the window's sake: the prompt (context, then formatted) is built in a worker
thread. With a long history it is CPU work that grows with the chat (10,000 messages:
~150-300 ms, a frozen window on each send); meanwhile the loop goes on, Stop included.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel

from desktop_agent.agent import ReActAgent
from desktop_agent.message import AudioBlock, Msg

CONTINUE_HINT = (
    "<system-hint>Your previous answer was cut off. Continue it exactly where it stopped, "
    "without repeating anything and without any preamble.</system-hint>"
)
INTERRUPTED = "_is_interrupted"
FINISH_REASON = "finish_reason"
_THINKING_AND_TEXT = ("thinking", "text")


def merged_content(base: list[Any], more: list[Any]) -> list[Any]:
    """``base`` continued by ``more``: thinking and text joined, other blocks appended."""
    thinking = "".join(
        str(b.get("thinking", "")) for b in (*base, *more) if b.get("type") == "thinking"
    )
    text = "".join(str(b.get("text", "")) for b in (*base, *more) if b.get("type") == "text")
    blocks: list[Any] = []
    if thinking:
        blocks.append({"type": "thinking", "thinking": thinking})
    if text:
        blocks.append({"type": "text", "text": text})
    blocks += [b for b in (*base, *more) if b.get("type") not in _THINKING_AND_TEXT]
    return blocks


class DesktopAgent(ReActAgent):
    """The ``ReActAgent`` the app runs (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turn_start = 0
        self._growing: tuple[Msg, list[Any]] | None = None
        self._grown: tuple[Msg, str] | None = None  # the grown answer, and what it gained

    def tool_calls_cut_off(self) -> bool:
        """A ``"length"`` stop, or a stream that ended without a finish reason."""
        return self._finish_reason in ("length", None)

    async def reply(
        self,
        msg: Msg | list[Msg] | None = None,
        structured_model: type[BaseModel] | None = None,
        continue_answer: bool = False,
    ) -> Msg:
        """``ReActAgent.reply``, or the continuation of the last answer.

        Args:
            msg: The user's message(s).
            structured_model: As ``ReActAgent.reply``.
            continue_answer: Ask the model to go on from where the last answer stopped;
                its text grows that answer (``msg`` should be ``None``).
        """
        stored = await self.memory.get_memory(prepend_summary=False)
        self._turn_start = len(stored)
        self._grown = None
        if continue_answer:
            await self._prepare_continuation(stored)
        try:
            result = await super().reply(msg, structured_model)
        finally:
            self._growing = None
        result.metadata = {**result.metadata, FINISH_REASON: self._finish_reason}
        return result

    async def _prepare_continuation(self, stored: list[Msg]) -> None:
        last = next((m for m in reversed(stored) if m.role == "assistant"), None)
        if last is not None and not last.has_content_blocks("tool_use"):
            self._growing = (last, list(last.get_content_blocks()))
            self._turn_start = stored.index(last)
        await self.memory.add(Msg("user", CONTINUE_HINT, "user"), marks="hint")

    async def _prompt(self) -> list[dict[str, Any]]:
        """The prompt, built on a loop of its own in a worker thread (the context and the
        formatter touch no other loop's objects, and only read the memory). A Stop
        meanwhile ends the turn at once; the thread finishes its read and its result is
        dropped (the memory may change meanwhile: a build that fails then is dropped too)."""
        prompt: list[dict[str, Any]] = await asyncio.to_thread(asyncio.run, super()._prompt())
        return prompt

    async def _reasoning(self, tool_choice: str | None = None) -> Msg:
        """One model call; its message gets ``finish_reason`` before it is stored. While
        continuing, the new text grows the earlier answer instead."""
        growing = self._growing
        if growing is None:
            return await super()._reasoning(tool_choice)
        try:
            await super()._reasoning(tool_choice)
        finally:
            self._growing = None
            await self._fold_into(*growing)
        return growing[0]

    async def _receive(self, res: Any, msg: Msg) -> None:
        await super()._receive(res, msg)
        msg.metadata = {**msg.metadata, FINISH_REASON: self._finish_reason}

    async def print(
        self, msg: Msg, last: bool = True, speech: AudioBlock | list[AudioBlock] | None = None
    ) -> None:
        """Print; while continuing, the new answer shows as the earlier one growing."""
        growing = self._growing
        if growing is not None and msg.role == "assistant" and msg.id != growing[0].id:
            target, base = growing
            target.content = merged_content(base, msg.get_content_blocks())
            msg = target
        await super().print(msg, last, speech)

    async def _fold_into(self, target: Msg, base: list[Any]) -> None:
        """Make ``target`` (the stored earlier answer) hold ``base`` + the continuation's
        content, and drop the continuation from the memory: one answer, grown."""
        stored = await self.memory.get_memory(prepend_summary=False)
        position = next((i for i, m in enumerate(stored) if m is target), len(stored))
        later = [m for m in stored[position + 1 :] if m.role == "assistant"]
        metadata = {k: v for k, v in target.metadata.items() if k != INTERRUPTED}
        more: list[Any] = []
        if later:
            await self.memory.delete([later[-1].id])
            more = later[-1].get_content_blocks()
            metadata[FINISH_REASON] = later[-1].metadata.get(FINISH_REASON)
        target.content = merged_content(base, more)
        target.metadata = metadata
        gained = "".join(str(b.get("text", "")) for b in more if b.get("type") == "text")
        self._grown = (target, gained)

    def _remember_dialogue(self, msg: Msg | list[Msg] | None) -> None:
        """The input module's short-term history gets only what a continuation added."""
        grown = self._grown
        if grown is not None and msg is grown[0]:
            if grown[1]:
                super()._remember_dialogue(Msg(msg.name, grown[1], "assistant"))
            return
        super()._remember_dialogue(msg)

    async def handle_interrupt(self, *args: Any, **kwargs: Any) -> Msg:
        """Keep the partial answer, marked interrupted; add no text of our own."""
        await self.memory.delete_by_mark("hint")  # a hint the stopped call had not used yet
        stored = await self.memory.get_memory(prepend_summary=False)
        answer = next(
            (m for m in reversed(stored[self._turn_start :]) if m.role == "assistant"), None
        )
        if answer is None:
            answer = Msg(self.name, [], "assistant", metadata={INTERRUPTED: True})
            await self.memory.add(answer)
        else:
            answer.metadata = {**answer.metadata, INTERRUPTED: True}
        await self.print(answer, True)
        return answer
