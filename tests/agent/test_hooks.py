"""Hooks: order, copies, returns, re-entrancy and per-class ownership (SPEC §3)."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import pytest

from desktop_agent.agent import AgentBase, ReActAgentBase
from desktop_agent.message import Msg


class EchoAgent(AgentBase):
    """Replies with the text it is given; prints nothing unless asked."""

    def __init__(self, name: str = "echo") -> None:
        super().__init__()
        self.name = name
        self.set_console_output_enabled(False)
        self.seen: list[Any] = []

    async def reply(self, msg: Msg | None = None, suffix: str = "") -> Msg:
        self.seen.append(msg)
        text = msg.get_text_content() if msg is not None else ""
        return Msg(self.name, f"{text}{suffix}", "assistant")

    async def observe(self, msg: Msg | list[Msg] | None) -> None:
        self.seen.append(msg)


class LoudEchoAgent(EchoAgent):
    """Calls ``super().reply`` (a hooked method calling a hooked method)."""

    async def reply(self, msg: Msg | None = None, suffix: str = "") -> Msg:
        return await super().reply(msg, suffix + "!")


class OtherAgent(EchoAgent):
    """A sibling class of ``LoudEchoAgent``."""


class VarArgsAgent(AgentBase):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[Any, ...]] = []

    async def reply(self, first: Any, *args: Any, flag: bool = False, **kwargs: Any) -> Msg:
        self.calls.append((first, args, flag, kwargs))
        return Msg("v", "ok", "assistant")


@pytest.fixture(autouse=True)
def _clean_class_hooks() -> Any:
    yield
    for cls in (AgentBase, ReActAgentBase, EchoAgent, LoudEchoAgent, OtherAgent, VarArgsAgent):
        cls.clear_class_hooks()


async def test_pre_hooks_run_instance_first_then_most_specific_class_first() -> None:
    order: list[str] = []
    agent = LoudEchoAgent()

    def recorder(label: str) -> Any:
        def hook(self: AgentBase, kwargs: dict[str, Any]) -> None:
            order.append(label)

        return hook

    AgentBase.register_class_hook("pre_reply", "base", recorder("AgentBase"))
    EchoAgent.register_class_hook("pre_reply", "echo", recorder("EchoAgent"))
    LoudEchoAgent.register_class_hook("pre_reply", "loud", recorder("LoudEchoAgent"))
    agent.register_instance_hook("pre_reply", "i1", recorder("instance-1"))
    agent.register_instance_hook("pre_reply", "i2", recorder("instance-2"))

    await agent(Msg("user", "hi", "user"))

    assert order == ["instance-1", "instance-2", "LoudEchoAgent", "EchoAgent", "AgentBase"]


async def test_hooks_fire_once_per_outer_call_despite_super_reply() -> None:
    calls: list[str] = []
    agent = LoudEchoAgent()
    LoudEchoAgent.register_class_hook("pre_reply", "count", lambda self, kw: calls.append("pre"))
    LoudEchoAgent.register_class_hook(
        "post_reply", "count", lambda self, kw, out: calls.append("post")
    )

    reply = await agent(Msg("user", "hi", "user"))

    assert reply.content == "hi!"
    assert calls == ["pre", "post"]


async def test_class_hooks_belong_to_their_class() -> None:
    fired: list[str] = []
    LoudEchoAgent.register_class_hook("pre_reply", "h", lambda self, kw: fired.append("loud"))
    EchoAgent.register_class_hook("pre_reply", "h", lambda self, kw: fired.append("echo"))

    await OtherAgent()(Msg("user", "x", "user"))
    assert fired == ["echo"]  # inherited from EchoAgent, not LoudEchoAgent's

    fired.clear()
    LoudEchoAgent.clear_class_hooks()
    await LoudEchoAgent()(Msg("user", "x", "user"))
    assert fired == ["echo"]  # clearing the subclass left the base class's hook alone
    assert list(EchoAgent._class_pre_reply_hooks) == ["h"]
    assert AgentBase._class_pre_reply_hooks == {}


async def test_hook_receives_deep_copies_and_must_return_to_change_arguments() -> None:
    agent = EchoAgent()
    original = Msg("user", "hello", "user")

    def mutate_only(self: AgentBase, kwargs: dict[str, Any]) -> None:
        kwargs["msg"].content = "mutated"
        kwargs["suffix"] = "?"

    agent.register_instance_hook("pre_reply", "mutate", mutate_only)
    reply = await agent(original)
    assert reply.content == "hello"
    assert agent.seen[-1] is original  # no dict returned: the original objects are passed

    def replace(self: AgentBase, kwargs: dict[str, Any]) -> dict[str, Any]:
        kwargs["suffix"] = "?"
        return kwargs

    agent.register_instance_hook("pre_reply", "replace", replace)
    reply = await agent(original)
    assert reply.content == "hello?"
    assert agent.seen[-1] is not original
    assert original.content == "hello"


async def test_post_hooks_replace_output_only_when_returning() -> None:
    agent = EchoAgent()
    seen_kwargs: list[dict[str, Any]] = []

    def observe_only(self: AgentBase, kwargs: dict[str, Any], output: Msg) -> None:
        seen_kwargs.append(kwargs)
        output.content = "changed in place"

    async def replace(self: AgentBase, kwargs: dict[str, Any], output: Msg) -> Msg:
        return Msg(output.name, output.content.upper(), "assistant")

    agent.register_instance_hook("post_reply", "observe", observe_only)
    reply = await agent(Msg("user", "abc", "user"))
    assert reply.content == "abc"
    assert seen_kwargs[0]["suffix"] == ""
    agent.register_instance_hook("post_reply", "replace", replace)
    assert (await agent(Msg("user", "abc", "user"))).content == "ABC"


async def test_arguments_are_normalised_with_defaults() -> None:
    agent = EchoAgent()
    seen: list[dict[str, Any]] = []
    agent.register_instance_hook("pre_reply", "see", lambda self, kw: seen.append(kw))

    await agent()

    assert seen == [{"msg": None, "suffix": ""}]


async def test_var_args_are_unpacked_after_hooks() -> None:
    agent = VarArgsAgent()
    seen: list[dict[str, Any]] = []

    def hook(self: AgentBase, kwargs: dict[str, Any]) -> dict[str, Any]:
        seen.append(deepcopy(kwargs))
        kwargs["args"] = (*kwargs["args"], 3)
        kwargs["kwargs"]["extra"] = True
        return kwargs

    agent.register_instance_hook("pre_reply", "hook", hook)
    await agent(1, 2, flag=True, other="x")

    assert seen == [{"first": 1, "args": (2,), "flag": True, "kwargs": {"other": "x"}}]
    assert agent.calls == [(1, (2, 3), True, {"other": "x", "extra": True})]


async def test_post_hooks_do_not_run_when_the_method_raises() -> None:
    class Failing(EchoAgent):
        async def reply(self, msg: Msg | None = None, suffix: str = "") -> Msg:
            raise RuntimeError("boom")

    agent = Failing()
    post: list[Any] = []
    agent.register_instance_hook("post_reply", "post", lambda self, kw, out: post.append(out))

    with pytest.raises(RuntimeError, match="boom"):
        await agent(Msg("user", "x", "user"))
    assert post == []
    # The guard was reset: hooks fire again on the next call.
    agent.register_instance_hook("pre_reply", "pre", lambda self, kw: post.append("pre"))
    with pytest.raises(RuntimeError):
        await agent(Msg("user", "x", "user"))
    assert post == ["pre"]


async def test_pre_hook_must_return_a_dict_or_none() -> None:
    agent = EchoAgent()
    agent.register_instance_hook("pre_reply", "bad", lambda self, kw: "not a dict")
    with pytest.raises(AssertionError):
        await agent(Msg("user", "x", "user"))


async def test_observe_and_print_hooks() -> None:
    agent = EchoAgent()
    events: list[Any] = []
    agent.register_instance_hook("pre_observe", "pre", lambda self, kw: events.append(kw["msg"]))
    agent.register_instance_hook(
        "post_observe", "post", lambda self, kw, out: events.append(("out", out))
    )
    agent.register_instance_hook(
        "pre_print", "print", lambda self, kw: events.append(("print", kw["last"]))
    )
    msg = Msg("user", "seen", "user")
    await agent.observe(msg)
    await agent.print(msg, last=False)

    assert events[0].content == "seen" and events[0] is not msg
    assert events[1:] == [("out", None), ("print", False)]


async def test_no_hooks_means_no_copies() -> None:
    class NotCopyable:
        def __deepcopy__(self, memo: dict[int, Any]) -> Any:
            raise AssertionError("deep-copied")

    agent = EchoAgent()
    msg = Msg("user", "x", "user", metadata={"payload": NotCopyable()})
    await agent.print(msg)
    await agent(msg)
    assert agent.seen[-1] is msg

    agent.register_instance_hook("pre_print", "copy", lambda self, kw: None)
    with pytest.raises(AssertionError, match="deep-copied"):
        await agent.print(msg)


def test_hook_management_errors() -> None:
    agent = EchoAgent()
    with pytest.raises(ValueError) as excinfo:
        agent.remove_instance_hook("pre_reply", "missing")
    assert str(excinfo.value) == (
        "Hook 'missing' not found in 'pre_reply' hooks of EchoAgent instance."
    )
    with pytest.raises(ValueError) as excinfo:
        EchoAgent.remove_class_hook("post_print", "missing")
    assert str(excinfo.value) == (
        "Hook 'missing' not found in 'post_print' hooks of EchoAgent class."
    )
    with pytest.raises(AssertionError, match="Invalid hook type: pre_reasoning"):
        EchoAgent.register_class_hook("pre_reasoning", "x", lambda self, kw: None)
    with pytest.raises(AssertionError, match="Invalid hook type: nope"):
        agent.clear_instance_hooks("nope")
    with pytest.raises(AttributeError):
        agent.register_instance_hook("pre_reasoning", "x", lambda self, kw: None)


def test_register_remove_and_clear_hooks() -> None:
    agent = EchoAgent()
    hook = lambda self, kw: None  # noqa: E731
    agent.register_instance_hook("pre_reply", "a", hook)
    agent.register_instance_hook("pre_print", "b", hook)
    agent.remove_instance_hook("pre_reply", "a")
    assert agent._instance_pre_reply_hooks == {}
    agent.clear_instance_hooks()
    assert agent._instance_pre_print_hooks == {}

    EchoAgent.register_class_hook("pre_reply", "a", hook)
    EchoAgent.register_class_hook("post_print", "b", hook)
    EchoAgent.clear_class_hooks("pre_reply")
    assert EchoAgent._class_pre_reply_hooks == {}
    assert list(EchoAgent._class_post_print_hooks) == ["b"]
    EchoAgent.remove_class_hook("post_print", "b")
    assert EchoAgent._class_post_print_hooks == {}


def test_react_agent_base_supports_reasoning_and_acting_hooks() -> None:
    assert ReActAgentBase.supported_hook_types == [
        "pre_reply",
        "post_reply",
        "pre_print",
        "post_print",
        "pre_observe",
        "post_observe",
        "pre_reasoning",
        "post_reasoning",
        "pre_acting",
        "post_acting",
    ]
    ReActAgentBase.register_class_hook("pre_acting", "x", lambda self, kw: None)
    assert list(ReActAgentBase._class_pre_acting_hooks) == ["x"]
    assert not hasattr(AgentBase, "_class_pre_acting_hooks")
