"""A real ReActAgent (with its InputModule) saved and restored through the library."""

from __future__ import annotations

from pathlib import Path

import orjson
from library_helpers import big_base64

from desktop_agent.agent import ReActAgent
from desktop_agent.app.library import SessionLibrary
from desktop_agent.context import InputModule
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.message import Msg
from desktop_agent.testing import ScriptedChatModel


def make_agent(model: ScriptedChatModel, prompt: str = "You are Friday.") -> ReActAgent:
    return ReActAgent(
        name="Friday",
        sys_prompt=prompt,
        model=model,
        formatter=OpenAIChatFormatter(),
        input_module=InputModule(),
    )


async def test_an_agent_with_an_image_comes_back_whole(tmp_path: Path) -> None:
    image = big_base64(150_000)
    agent = make_agent(ScriptedChatModel(["A red square.", "Still a red square."]))
    agent.set_console_output_enabled(False)
    question = Msg(
        "user",
        [
            {"type": "text", "text": "What is in this picture?"},
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/png", "data": image},
            },
        ],
        "user",
    )
    await agent(question)
    library = SessionLibrary(tmp_path)
    session_id = await library.create(model="scripted-model")
    summary = await library.save(session_id, agent=agent)
    await library.close(session_id)
    assert (summary.title, summary.message_count) == ("What is in this picture?", 2)

    # The live message still holds its base64; the file holds a reference to a blob.
    stored = (await agent.memory.get_memory())[0].content[1]["source"]
    assert stored["type"] == "base64" and stored["data"] == image
    data = (library.sessions_dir / f"{session_id}.json").read_bytes()
    assert len(data) < 20_000 and image.encode() not in data
    saved_agent = orjson.loads(data)["agent"]
    assert set(saved_agent) == {"memory", "toolkit", "name", "_sys_prompt", "input_module"}

    model = ScriptedChatModel(["It is red."])
    restored = make_agent(model, prompt="placeholder")
    restored.set_console_output_enabled(False)
    await SessionLibrary(tmp_path).load(session_id, agent=restored)
    assert restored.sys_prompt == "You are Friday."
    before = [m.id for m in await agent.memory.get_memory()]
    assert [m.id for m in await restored.memory.get_memory()] == before
    assert restored.input_module is not None
    assert restored.input_module.state_dict() == agent.input_module.state_dict()  # type: ignore[union-attr]

    await restored(Msg("user", "What colour?", "user"))
    sent = orjson.dumps(model.calls[0].messages)
    assert image.encode() in sent  # the formatter read the blob back in
