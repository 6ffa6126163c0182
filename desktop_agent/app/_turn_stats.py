"""What a turn cost and how fast it went: time to first token, tokens per second, tokens in
and out, total time, and the agent's steps (reasoning → tool → reasoning → answer).

A :class:`StatsRecorder` is fed by the metered model (each call's start, chunks and usage)
and the agent's hooks (each tool's start and end); the status line reads
:meth:`StatsRecorder.snapshot` live while the turn runs, and the finished figures are
kept on the answer (``metadata["turn_stats"]``, saved with the session) for its tooltip
and its details row.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate

StepKind = Literal["reasoning", "tool", "answer"]
STATS_KEY = "turn_stats"
MODEL_KEY = "model"
_CHARS_PER_TOKEN = 4  # a live estimate until the server reports the usage
_STEP_WORDS = {
    "reasoning": QT_TRANSLATE_NOOP("TurnStats", "reasoning"),
    "answer": QT_TRANSLATE_NOOP("TurnStats", "answer"),
}


@dataclass(frozen=True)
class StepStats:
    """One step of an agent turn: a model call, or a tool run."""

    kind: StepKind
    seconds: float
    name: str = ""
    input_tokens: int = 0
    output_tokens: int = 0

    def label(self) -> str:
        """E.g. "reasoning 1.2 s · 80 tok", "search_web 0.3 s", "answer 2.0 s · 310 tok"."""
        if self.kind == "tool":
            return f"{self.name} {_seconds(self.seconds)}"
        return translate("TurnStats", "{step} {time} · {tokens} tok").format(
            step=translate("TurnStats", _STEP_WORDS.get(self.kind, self.kind)),
            time=_seconds(self.seconds),
            tokens=f"{self.output_tokens:,}",
        )


@dataclass(frozen=True)
class TurnStats:
    """The figures of one turn (all times in seconds from the turn's start)."""

    model: str = ""
    first_token: float | None = None
    total: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    generating: float = 0.0
    """Seconds from each call's first token to its end, summed (tokens/s divides by it)."""
    steps: tuple[StepStats, ...] = ()

    @property
    def tokens_per_second(self) -> float | None:
        """Output tokens per second of generation, if there is anything to divide."""
        if self.output_tokens <= 0 or self.generating <= 0:
            return None
        return self.output_tokens / self.generating

    def summary(self) -> str:
        """ "42 tok/s · 0.4 s to first token · 310 in · 512 out · 2.1 s" (known parts)."""
        parts = []
        rate = self.tokens_per_second
        if rate is not None:
            parts.append(translate("TurnStats", "{rate} tok/s").format(rate=f"{rate:,.0f}"))
        if self.first_token is not None:
            parts.append(
                translate("TurnStats", "{time} to first token").format(
                    time=_seconds(self.first_token)
                )
            )
        parts.append(
            translate("TurnStats", "{input} in · {output} out").format(
                input=f"{self.input_tokens:,}", output=f"{self.output_tokens:,}"
            )
        )
        parts.append(_seconds(self.total))
        return " · ".join(parts)

    def timeline(self) -> str:
        """The steps, e.g. "reasoning 0.8 s · 40 tok → read_file 0.1 s → answer 1.5 s · 300 tok"."""
        return " → ".join(step.label() for step in self.steps)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (for the message's metadata)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> TurnStats | None:
        """The stats a message's metadata holds, or ``None`` if it holds none (or junk)."""
        if not isinstance(data, dict):
            return None
        try:
            steps = tuple(StepStats(**step) for step in data.get("steps", ()))
            fields = {k: v for k, v in data.items() if k != "steps"}
            return cls(**fields, steps=steps)
        except (TypeError, ValueError):
            return None


@dataclass
class _Call:
    started: float
    first_token: float | None = None
    live_chars: int = 0


@dataclass
class StatsRecorder:
    """Collects a turn's :class:`TurnStats` as it happens.

    Args:
        model: The model name recorded with the figures.
        clock: Seconds, monotonic (tests pass a scripted one).
    """

    model: str = ""
    clock: Callable[[], float] = time.perf_counter
    _start: float = 0.0
    _stats: TurnStats = field(default_factory=TurnStats)
    _call: _Call | None = None
    _tool: tuple[str, float] | None = None
    _done: bool = False

    def reset(self) -> None:
        """A new turn starts now."""
        self._start = self.clock()
        self._stats = TurnStats(self.model)
        self._call = self._tool = None
        self._done = False

    def call_started(self) -> None:
        """A model request is about to leave."""
        self._call = _Call(self.clock())

    def chunk(self, response: Any) -> None:
        """A streamed chunk (a cumulative ``ChatResponse``) arrived."""
        call = self._call
        if call is None:
            return
        chars = _content_chars(response)
        if chars and call.first_token is None:
            call.first_token = self.clock()
            if self._stats.first_token is None:
                self._stats = replace(self._stats, first_token=call.first_token - self._start)
        call.live_chars = max(call.live_chars, chars)

    def call_ended(self, usage: Any) -> None:
        """The model call finished; ``usage`` is its ``ChatUsage`` (or ``None``)."""
        call, self._call = self._call, None
        if call is None:
            return
        now = self.clock()
        first = call.first_token if call.first_token is not None else now
        tokens_in = int(getattr(usage, "input_tokens", 0) or 0)
        tokens_out = int(getattr(usage, "output_tokens", 0) or 0)
        if usage is None:
            tokens_out = call.live_chars // _CHARS_PER_TOKEN
        stats = self._stats
        step = StepStats("reasoning", now - call.started, "", tokens_in, tokens_out)
        self._stats = replace(
            stats,
            first_token=stats.first_token if stats.first_token is not None else first - self._start,
            input_tokens=stats.input_tokens + tokens_in,
            output_tokens=stats.output_tokens + tokens_out,
            generating=stats.generating + (now - first),
            steps=(*stats.steps, step),
        )

    def mark_answer(self) -> None:
        """The last model call gave the answer (it called no tool)."""
        steps = self._stats.steps
        if steps and steps[-1].kind == "reasoning":
            last = replace(steps[-1], kind="answer")
            self._stats = replace(self._stats, steps=(*steps[:-1], last))

    def tool_started(self, name: str) -> None:
        """A tool starts running."""
        self._tool = (name, self.clock())

    def tool_ended(self) -> None:
        """The tool that started last finished."""
        tool, self._tool = self._tool, None
        if tool is not None:
            step = StepStats("tool", self.clock() - tool[1], tool[0])
            self._stats = replace(self._stats, steps=(*self._stats.steps, step))

    def finish(self) -> TurnStats:
        """The turn ended: its final figures."""
        if not self._done:
            self._stats = replace(self._stats, total=self.clock() - self._start)
            self._done = True
        return self._stats

    def snapshot(self) -> TurnStats:
        """The figures so far (live: the running call's output estimated from its text)."""
        if self._done:
            return self._stats
        now = self.clock()
        stats = replace(self._stats, total=now - self._start)
        call = self._call
        if call is not None and call.first_token is not None:
            stats = replace(
                stats,
                output_tokens=stats.output_tokens + call.live_chars // _CHARS_PER_TOKEN,
                generating=stats.generating + (now - call.first_token),
            )
        return stats


def _content_chars(response: Any) -> int:
    total = 0
    for block in getattr(response, "content", None) or ():
        getter = block.get if isinstance(block, dict) else lambda k, d=None: d
        total += len(str(getter("text", "") or "")) + len(str(getter("thinking", "") or ""))
        total += len(str(getter("input", "") or "")) if getter("type") == "tool_use" else 0
    return total


def _seconds(value: float) -> str:
    shown = f"{value:.1f}" if value < 100 else f"{value:,.0f}"
    return translate("TurnStats", "{seconds} s").format(seconds=shown)


def attach_stats(agent: Any, recorder: StatsRecorder) -> None:
    """Feed ``recorder`` from ``agent``'s hooks: which call gave the answer, each tool's
    time. (Post-hooks see copies: they read, never stamp; see :func:`stamp_answer`.)"""

    async def post_reasoning(_agent: Any, _kwargs: Any, output: Any) -> None:
        blocks = output.get_content_blocks() if output is not None else []
        if not any(block.get("type") == "tool_use" for block in blocks):
            recorder.mark_answer()

    async def pre_acting(_agent: Any, kwargs: dict[str, Any]) -> None:
        call = kwargs.get("tool_call") or {}
        recorder.tool_started(str(call.get("name", "tool")))

    async def post_acting(_agent: Any, _kwargs: Any, _output: Any) -> None:
        recorder.tool_ended()

    agent.register_instance_hook("post_reasoning", "turn-stats", post_reasoning)
    agent.register_instance_hook("pre_acting", "turn-stats", pre_acting)
    agent.register_instance_hook("post_acting", "turn-stats", post_acting)


def stamp_answer(reply: Any, recorder: StatsRecorder) -> None:
    """Put the model's name and the turn's figures on its answer (the message object the
    memory and the chat hold, so the session saves them)."""
    stats = recorder.finish()
    reply.metadata = {**(reply.metadata or {}), MODEL_KEY: stats.model, STATS_KEY: stats.to_dict()}


def answer_stats(metadata: Any) -> tuple[str, TurnStats | None]:
    """The model and the figures an answer's metadata holds (``""``/``None`` if none)."""
    if not isinstance(metadata, dict):
        return "", None
    return str(metadata.get(MODEL_KEY) or ""), TurnStats.from_dict(metadata.get(STATS_KEY))
