"""``Msg``: construction, ids, timestamps, (de)serialisation, content accessors, repr."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest

import desktop_agent.message as message_pkg
from desktop_agent.message import Msg, _message_base

ID_ALPHABET = set("23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$")
CONTENT_ERROR = "The content must be a string or a list of content blocks."


def _blocks() -> list[Any]:
    return [
        {"type": "thinking", "thinking": "hmm"},
        {"type": "text", "text": "first"},
        {"type": "tool_use", "id": "c1", "name": "search", "input": {"q": "x"}},
        {"type": "text", "text": "second"},
    ]


# -- constructor -------------------------------------------------------------------


@pytest.mark.parametrize("content", ["hello", "", [], _blocks()])
def test_content_may_be_a_string_or_a_list(content: Any) -> None:
    msg = Msg("Friday", content, "assistant")
    assert msg.content is content


@pytest.mark.parametrize("content", [("a",), {"type": "text"}, None, 3, b"bytes"])
def test_other_content_fails_the_assert_with_its_message(content: Any) -> None:
    with pytest.raises(AssertionError) as info:
        Msg("Friday", content, "assistant")
    assert str(info.value) == CONTENT_ERROR


@pytest.mark.parametrize("role", ["tool", "User", "", None])
def test_an_unknown_role_raises_a_bare_assertion_error(role: Any) -> None:
    with pytest.raises(AssertionError) as info:
        Msg("Friday", "hi", role)
    assert info.value.args == ()


@pytest.mark.parametrize("role", ["user", "assistant", "system"])
def test_the_three_roles_are_accepted(role: Any) -> None:
    assert Msg("x", "hi", role).role == role


def test_metadata_defaults_to_a_fresh_empty_dict() -> None:
    first, second = Msg("a", "x", "user"), Msg("a", "x", "user", metadata=None)
    assert first.metadata == {} and second.metadata == {}
    assert first.metadata is not second.metadata


def test_metadata_is_stored_as_metadata_or_empty_dict() -> None:
    given = {"score": 1}
    assert Msg("a", "x", "user", metadata=given).metadata is given
    empty: dict[str, Any] = {}
    assert Msg("a", "x", "user", metadata=empty).metadata is not empty


def test_id_is_22_characters_of_the_shortuuid_alphabet_and_unique() -> None:
    ids = [Msg("a", "x", "user").id for _ in range(2000)]
    assert all(len(msg_id) == 22 and set(msg_id) <= ID_ALPHABET for msg_id in ids)
    assert len(set(ids)) == len(ids)


def test_ids_use_the_whole_alphabet() -> None:
    seen = set("".join(Msg("a", "x", "user").id for _ in range(300)))
    assert seen == ID_ALPHABET


def test_timestamp_defaults_to_local_time_with_milliseconds() -> None:
    before = datetime.now().replace(microsecond=0)
    msg = Msg("a", "x", "user")
    after = datetime.now() + timedelta(milliseconds=1)
    assert TIMESTAMP.match(msg.timestamp)
    assert before <= datetime.strptime(msg.timestamp, "%Y-%m-%d %H:%M:%S.%f") <= after


def test_given_timestamp_and_invocation_id_are_kept() -> None:
    msg = Msg("a", "x", "user", timestamp="2025-09-01 12:34:56.789", invocation_id="resp-1")
    assert msg.timestamp == "2025-09-01 12:34:56.789"
    assert msg.invocation_id == "resp-1"
    assert Msg("a", "x", "user").invocation_id is None


def test_attributes_are_public_and_mutable() -> None:
    msg = Msg("a", "x", "user")
    msg.name, msg.content, msg.role, msg.id = "b", ["y"], "assistant", "my-id"
    msg.metadata, msg.timestamp, msg.invocation_id = {"k": 1}, "t", "i"
    assert (msg.name, msg.content, msg.role, msg.id) == ("b", ["y"], "assistant", "my-id")
    assert (msg.metadata, msg.timestamp, msg.invocation_id) == ({"k": 1}, "t", "i")


def test_equality_is_identity_and_a_message_is_truthy() -> None:
    first = Msg("a", "", "user", timestamp="t")
    second = Msg.from_dict(first.to_dict())
    assert first != second
    assert first == first
    assert bool(Msg("a", "", "user"))


# -- to_dict / from_dict ------------------------------------------------------------


def test_to_dict_has_exactly_the_six_keys_in_order() -> None:
    msg = Msg("a", "x", "user")
    assert list(msg.to_dict()) == ["id", "name", "role", "content", "metadata", "timestamp"]


def test_to_dict_carries_invocation_id_when_set() -> None:
    data = Msg("a", "x", "user", invocation_id="resp-9").to_dict()
    assert list(data)[-1] == "invocation_id" and data["invocation_id"] == "resp-9"


def test_to_dict_returns_content_and_metadata_by_reference() -> None:
    msg = Msg("a", _blocks(), "assistant", metadata={"k": [1]})
    data = msg.to_dict()
    assert data["content"] is msg.content
    assert data["metadata"] is msg.metadata


def test_from_dict_round_trips_every_field() -> None:
    msg = Msg("Friday", _blocks(), "assistant", {"k": 1}, "2025-01-02 03:04:05.006", "resp-1")
    copy = Msg.from_dict(msg.to_dict())
    assert vars(copy) == vars(msg)


def test_from_dict_uses_content_and_metadata_by_reference() -> None:
    data = Msg("a", _blocks(), "assistant", {"k": 1}).to_dict()
    msg = Msg.from_dict(data)
    assert msg.content is data["content"] and msg.metadata is data["metadata"]


def test_from_dict_fills_defaults() -> None:
    msg = Msg.from_dict({"name": "a", "content": "x", "role": "user"})
    assert len(msg.id) == 22 and set(msg.id) <= ID_ALPHABET
    assert TIMESTAMP.match(msg.timestamp)
    assert msg.metadata == {} and msg.invocation_id is None


def test_from_dict_keeps_an_explicit_none_id_like_dict_get() -> None:
    assert Msg.from_dict({"name": "a", "content": "x", "role": "user", "id": None}).id is None


def test_from_dict_does_not_generate_an_id_it_would_overwrite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_id() -> str:
        raise AssertionError("an id was generated")

    monkeypatch.setattr(_message_base, "_new_id", no_id)
    data = {"id": "given", "name": "a", "content": "x", "role": "user", "timestamp": "t"}
    assert Msg.from_dict(data).id == "given"


@pytest.mark.parametrize("missing", ["name", "content", "role"])
def test_from_dict_requires_name_content_and_role(missing: str) -> None:
    data = {"name": "a", "content": "x", "role": "user"}
    del data[missing]
    with pytest.raises(KeyError) as info:
        Msg.from_dict(data)
    assert info.value.args == (missing,)


def test_from_dict_checks_content_and_role_like_the_constructor() -> None:
    with pytest.raises(AssertionError, match=re.escape(CONTENT_ERROR)):
        Msg.from_dict({"name": "a", "content": {"x": 1}, "role": "user"})
    with pytest.raises(AssertionError):
        Msg.from_dict({"name": "a", "content": "x", "role": "robot"})


def test_from_dict_rejects_a_non_dict() -> None:
    with pytest.raises(TypeError, match="expects a dict, got list"):
        Msg.from_dict([("name", "a")])  # type: ignore[arg-type]


def test_from_dict_of_a_subclass_runs_its_constructor() -> None:
    class Tagged(Msg):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.tag = "built"

    msg = Tagged.from_dict({"id": "i", "name": "a", "content": "x", "role": "user"})
    assert type(msg) is Tagged and msg.tag == "built" and msg.id == "i"


# -- content accessors --------------------------------------------------------------


def test_get_text_content_of_a_string_is_the_string_even_empty() -> None:
    assert Msg("a", "hello", "user").get_text_content() == "hello"
    assert Msg("a", "", "user").get_text_content() == ""


def test_get_text_content_joins_text_blocks_and_ignores_thinking() -> None:
    msg = Msg("a", _blocks(), "assistant")
    assert msg.get_text_content() == "first\nsecond"
    assert msg.get_text_content(separator="") == "firstsecond"
    assert msg.get_text_content(" | ") == "first | second"


@pytest.mark.parametrize(
    "content", [[], [{"type": "thinking", "thinking": "t"}], [{"type": "image", "source": {}}]]
)
def test_get_text_content_without_text_blocks_is_none(content: list[Any]) -> None:
    assert Msg("a", content, "assistant").get_text_content() is None


def test_get_content_blocks_of_a_string_is_a_new_text_block_list() -> None:
    msg = Msg("a", "hi", "user")
    first = msg.get_content_blocks()
    assert first == [{"type": "text", "text": "hi"}]
    assert first is not msg.get_content_blocks()
    assert Msg("a", "", "user").get_content_blocks() == [{"type": "text", "text": ""}]


def test_get_content_blocks_returns_the_content_list_itself() -> None:
    msg = Msg("a", _blocks(), "assistant")
    assert msg.get_content_blocks() is msg.content


def test_get_content_blocks_filters_by_type_or_list_of_types() -> None:
    msg = Msg("a", _blocks(), "assistant")
    assert [b["text"] for b in msg.get_content_blocks("text")] == ["first", "second"]
    kinds = [b["type"] for b in msg.get_content_blocks(["tool_use", "thinking"])]
    assert kinds == ["thinking", "tool_use"]
    assert msg.get_content_blocks("image") == []
    assert Msg("a", "hi", "user").get_content_blocks("thinking") == []


def test_get_content_blocks_of_empty_content_is_empty() -> None:
    assert Msg("a", [], "user").get_content_blocks() == []
    assert Msg("a", [], "user").get_content_blocks("text") == []


def test_filtering_a_block_without_type_raises_key_error() -> None:
    msg = Msg("a", [{"text": "no type"}], "user")  # type: ignore[list-item]
    assert msg.get_content_blocks() == [{"text": "no type"}]
    with pytest.raises(KeyError):
        msg.get_content_blocks("text")
    with pytest.raises(KeyError):
        msg.get_content_blocks(["text"])


def test_has_content_blocks() -> None:
    assert Msg("a", "", "user").has_content_blocks()  # "" still yields one text block
    assert Msg("a", "x", "user").has_content_blocks("text")
    assert not Msg("a", "x", "user").has_content_blocks("image")
    assert not Msg("a", [], "user").has_content_blocks()
    msg = Msg("a", _blocks(), "assistant")
    assert msg.has_content_blocks("tool_use") and msg.has_content_blocks(["image", "text"])
    assert not msg.has_content_blocks(["image", "audio"])


def test_repr_shows_every_field() -> None:
    msg = Msg("Friday", "hi", "assistant", {"k": 1}, "2025-01-01 00:00:00.000", "resp-1")
    msg.id = "abc"
    assert repr(msg) == (
        "Msg(id='abc', name='Friday', content='hi', role='assistant', metadata={'k': 1}, "
        "timestamp='2025-01-01 00:00:00.000', invocation_id='resp-1')"
    )
    msg.invocation_id = None
    assert repr(msg).endswith("invocation_id=None)")


# -- blocks and exports -------------------------------------------------------------


def test_blocks_are_plain_dicts_without_validation() -> None:
    assert message_pkg.TextBlock(type="text", text="x") == {"type": "text", "text": "x"}
    assert type(message_pkg.ToolUseBlock(type="tool_use", id="1", name="n", input={})) is dict
    source = message_pkg.URLSource(type="url", url="file:///a.png")
    assert message_pkg.ImageBlock(type="image", source=source) == {
        "type": "image",
        "source": {"type": "url", "url": "file:///a.png"},
    }
    assert message_pkg.TextBlock(type="text") == {"type": "text"}  # nothing is checked


def test_message_package_exports_the_reference_names() -> None:
    assert sorted(message_pkg.__all__) == [
        "AudioBlock",
        "Base64Source",
        "ContentBlock",
        "ImageBlock",
        "Msg",
        "TextBlock",
        "ThinkingBlock",
        "ToolResultBlock",
        "ToolUseBlock",
        "URLSource",
        "VideoBlock",
    ]
