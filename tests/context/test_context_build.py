"""Building prompts and messages: text, merging, roles, the conversation's placement, report."""

from __future__ import annotations

from typing import Any

from context_helpers import AUDIO, IMAGE, config, module, tool_call, tool_result

from desktop_agent.context import InputModule, ModuleReport
from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg


def engine(*modules: dict[str, Any], **kwargs: Any) -> InputModule:
    input_module = InputModule(**kwargs)
    input_module.load_config(config(*modules))
    return input_module


async def memory_of(*messages: Msg) -> InMemoryMemory:
    memory = InMemoryMemory()
    await memory.add(list(messages))
    return memory


def shape(messages: list[Msg]) -> list[tuple[str, str, Any]]:
    """(role, name, content) of each message; text-only content collapsed to its text."""
    result = []
    for msg in messages:
        content = msg.content
        if isinstance(content, list) and all(b["type"] == "text" for b in content):
            content = msg.get_text_content()
        result.append((msg.role, msg.name, content))
    return result


def dialogue() -> list[Msg]:
    """A previous exchange, then a user message with an image and audio, then a tool turn."""
    return [
        Msg("user", "Hi, I'm Ana.", "user"),
        Msg("Friday", "Hello Ana!", "assistant"),
        Msg("user", [{"type": "text", "text": "What is in this photo?"}, IMAGE, AUDIO], "user"),
        tool_call("call_1", city="Lisbon"),
        tool_result("call_1", "Sunny, 24°C"),
        tool_call("call_2", name="search", query="photo"),
        tool_result("call_2", "A tram", name="search"),
    ]


# ----------------------------------------------------------------------- build_prompt


async def test_build_prompt_joins_modules_with_blank_lines() -> None:
    input_module = engine(
        module("intro", ("text", "  You are "), ("variable", "agent_name"), ("text", ".\n")),
        module("empty", ("variable", "knowledge")),
        module("question", ("text", "Question: "), ("variable", "current_user_input"), role="user"),
    )
    text = await input_module.build_prompt("Why is the sky blue?", agent_name="Friday")
    assert text == "You are Friday.\n\nQuestion: Why is the sky blue?"


async def test_current_user_input_may_be_a_msg_or_passed_as_a_variable() -> None:
    input_module = engine(module("q", ("variable", "current_user_input")))
    assert await input_module.build_prompt(Msg("Ana", "from a Msg", "user")) == "from a Msg"
    assert await input_module.build_prompt(current_user_input="as variable") == "as variable"


async def test_build_prompt_renders_chat_history_as_lines() -> None:
    input_module = InputModule()
    memory = await memory_of(*dialogue())
    text = await input_module.build_prompt(memory=memory, agent_name="Friday")
    history = "user: Hi, I'm Ana.\nFriday: Hello Ana!"
    turn = (
        'Friday: [tool call get_weather({"city": "Lisbon"})]\n'
        "system: [tool result get_weather: Sunny, 24°C]\n"
        'Friday: [tool call search({"query": "photo"})]\n'
        "system: [tool result search: A tram]"
    )
    assert text.endswith(f"\n\n{history}\n\nWhat is in this photo?\n\n{turn}")
    assert text.startswith("You are Friday, an AI assistant")


async def test_build_prompt_uses_the_short_term_memory_without_a_memory() -> None:
    input_module = engine(
        module("history", ("variable", "chat_history")),
        module("input", ("variable", "current_user_input"), role="user"),
    )
    input_module.add_to_short_term("Hello")
    input_module.add_to_short_term(Msg("Friday", "Hi!", "assistant"))
    assert await input_module.build_prompt("How are you?") == (
        "user: Hello\nFriday: Hi!\n\nHow are you?"
    )
    assert list(input_module.short_term_memory)[-1].content == "Hi!"  # builds never add


# -------------------------------------------------------------------- build_messages


async def test_consecutive_modules_of_one_role_are_merged() -> None:
    input_module = engine(
        module("a", ("text", "A")),
        module("b", ("text", "B")),
        module("u1", ("text", "U1"), role="user"),
        module("u2", ("text", "U2"), role="user"),
        module("c", ("text", "C")),
        module("d", ("text", "D"), role="assistant"),
    )
    messages = await input_module.build_messages(agent_name="Friday")
    assert shape(messages) == [
        ("system", "system", "A\n\nB"),
        ("user", "user", "U1\n\nU2"),
        ("system", "system", "C"),
        ("assistant", "Friday", "D"),
    ]
    assert messages[0].content == [{"type": "text", "text": "A\n\nB"}]


async def test_excluded_and_empty_modules_do_not_split_a_merge() -> None:
    input_module = engine(
        module("a", ("text", "A")),
        module("off", ("text", "X"), importance=False, role="user"),
        module("blank", ("variable", "knowledge"), role="user"),
        module("b", ("text", "B")),
    )
    assert shape(await input_module.build_messages()) == [("system", "system", "A\n\nB")]


async def test_module_role_defaults_to_system() -> None:
    input_module = InputModule()
    input_module.load_config(
        {"context_template": [{"module_name": "a", "segments": [{"type": "text", "value": "A"}]}]}
    )
    assert shape(await input_module.build_messages()) == [("system", "system", "A")]


