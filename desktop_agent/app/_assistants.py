"""Assistants: a name, an icon, a system prompt, a context template, a default model and
temperature, which tools (and MCP servers) are on — picked per chat.

A few ship with the app (General, Coder, Writer, Translator); the user's own and edited
ones live in ``assistants.json`` next to the settings (owner-only). An assistant is
exported and imported as one JSON object.

A chat remembers its assistant in its session's chat setup (the assistant's id), and its
agent state carries the assistant's name and prompt (:func:`apply_to_state`); a session
saved before the setup existed is matched by those (:meth:`AssistantLibrary.of_state`).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from desktop_agent._i18n import QT_TRANSLATE_NOOP, translate
from desktop_agent._logging import logger
from desktop_agent.app._files import config_dir, read_json, write_private_file
from desktop_agent.app._tool_selection import ToolSelection

ASSISTANTS_FILE = "assistants.json"


class Assistant(BaseModel):
    """One assistant (a persona with its defaults)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    name: str = Field(min_length=1, max_length=60)
    icon: str = Field(default="🤖", max_length=8)
    system_prompt: str = ""
    model: str = ""
    """The model a chat with it starts with ("": the chat's current one)."""
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    tools: bool = True
    """Whether tools are offered to the model at all."""
    disabled_tools: tuple[str, ...] = ()
    """Desktop tools switched off (by name) while ``tools`` is on."""
    disabled_mcp_servers: tuple[str, ...] = ()
    """MCP servers whose tools are switched off (by server name)."""
    template: str = ""
    """A saved context template (by name) that chats with it use ("": the default one)."""
    shipped: bool = False

    def tool_selection(self) -> ToolSelection:
        """The tools a chat with this assistant gets."""
        return ToolSelection(
            self.tools, frozenset(self.disabled_tools), frozenset(self.disabled_mcp_servers)
        )

    @property
    def label(self) -> str:
        """ "🧑‍💻 Coder", a shipped name in the user's language (the name the agent and the
        session keep is never translated)."""
        return f"{self.icon} {translate('Assistant', self.name)}".strip()


SHIPPED: tuple[Assistant, ...] = (
    Assistant(
        id="general",
        name=QT_TRANSLATE_NOOP("Assistant", "Assistant"),
        icon="🤖",
        system_prompt="You are a helpful assistant.",
        shipped=True,
    ),
    Assistant(
        id="coder",
        name=QT_TRANSLATE_NOOP("Assistant", "Coder"),
        icon="💻",
        system_prompt=(
            "You are an expert programmer. Answer with working code first, then a short "
            "explanation. Prefer the standard library; say which versions you assume. Read "
            "files with your tools before changing them."
        ),
        temperature=0.2,
        shipped=True,
    ),
    Assistant(
        id="writer",
        name=QT_TRANSLATE_NOOP("Assistant", "Writer"),
        icon="✍️",
        system_prompt=(
            "You are a careful editor and writer. Keep the author's voice, prefer short "
            "sentences and concrete words, and explain the changes you make in a short list."
        ),
        temperature=0.8,
        tools=False,
        shipped=True,
    ),
    Assistant(
        id="translator",
        name=QT_TRANSLATE_NOOP("Assistant", "Translator"),
        icon="🌐",
        system_prompt=(
            "You translate. Reply with the translation only, keeping formatting, names and "
            "code unchanged. Translate into English unless the user names another language; "
            "text already in English goes into the language the user asks for."
        ),
        temperature=0.2,
        tools=False,
        shipped=True,
    ),
)


class AssistantLibrary:
    """The shipped assistants and the user's, kept in ``assistants.json``.

    Args:
        path: The file (default: next to the settings).
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / ASSISTANTS_FILE
        self._own: list[Assistant] = _read(self.path)

    def all(self) -> list[Assistant]:
        """The shipped ones (unless edited: the edit replaces them), then the user's."""
        own_ids = {a.id for a in self._own}
        return [*(a for a in SHIPPED if a.id not in own_ids), *self._own]

    def get(self, assistant_id: str) -> Assistant | None:
        """The assistant with ``assistant_id``, if any."""
        return next((a for a in self.all() if a.id == assistant_id), None)

    def save(self, assistant: Assistant) -> Assistant:
        """Create or replace (same id) ``assistant``; editing a shipped one keeps a copy."""
        saved = assistant.model_copy(update={"shipped": False})
        self._own = [a for a in self._own if a.id != saved.id] + [saved]
        self._write()
        return saved

    def duplicate(self, assistant_id: str) -> Assistant:
        """A copy of ``assistant_id`` named "… (copy)", saved.

        Raises:
            KeyError: No such assistant.
        """
        original = self.get(assistant_id)
        if original is None:
            raise KeyError(assistant_id)
        copy = Assistant(**{**original.model_dump(exclude={"id"}), "name": _copy_name(original)})
        return self.save(copy)

    def delete(self, assistant_id: str) -> None:
        """Forget the user's assistant (a shipped one comes back as shipped)."""
        self._own = [a for a in self._own if a.id != assistant_id]
        self._write()

    def export_json(self, assistant_id: str) -> str:
        """``assistant_id`` as a JSON document to share.

        Raises:
            KeyError: No such assistant.
        """
        assistant = self.get(assistant_id)
        if assistant is None:
            raise KeyError(assistant_id)
        document = assistant.model_dump(exclude={"id", "shipped"})
        return json.dumps({"desktop_agent_assistant": 1, **document}, indent=2, ensure_ascii=False)

    def import_json(self, text: str) -> Assistant:
        """Add the assistant of an exported JSON document (a new id; the name made unique).

        Raises:
            ValueError: The text is not an exported assistant.
        """
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            data = {k: v for k, v in data.items() if k not in ("id", "shipped")}
            assistant = Assistant(**data)
        except (ValueError, ValidationError) as exc:
            raise ValueError(
                translate("AssistantLibrary", "This is not an assistant file: {error}").format(
                    error=exc
                )
            ) from None
        names = {a.name for a in self.all()}
        if assistant.name in names:
            assistant = assistant.model_copy(update={"name": _copy_name(assistant)})
        return self.save(assistant)

    def of_state(self, name: str, sys_prompt: str) -> Assistant | None:
        """The assistant a chat's agent state was set up with (by name, then prompt)."""
        for assistant in self.all():
            if assistant.name == name and assistant.system_prompt == sys_prompt:
                return assistant
        return next((a for a in self.all() if a.name == name), None)

    def _write(self) -> None:
        document = {"assistants": [a.model_dump() for a in self._own]}
        write_private_file(self.path, (json.dumps(document, indent=2) + "\n").encode())


def apply_to_state(assistant: Assistant, state: Any) -> None:
    """Make ``state`` (a chat's :class:`AgentState`) the assistant's: name, system prompt."""
    state.name = assistant.name
    if state.agent is not None:
        state.agent.name = assistant.name
    state.sys_prompt = assistant.system_prompt


def _copy_name(assistant: Assistant) -> str:
    return translate("AssistantLibrary", "{name} (copy)").format(name=assistant.name)[:60]


def _read(path: Path) -> list[Assistant]:
    document = read_json(path, "assistants")
    items = document.get("assistants", []) if isinstance(document, dict) else []
    assistants = []
    for item in items if isinstance(items, list) else []:
        try:
            assistants.append(Assistant(**item))
        except (TypeError, ValidationError) as exc:
            logger.warning("Skipping an invalid assistant in %s: %s", path, exc)
    return assistants
