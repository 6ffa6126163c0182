"""The version controls in the chat pane: the ‹ 2/3 › switcher, Edit with its inline editor
(text selected, Enter resends, Esc cancels), Regenerate and Delete on a final answer only."""

from __future__ import annotations

from _chat_helpers import message_row, settle
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop_agent.app import Conversation, VersionInfo
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView


def _fill(conversation: Conversation) -> tuple[Msg, Msg, Msg]:
    question = Msg("User", "What is a square?", "user")
    step = Msg(
        "Friday", [{"type": "tool_use", "id": "c1", "name": "look", "input": {}}], "assistant"
    )
    answer = Msg("Friday", "A shape with four equal sides.", "assistant")
    conversation.reset([question, step, answer])
    return question, step, answer


def _enable(view: ChatView, user: dict[str, VersionInfo], answers: dict[str, VersionInfo]) -> None:
    single = VersionInfo(0, 1)
    view.context.versions.enable(
        lambda msg_id: user.get(msg_id, single), lambda msg_id: answers.get(msg_id, single)
    )
    view.list.rebuild_rows()
    settle(view)


def test_controls_are_off_until_enabled(chat_view: ChatView, conversation: Conversation) -> None:
    _fill(conversation)
    bar = message_row(chat_view, 0).version_bar
    assert bar is not None and not bar.isVisible()


def test_switchers_show_which_version_and_ask_for_another(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    question, _step, _answer = _fill(conversation)
    _enable(chat_view, {question.id: VersionInfo(1, 3)}, {question.id: VersionInfo(0, 2)})
    user_bar = message_row(chat_view, 0).version_bar
    step_bar = message_row(chat_view, 1).version_bar
    answer_bar = message_row(chat_view, 2).version_bar
    assert user_bar is not None and step_bar is not None and answer_bar is not None
    assert user_bar.version == "2/3" and user_bar.edit_button.isVisible()
    assert not user_bar.regenerate_button.isVisible()
    assert not step_bar.isVisible()  # a tool step is not an answer
    assert answer_bar.version == "1/2"
    assert answer_bar.regenerate_button.isVisible() and answer_bar.delete_button.isVisible()
    assert not answer_bar.prev_button.isEnabled() and answer_bar.next_button.isEnabled()
    actions = chat_view.context.versions
    with qtbot.waitSignal(actions.switch_requested, timeout=1000) as switched:
        qtbot.mouseClick(user_bar.next_button, Qt.MouseButton.LeftButton)
    assert switched.args == [question.id, 1, False]
    with qtbot.waitSignal(actions.switch_requested, timeout=1000) as switched:
        qtbot.mouseClick(answer_bar.next_button, Qt.MouseButton.LeftButton)
    assert switched.args == [question.id, 1, True]
    with qtbot.waitSignal(actions.regenerate_requested, timeout=1000) as asked:
        answer_bar.regenerate_button.click()
    assert asked.args == [conversation[2].msg.id, ""]  # type: ignore[union-attr]
    with qtbot.waitSignal(actions.delete_requested, timeout=1000):
        answer_bar.delete_button.click()


def test_a_message_without_siblings_shows_no_switcher(
    chat_view: ChatView, conversation: Conversation
) -> None:
    _fill(conversation)
    _enable(chat_view, {}, {})
    bar = message_row(chat_view, 0).version_bar
    assert bar is not None and bar.isVisible() and bar.version == ""
    assert not bar.prev_button.isVisible()


def test_edit_opens_an_inline_editor_enter_resends_esc_cancels(
    qtbot: QtBot, chat_view: ChatView, conversation: Conversation
) -> None:
    question, _step, _answer = _fill(conversation)
    _enable(chat_view, {}, {})
    row = message_row(chat_view, 0)
    bar = row.version_bar
    assert bar is not None
    qtbot.mouseClick(bar.edit_button, Qt.MouseButton.LeftButton)
    settle(chat_view)
    editor = bar.editor
    assert editor is not None and editor.isVisible()
    assert editor.field.textCursor().selectedText() == "What is a square?"
    assert editor.field.hasFocus()
    assert not row.block_widgets("text")[0].isVisible()

    qtbot.keyClick(editor.field, Qt.Key.Key_Escape)
    assert bar.editor is None and row.block_widgets("text")[0].isVisible()

    bar.start_edit()
    editor = bar.editor
    assert editor is not None
    qtbot.keyClicks(editor.field, "What is a circle?")
    qtbot.keyClick(editor.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(editor.field, "Briefly.")
    with qtbot.waitSignal(chat_view.context.versions.edit_submitted, timeout=1000) as sent:
        qtbot.keyClick(editor.field, Qt.Key.Key_Return)
    assert sent.args == [question.id, "What is a circle?\nBriefly."]
    assert bar.editor is None