async def test_default_template_mid_turn_is_a_valid_ordered_chat() -> None:
    input_module = InputModule()
    memory = await memory_of(*dialogue())
    messages = await input_module.build_messages(
        memory=memory, agent_name="Friday", sys_prompt="Answer briefly."
    )
    roles = [msg.role for msg in messages]
    assert roles == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "system",
        "assistant",
        "system",
    ]
    system = messages[0].get_text_content() or ""
    assert system.startswith("You are Friday, an AI assistant in a desktop chat app.")
    assert "\n\nAnswer briefly.\n\nCurrent date and time: " in system
    stored = await memory.get_memory()
    assert [m.id for m in messages[1:3]] == [m.id for m in stored[:2]]
    current = messages[3]
    assert current.name == "user"
    assert current.content == [{"type": "text", "text": "What is in this photo?"}, IMAGE, AUDIO]
    assert [m.id for m in messages[4:]] == [m.id for m in stored[3:]]
    assert messages[4].content == stored[3].content  # tool calls intact
    user_texts = [m.get_text_content() for m in messages if m.role == "user"]
    assert user_texts.count("What is in this photo?") == 1


async def test_before_any_tool_call_the_current_message_comes_last() -> None:
    input_module = InputModule()
    memory = await memory_of(*dialogue()[:3])
    messages = await input_module.build_messages(memory=memory, agent_name="Friday")
    assert [m.role for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[-1].get_text_content() == "What is in this photo?"


async def test_chat_history_alone_expands_to_the_structured_conversation() -> None:
    input_module = engine(
        module("intro", ("text", "S")), module("history", ("variable", "chat_history"))
    )
    memory = await memory_of(*dialogue())
    messages = await input_module.build_messages(memory=memory)
    stored = await memory.get_memory()
    assert messages[0].get_text_content() == "S"
    assert messages[1:] == stored  # the memory's own messages, whole conversation, in order


async def test_chat_history_mixed_with_text_renders_lines() -> None:
    input_module = engine(
        module("history", ("text", "Conversation so far:\n"), ("variable", "chat_history")),
        module("input", ("variable", "current_user_input"), role="user"),
    )
    memory = await memory_of(Msg("user", "Hi", "user"), Msg("Friday", "Hello", "assistant"))
    memory_msgs = await memory.get_memory()
    await memory.add(Msg("user", "Next question", "user"))
    messages = await input_module.build_messages(memory=memory)
    assert shape(messages) == [
        ("system", "system", "Conversation so far:\nuser: Hi\nFriday: Hello"),
        ("user", "user", "Next question"),
    ]
    assert len(memory_msgs) == 2


async def test_hints_and_tool_results_are_never_the_current_message() -> None:
    input_module = InputModule()
    memory = await memory_of(*dialogue())
    hint = Msg("user", "<system-hint>Now answer.</system-hint>", "user")
    await memory.add(hint, marks="hint")
    messages = await input_module.build_messages(memory=memory)
    assert messages[3].get_text_content() == "What is in this photo?"
    assert messages[-1].id == hint.id  # the hint stays at the end of the turn


async def test_compressed_messages_are_replaced_by_the_summary() -> None:
    input_module = InputModule()
    old = [Msg("user", "old question", "user"), Msg("Friday", "old answer", "assistant")]
    memory = await memory_of(*old, Msg("user", "new question", "user"))
    await memory.update_messages_mark("compressed", msg_ids=[m.id for m in old])
    await memory.update_compressed_summary("<summary>They talked.</summary>")
    messages = await input_module.build_messages(memory=memory)
    assert shape(messages[1:]) == [
        ("user", "user", "<summary>They talked.</summary>"),
        ("user", "user", "new question"),
    ]


async def test_without_an_input_module_chat_history_shows_everything() -> None:
    input_module = engine(module("s", ("text", "S")), module("h", ("variable", "chat_history")))
    memory = await memory_of(*dialogue())
    messages = await input_module.build_messages(memory=memory)
    assert len(messages) == 1 + len(dialogue())
    assert messages[3].content[1:] == [IMAGE, AUDIO]


async def test_the_input_module_takes_the_turn_even_if_placed_elsewhere() -> None:
    input_module = engine(
        module("s", ("text", "S")),
        module("h", ("variable", "chat_history")),
        module("reminder", ("text", "Keep it short.")),
        module("input", ("text", "Q: "), ("variable", "current_user_input"), role="user"),
        module("after", ("text", "Answer in English.")),
    )
    memory = await memory_of(*dialogue())
    messages = await input_module.build_messages(memory=memory)
    assert [m.role for m in messages] == [
        "system",  # S
        "user",
        "assistant",  # history
        "system",  # reminder
        "user",  # Q: ... with the image and audio
        "assistant",
        "system",
        "assistant",
        "system",  # this turn's tool calls
        "system",  # after
    ]
    assert messages[4].content == [
        {"type": "text", "text": "Q: What is in this photo?"},
        IMAGE,
        AUDIO,
    ]
    assert messages[-1].get_text_content() == "Answer in English."


async def test_a_user_role_input_module_is_preferred_as_the_anchor() -> None:
    input_module = engine(
        module("topic", ("text", "The user asks about: "), ("variable", "current_user_input")),
        module("h", ("variable", "chat_history")),
        module("input", ("variable", "current_user_input"), role="user"),
        module("echo", ("text", "Recall: "), ("variable", "current_user_input")),
    )
    memory = await memory_of(*dialogue()[:4])
    messages = await input_module.build_messages(memory=memory)
    assert [m.role for m in messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "system",
    ]
    assert messages[3].content[1:] == [IMAGE, AUDIO]
    assert messages[0].get_text_content() == "The user asks about: What is in this photo?"


async def test_when_the_input_module_is_left_out_the_turn_stays_in_place() -> None:
    input_module = engine(
        module("h", ("variable", "chat_history")),
        module(
            "input",
            ("text", "Q: "),
            ("variable", "current_user_input"),
            importance="no",
            role="user",
        ),
        module("after", ("text", "A")),
        importance_funcs={"no": lambda: False},
    )
    memory = await memory_of(*dialogue())
    messages = await input_module.build_messages(memory=memory)
    stored = await memory.get_memory()
    assert [m.id for m in messages[:-1]] == [m.id for m in stored]
    assert messages[-1].get_text_content() == "A"


async def test_an_explicit_input_not_in_memory_follows_the_whole_conversation() -> None:
    input_module = InputModule()
    memory = await memory_of(*dialogue()[:2])
    messages = await input_module.build_messages("A draft", memory=memory)
    assert shape(messages[1:]) == [
        ("user", "user", "Hi, I'm Ana."),
        ("assistant", "Friday", "Hello Ana!"),
        ("user", "user", "A draft"),
    ]


async def test_an_explicit_input_msg_in_memory_splits_there() -> None:
    input_module = InputModule()
    messages_in = dialogue()
    memory = await memory_of(*messages_in[:3], Msg("user", "A later one", "user"))
    messages = await input_module.build_messages(messages_in[0], memory=memory)
    assert messages[1].get_text_content() == "Hi, I'm Ana."
    assert messages[1].role == "user"
    assert [m.get_text_content() for m in messages[2:]] == [
        "Hello Ana!",
        "What is in this photo?",
        "A later one",
    ]


async def test_an_empty_conversation_gives_only_the_system_message() -> None:
    messages = await InputModule().build_messages(memory=InMemoryMemory())
    assert [m.role for m in messages] == ["system"]


# ---------------------------------------------------------------------------- report


async def test_report_covers_every_module_on_every_build() -> None:
    input_module = InputModule(token_counter=lambda text: len(text.split()))
    memory = await memory_of(*dialogue()[:3])
    await input_module.build_messages(memory=memory, agent_name="Friday", long_term_memory="cats")
    report = {r.module_name: r for r in input_module.last_build_report}
    assert list(report) == [m.module_name for m in input_module.config.context_template]
    assert report["persona"].included and report["persona"].reason == "always"
    assert report["instructions"] == ModuleReport(
        "instructions", False, "has_content returned False", "", 0
    )
    assert report["long_term_memory"].reason == "is_relevant_func returned False"
    assert report["long_term_memory"].text.endswith("helps):\ncats")
    assert report["chat_history"].text == "user: Hi, I'm Ana.\nFriday: Hello Ana!"
    assert report["chat_history"].tokens == 7
    assert report["user_input"].text == "What is in this photo?"
    assert report["user_input"].tokens == 5
    await input_module.build_prompt("What do cats eat?", long_term_memory="cats")
    report = {r.module_name: r for r in input_module.last_build_report}
    assert report["long_term_memory"].included
    assert report["long_term_memory"].reason == "is_relevant_func returned True"


async def test_context_retrieved_after_the_user_message_belongs_to_the_turn() -> None:
    input_module = InputModule()
    retrieved = Msg("user", "<knowledge>Trams are yellow.</knowledge>", "user")
    memory = await memory_of(*dialogue()[:3], retrieved, *dialogue()[3:5])
    messages = await input_module.build_messages(memory=memory)
    assert [m.role for m in messages] == ["system", "user", "assistant", "user", "user",
                                          "assistant", "system"]  # fmt: skip
    assert messages[3].get_text_content() == "What is in this photo?"
    assert messages[4].id == retrieved.id
    report = {r.module_name: r for r in input_module.last_build_report}
    assert report["user_input"].text == "What is in this photo?"


async def test_the_summary_is_never_the_current_message() -> None:
    input_module = InputModule()
    old = [Msg("user", "old question", "user"), Msg("Friday", "old answer", "assistant")]
    memory = await memory_of(*old, Msg("user", "new question", "user"))
    await memory.update_messages_mark("compressed", msg_ids=[m.id for m in old])
    await memory.update_compressed_summary("They talked.")
    await input_module.build_messages(memory=memory)
    report = {r.module_name: r for r in input_module.last_build_report}
    assert report["chat_history"].text == "user: They talked."
    assert report["user_input"].text == "new question"
