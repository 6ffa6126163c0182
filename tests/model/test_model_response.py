"""ChatResponse and ChatUsage: dataclasses that are dicts."""

from __future__ import annotations

from desktop_agent.model import ChatResponse, ChatUsage


def test_defaulted_fields_read_the_stored_values() -> None:
    usage = ChatUsage(input_tokens=1, output_tokens=2, time=0.5, metadata={"raw": True})
    response = ChatResponse(content=[], usage=usage, metadata={"x": 1})
    assert response.usage is usage
    assert response.metadata == {"x": 1}
    assert usage.metadata == {"raw": True}
    assert (response.type, usage.type) == ("chat", "chat")


def test_attribute_and_item_access_agree() -> None:
    response = ChatResponse(content=[{"type": "text", "text": "a"}])
    response.metadata = {"k": "v"}
    assert response["metadata"] == {"k": "v"}
    assert response.usage is None and response["usage"] is None
    assert set(response) == {
        "content",
        "id",
        "created_at",
        "type",
        "usage",
        "metadata",
        "finish_reason",
    }
