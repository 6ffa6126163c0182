"""UserAgent and the terminal input method."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel, Field

from desktop_agent.agent import TerminalUserInput, UserAgent, UserInputBase, UserInputData
from desktop_agent.message import ImageBlock, TextBlock


class Booking(BaseModel):
    guests: int = Field(description="How many guests.", ge=1)
    note: str = "none"


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[str]:
    prompts: list[str] = []
    queue: Iterator[str] = iter(answers)

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        return next(queue)

    monkeypatch.setattr("builtins.input", fake_input)
    return prompts


@pytest.fixture
def quiet_user() -> Iterator[UserAgent]:
    agent = UserAgent("Ada")
    agent.set_console_output_enabled(False)
    yield agent
    UserAgent._input_method = TerminalUserInput()


async def test_text_input_becomes_a_string_message(
    quiet_user: UserAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = _answers(monkeypatch, ["hello"])
    msg = await quiet_user()
    assert (msg.name, msg.role, msg.content, msg.metadata) == ("Ada", "user", "hello", {})
    assert prompts == ["User Input: "]


async def test_structured_input_asks_each_field_and_validates(
    quiet_user: UserAgent, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = _answers(monkeypatch, ["book it", "", "zero", "0", "2", ""])
    msg = await quiet_user(structured_model=Booking)
    assert msg.content == "book it"
    assert msg.metadata == {"guests": 2, "note": "none"}
    out = capsys.readouterr().out
    assert "Structured input (press Enter to skip for optional):)" in out
    assert "Key guests is required." in out
    assert "greater than or equal to 1" in out
    assert prompts[1].startswith("\tguests (") and "'title'" not in prompts[1]


class ScriptedInput(UserInputBase):
    def __init__(self, data: UserInputData) -> None:
        self.data = data
        self.calls: list[dict[str, Any]] = []

    async def __call__(
        self,
        agent_id: str,
        agent_name: str,
        *args: Any,
        structured_model: Any = None,
        **kwargs: Any,
    ) -> UserInputData:
        self.calls.append({"agent_id": agent_id, "agent_name": agent_name})
        return self.data


async def test_input_methods_can_be_overridden(quiet_user: UserAgent) -> None:
    blocks: list[Any] = [
        TextBlock(type="text", text="look"),
        ImageBlock(type="image", source={"type": "url", "url": "https://example.com/a.png"}),
    ]
    instance_input = ScriptedInput(UserInputData(blocks_input=blocks))
    quiet_user.override_instance_input_method(instance_input)
    msg = await quiet_user()
    assert msg.content == blocks
    assert instance_input.calls == [{"agent_id": quiet_user.id, "agent_name": "Ada"}]

    class_input = ScriptedInput(
        UserInputData(blocks_input=[TextBlock(type="text", text="x")], structured_input={"k": 1})
    )
    UserAgent.override_class_input_method(class_input)
    other = UserAgent("Bob")
    other.set_console_output_enabled(False)
    msg = await other()
    assert (msg.content, msg.metadata) == ("x", {"k": 1})

    with pytest.raises(ValueError):
        quiet_user.override_instance_input_method(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        UserAgent.override_class_input_method("terminal")  # type: ignore[arg-type]


async def test_observe_is_silent_and_interrupt_is_not_supported(quiet_user: UserAgent) -> None:
    await quiet_user.observe(None)
    with pytest.raises(NotImplementedError):
        await quiet_user.handle_interrupt()
