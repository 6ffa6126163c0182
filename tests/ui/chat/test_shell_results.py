"""A shell/Python tool result reads like a result: exit code, output, errors."""

from __future__ import annotations

from _chat_helpers import message_row, settle

from desktop_agent.app import Conversation
from desktop_agent.message import Msg
from desktop_agent.ui.chat import ChatView
from desktop_agent.ui.chat._shell_output import (
    COLLAPSED_LINES,
    ShellOutputView,
    parse_shell_output,
)
from desktop_agent.ui.chat._tool_views import ToolResultCard


def _result(output: str) -> Msg:
    block = {"type": "tool_result", "id": "c1", "name": "execute_shell_command", "output": output}
    return Msg("system", [block], "system")


def _shell_view(view: ChatView) -> ShellOutputView:
    card = message_row(view, 0).block_widgets("tool_result")[0]
    assert isinstance(card, ToolResultCard)
    (shell,) = card.findChildren(ShellOutputView)
    return shell


def test_exit_code_stdout_and_stderr_without_tags(
    chat_view: ChatView, conversation: Conversation
) -> None:
    output = "<returncode>2</returncode><stdout>hello\nworld</stdout><stderr>oops</stderr>"
    conversation.upsert(_result(output), last=True)
    settle(chat_view)
    shell = _shell_view(chat_view)
    shown = shell.shown_text()
    assert shell.exit_label.text() == "Exit code 2"
    assert shell.exit_label.property("failed") is True
    assert "hello\nworld" in shown and "oops" in shown
    assert "<stdout>" not in shown and "<returncode>" not in shown
    assert shell.stdout.view.document().defaultFont().fixedPitch() or (
        shell.stdout.view.document().defaultFont().styleHint() != 0
    )


def test_a_running_program_then_its_exit_code(
    chat_view: ChatView, conversation: Conversation
) -> None:
    msg = _result("<stdout>step 1</stdout><stderr></stderr>")
    conversation.upsert(msg, last=True)
    settle(chat_view)
    assert _shell_view(chat_view).exit_label.text() == "Running…"
    assert not _shell_view(chat_view).stderr.isVisibleTo(_shell_view(chat_view))
    msg.content[0]["output"] = (
        "<returncode>0</returncode><stdout>step 1\ndone</stdout><stderr></stderr>"  # type: ignore[index]
    )
    conversation.upsert(msg, last=True)
    settle(chat_view)
    shell = _shell_view(chat_view)
    assert shell.exit_label.text() == "Exit code 0"
    assert shell.exit_label.property("failed") is False
    assert "done" in shell.shown_text()


def test_long_output_is_collapsed_until_show_all(
    chat_view: ChatView, conversation: Conversation
) -> None:
    lines = "\n".join(f"line {i}" for i in range(100))
    conversation.upsert(
        _result(f"<returncode>0</returncode><stdout>{lines}</stdout><stderr></stderr>"), True
    )
    settle(chat_view)
    stream = _shell_view(chat_view).stdout
    shown = stream.view.document().toPlainText()
    assert shown.count("\n") == COLLAPSED_LINES - 1 and "line 99" not in shown
    assert stream.toggle.isVisibleTo(stream) and stream.toggle.text() == "Show all 100 lines"
    stream.toggle.click()
    assert "line 99" in stream.view.document().toPlainText()
    assert stream.toggle.text() == "Show less"


def test_other_text_results_are_left_alone() -> None:
    assert parse_shell_output("just some text") is None
    assert parse_shell_output("<stdout>a</stdout>") is None
