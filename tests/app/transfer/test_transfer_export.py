"""Export: Markdown and HTML goldens, the lossless JSON round trip, media files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from desktop_agent.app.library import SessionLibrary, SessionMeta
from desktop_agent.app.transfer import import_files, read_conversation, render, write_rendered
from desktop_agent.app.transfer._document import conversation_from_parts

sys.path.insert(0, str(Path(__file__).parent))
from transfer_helpers import FIXTURES, PNG, chat_parts


def _conversation() -> dict:
    return conversation_from_parts("chat1", chat_parts())


def test_markdown_matches_golden() -> None:
    text = render(_conversation(), "markdown").data.decode()
    assert text == (FIXTURES / "chat.md").read_text(encoding="utf-8")


def test_html_matches_golden_and_escapes_raw_html() -> None:
    text = render(_conversation(), "html").data.decode()
    assert text == (FIXTURES / "chat.html").read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "data:image/png;base64," in text  # self-contained


def test_markdown_options_omit_thinking_and_write_media_files(tmp_path: Path) -> None:
    rendered = render(
        _conversation(), "markdown", images="files", thinking=False, files_dir="x_files"
    )
    text = rendered.data.decode()
    assert "Thinking" not in text and "A red pixel. Then" not in text
    assert "```python\nimport os" in text  # code fences kept
    write_rendered(rendered, tmp_path / "x.md")
    [image] = (tmp_path / "x_files").iterdir()
    assert image.read_bytes() == PNG and f"](x_files/{image.name})" in text


async def test_json_round_trip_is_lossless(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path / "home")
    parts = chat_parts()
    parts["versions"] = {"forks": {"m1": {"users": [None], "answers": [None]}}}  # issue 13
    summary = await library.add(parts, SessionMeta.from_state(parts["meta"]))
    first = render(await read_conversation(library, summary.session_id), "json").data
    (tmp_path / "a.json").write_bytes(first)
    report = await import_files(library, [tmp_path / "a.json"], duplicates="copy")
    [chat] = report.imported
    second = render(await read_conversation(library, chat.session_id), "json").data
    a, b = json.loads(first), json.loads(second)
    for document in (a, b):
        document.pop("exported")
        document["conversations"][0].pop("id")
    assert a == b
    conversation = a["conversations"][0]
    assert a["schema_version"] == 1 and conversation["branches"] == []
    assert conversation["marks"] == {"m2": ["hint"]}
    assert [m["id"] for m in conversation["messages"]] == ["m1", "m2", "m3", "m4"]
    assert conversation["state"]["agent"]["_sys_prompt"] == "You are Friday."
    assert conversation["state"]["versions"] == parts["versions"]  # other versions travel


async def test_json_export_inlines_blob_files(tmp_path: Path) -> None:
    library = SessionLibrary(tmp_path / "home", blob_threshold=10)  # the image becomes a blob
    parts = chat_parts()
    summary = await library.add(parts, SessionMeta.from_state(parts["meta"]))
    saved = (library.sessions_dir / f"{summary.session_id}.json").read_text()
    assert '"type":"url"' in saved
    document = json.loads(render(await read_conversation(library, summary.session_id), "json").data)
    source = document["conversations"][0]["messages"][0]["content"][1]["source"]
    assert source["type"] == "base64" and source["media_type"] == "image/png"


if __name__ == "__main__" and "--regen" in sys.argv:
    (FIXTURES / "chat.md").write_bytes(render(_conversation(), "markdown").data)
    (FIXTURES / "chat.html").write_bytes(render(_conversation(), "html").data)
