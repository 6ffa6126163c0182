"""The live preview and Apply, on a real qasync loop and a real loopback model server.

Async tests: signals are awaited through futures (the ``wait_signal`` fixture), never
with ``qtbot.waitSignal``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from desktop_agent.agent import ReActAgent
from desktop_agent.context import InputModule
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg
from desktop_agent.model import OpenAIChatModel
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.template_editor import Preview, TemplateEditorWindow, build_preview

WaitSignal = Callable[..., Any]
AGENT_VARIABLES = {"agent_name": "Friday", "sys_prompt": "Keep answers short."}


@pytest.fixture
def server() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer() as running:
        yield running


@pytest.fixture
async def model(server: OpenAICompatServer) -> AsyncIterator[OpenAIChatModel]:
    chat_model = OpenAIChatModel(
        "test-model",
        api_key="test-key",
        client_kwargs={"base_url": server.base_url, "max_retries": 0},
    )
    yield chat_model
    await chat_model.aclose()


@pytest.fixture
async def memory() -> InMemoryMemory:
    conversation = InMemoryMemory()
    await conversation.add(Msg("user", "What is the weather in Paris?", "user"))
    await conversation.add(Msg("Friday", "Sunny, 24°C.", "assistant"))
    await conversation.add(Msg("user", "And tomorrow?", "user"))
    return conversation


def open_editor(
    qtbot: QtBot, module: InputModule, memory: InMemoryMemory | None = None, **kwargs: Any
) -> TemplateEditorWindow:
    editor = TemplateEditorWindow(
        module,
        memory_provider=lambda: memory,
        variables_provider=lambda: AGENT_VARIABLES,
        **kwargs,
    )
    qtbot.addWidget(editor, before_close_func=lambda w: w.reload_from_session())
    return editor


def report_cell(editor: TemplateEditorWindow, row: int, column: int) -> str:
    item = editor.preview_pane.report.topLevelItem(row)
    assert item is not None
    return item.text(column)


def text_of(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, str):
        return content
    return "\n".join(part["text"] for part in content if part.get("type") == "text")


async def test_preview_shows_each_modules_reason_and_updates_as_you_type(
    qtbot: QtBot, wait_signal: WaitSignal, input_module: InputModule, memory: InMemoryMemory
) -> None:
    editor = open_editor(qtbot, input_module, memory)
    built = wait_signal(editor.preview_finished)
    editor.show()
    (preview,) = await built

    reasons = {r.module_name: (r.included, r.reason) for r in preview.reports}
    assert reasons["persona"] == (True, "always")
    assert reasons["instructions"] == (True, "has_content returned True")
    assert reasons["long_term_memory"] == (False, "is_relevant_func returned False")
    assert reasons["knowledge"] == (False, "has_content returned False")
    assert [(m.role, m.text) for m in preview.messages][1:] == [
        ("user", "What is the weather in Paris?"),
        ("assistant", "Sunny, 24°C."),
        ("user", "And tomorrow?"),
    ]
    pane = editor.preview_pane
    assert report_cell(editor, 3, 1) == "✗ left out: no words in common with your message"
    assert report_cell(editor, 0, 1) == "✓ included: always"
    assert report_cell(editor, 1, 1) == "✓ included: its variables have content"
    assert report_cell(editor, 0, 2) == str(preview.reports[0].tokens)
    assert pane.prompt.toPlainText().startswith("You are Friday, an AI assistant")
    assert "And tomorrow?" in pane.messages.toPlainText()
    assert "7 modules" in pane.status.text() and "tokens" in pane.status.text()

    updated = wait_signal(editor.preview_finished)
    row = editor.form.segments.rows[2]
    assert row.text_editor is not None
    row.text_editor.setPlainText(", a pirate.")
    (preview,) = await updated
    assert preview.messages[0].text.startswith("You are Friday, a pirate.\n\nKeep answers short.")
    assert pane.prompt.toPlainText().startswith("You are Friday, a pirate.")

    updated = wait_signal(editor.preview_finished)
    editor.form.importance.setCurrentIndex(editor.form.importance.findData("false"))
    (preview,) = await updated
    assert (preview.reports[0].included, preview.reports[0].reason) == (
        False,
        "importance_func=false",
    )
    assert report_cell(editor, 0, 2) == "–"


async def test_a_sample_message_drives_the_importance_functions(
    qtbot: QtBot, wait_signal: WaitSignal, memory: InMemoryMemory
) -> None:
    module = InputModule(variables={"long_term_memory": lambda: "The user lives in Paris."})
    editor = open_editor(qtbot, module, memory)
    built = wait_signal(editor.preview_finished)
    editor.show()
    (preview,) = await built
    assert not preview.reports[3].included  # "And tomorrow?" shares no word with it

    updated = wait_signal(editor.preview_finished)
    editor.preview_pane.sample_input.setText("Is Paris nice?")
    (preview,) = await updated
    assert preview.reports[3].included
    assert preview.reports[3].reason == "is_relevant_func returned True"
    assert preview.messages[-1].text == "Is Paris nice?"


async def test_typing_is_debounced_into_one_build(
    qtbot: QtBot, wait_signal: WaitSignal, input_module: InputModule
) -> None:
    editor = open_editor(qtbot, input_module)
    built = wait_signal(editor.preview_finished)
    editor.show()
    await built
    starts: list[int] = []
    editor.preview.started.connect(lambda: starts.append(1))

    updated = wait_signal(editor.preview_finished)
    for name in ("p", "pi", "pir", "pira", "pirat"):
        editor.form.name.setText(name)
    (preview,) = await updated
    assert preview.reports[0].module_name == "pirat"
    assert starts == [1]


async def test_a_newer_preview_cancels_a_stale_one(qtbot: QtBot, wait_signal: WaitSignal) -> None:
    calls = 0
    never = asyncio.Event()

    async def slow_knowledge() -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            await never.wait()  # the first build hangs here until it is cancelled
        return "fresh"

    module = InputModule(variables={"knowledge": slow_knowledge})
    editor = open_editor(qtbot, module)
    started = wait_signal(editor.preview.started)
    editor.show()
    await started
    stale = editor.preview.task
    assert stale is not None
    await asyncio.sleep(0)

    finished = wait_signal(editor.preview_finished)
    editor.form.name.setText("me")
    (preview,) = await finished
    assert stale.cancelled()
    assert preview.reports[0].module_name == "me"
    assert preview.reports[4].text.endswith("fresh")


async def test_preview_leaves_the_session_untouched(input_module: InputModule) -> None:
    for text in ("one", "two", "three"):
        input_module.add_to_short_term(text)
    before = input_module.config
    data = before.model_dump(mode="json")
    data["short_term_max_utterances"] = 1
    data["context_template"][0]["segments"][0]["value"] = "Draft: "
    draft = input_module.validate_config(data)

    preview = await build_preview(input_module, draft, variables=AGENT_VARIABLES)

    assert isinstance(preview, Preview)
    assert preview.prompt.startswith("Draft: Friday")
    assert input_module.config is before
    assert [m.content for m in input_module.short_term_memory] == ["one", "two", "three"]
    assert input_module.last_build_report == []


async def test_apply_changes_what_the_next_turn_sends(
    qtbot: QtBot, server: OpenAICompatServer, model: OpenAIChatModel
) -> None:
    module = InputModule()
    agent = ReActAgent(
        name="Friday",
        sys_prompt="Keep answers short.",
        model=model,
        formatter=OpenAIChatFormatter(),
        input_module=module,
    )
    agent.set_console_output_enabled(False)
    saved: list[object] = []
    editor = TemplateEditorWindow(
        agent.input_module,  # type: ignore[arg-type]
        memory_provider=lambda: agent.memory,
        variables_provider=lambda: {"agent_name": agent.name, "sys_prompt": agent.sys_prompt},
        on_applied=saved.append,
    )
    qtbot.addWidget(editor, before_close_func=lambda w: w.reload_from_session())
    server.add_reply("Hello.", "Ahoy.", "Arr.")

    row = editor.form.segments.rows[2]
    assert row.text_editor is not None
    row.text_editor.setPlainText(", a pirate. Always answer like a pirate.")
    await agent(Msg("user", "Hi", "user"))  # the draft is not applied yet
    first = await server.wait_for_request()
    assert "pirate" not in text_of(first.body["messages"][0])

    editor.chrome.apply.click()
    assert saved == [module.config]
    await agent(Msg("user", "Hi again", "user"))
    second = await server.wait_for_request()
    system = text_of(second.body["messages"][0])
    assert second.body["messages"][0]["role"] == "system"
    assert system.startswith("You are Friday, a pirate. Always answer like a pirate.")

    editor.select_module(editor.document.module_names().index("chat_history"))
    editor.form.importance.setCurrentIndex(editor.form.importance.findData("false"))
    assert editor.apply()
    await agent(Msg("user", "Third", "user"))
    third = await server.wait_for_request()
    assert [m["role"] for m in third.body["messages"]] == ["system", "user"]
    assert text_of(third.body["messages"][1]) == "Third"


async def test_a_running_build_is_cancelled_when_the_window_is_destroyed(
    wait_signal: WaitSignal, wait_until: Callable[..., Any]
) -> None:
    never = asyncio.Event()

    async def hanging_knowledge() -> str:
        await never.wait()
        return ""

    editor = TemplateEditorWindow(InputModule(variables={"knowledge": hanging_knowledge}))
    started = wait_signal(editor.preview.started)
    editor.show()
    await started
    task = editor.preview.task
    assert task is not None
    editor.deleteLater()  # destroyed without a close event
    await wait_until(task.done)
    assert task.cancelled()
