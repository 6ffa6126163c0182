"""ConversationTree on its own: versions inside versions survive switching away and back,
a switch touches only the tail, saving and loading keeps every version."""

from __future__ import annotations

from typing import Any

from desktop_agent.app import ConversationTree, VersionInfo
from desktop_agent.message import Msg

Entry = tuple[Msg, list[str]]


def _turn(question: str, answer: str) -> list[Entry]:
    return [(Msg("User", question, "user"), []), (Msg("Bot", answer, "assistant"), [])]


def _texts(content: list[Entry]) -> list[str]:
    return [msg.get_text_content() or "" for msg, _marks in content]


def _answer(content: list[Entry], text: str) -> None:
    content.append((Msg("Bot", text, "assistant"), []))


def test_versions_inside_versions_survive_switching_away_and_back() -> None:
    tree = ConversationTree()
    content = [*_turn("q1", "a1"), *_turn("q2", "a2"), *_turn("q3", "a3")]
    tree.add_user_version(content, 2, (Msg("User", "q2 edited", "user"), []))
    _answer(content, "b2")
    content += _turn("q3b", "b3")
    tree.add_answer_version(content, 4)  # regenerate q3b's answer in the new branch
    _answer(content, "b3 again")
    assert _texts(content) == ["q1", "a1", "q2 edited", "b2", "q3b", "b3 again"]

    assert tree.switch_user(content, 2, -1)
    assert _texts(content) == ["q1", "a1", "q2", "a2", "q3", "a3"]
    assert tree.user_versions(content[2][0].id) == VersionInfo(0, 2)
    assert tree.switch_user(content, 2, 1)
    assert _texts(content) == ["q1", "a1", "q2 edited", "b2", "q3b", "b3 again"]
    assert tree.answer_versions(content[4][0].id) == VersionInfo(1, 2)
    assert tree.switch_answer(content, 4, -1)
    assert _texts(content)[-1] == "b3"
    assert not tree.switch_answer(content, 4, -1)  # nothing further left


def test_a_switch_keeps_the_history_before_it() -> None:
    tree = ConversationTree()
    content: list[Entry] = []
    for turn in range(50):
        content += _turn(f"q{turn}", f"a{turn}")
    tree.add_answer_version(content, 98)
    _answer(content, "again")
    before = list(content[:98])
    same_list = content
    assert tree.switch_answer(content, 98, -1)
    assert content is same_list
    assert all(a is b for a, b in zip(before, content, strict=False))


def test_saving_and_loading_keeps_every_version() -> None:
    tree = ConversationTree()
    content = [*_turn("q1", "a1"), *_turn("q2", "a2")]
    tree.add_user_version(content, 0, (Msg("User", "q1 edited", "user"), []))
    _answer(content, "b1")
    tree.add_answer_version(content, 0)
    _answer(content, "c1")
    saved: dict[str, Any] = tree.state_dict()
    again = ConversationTree()
    again.load_state_dict(saved)
    assert again.state_dict() == saved
    assert again.user_versions(content[0][0].id) == VersionInfo(1, 2)
    assert again.answer_versions(content[0][0].id) == VersionInfo(1, 2)
    assert again.switch_user(content, 0, -1)
    assert _texts(content) == ["q1", "a1", "q2", "a2"]


def test_delete_and_undo() -> None:
    tree = ConversationTree()
    content = [*_turn("q1", "a1"), *_turn("q2", "a2"), *_turn("q3", "a3")]
    deleted = tree.delete_turn(content, 2)
    assert _texts(content) == ["q1", "a1", "q3", "a3"]
    assert tree.undo_delete(content, deleted) == 2
    assert _texts(content) == ["q1", "a1", "q2", "a2", "q3", "a3"]


def test_replaced_rows_leave_no_tool_status_behind() -> None:
    from desktop_agent.app import Conversation, ToolStatus

    conversation = Conversation()
    question = Msg("User", "q", "user")
    call = Msg("Bot", [{"type": "tool_use", "id": "call_1", "name": "t", "input": {}}], "assistant")
    result = Msg(
        "system",
        [{"type": "tool_result", "id": "call_1", "name": "t", "output": "done"}],
        "system",
    )
    conversation.reset([question, call, result])
    assert conversation.tool_status("call_1") is ToolStatus.DONE
    again = Msg(
        "Bot", [{"type": "tool_use", "id": "call_1", "name": "t", "input": {}}], "assistant"
    )
    conversation.replace_from(1, [again])  # another version, whose call has no result yet
    assert [e.msg for e in conversation.entries] == [question, again]
    assert conversation.tool_result("call_1") is None
    assert conversation.tool_status("call_1") is ToolStatus.INTERRUPTED
