"""A chat's setup without Qt: which tools an assistant leaves on (pruned from a real
toolkit), the setup part of a session (saved, loaded, tolerant of bad input), and the
model choice across several providers."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import SecretStr

from desktop_agent.app import AgentState, Provider
from desktop_agent.app._assistants import Assistant, AssistantLibrary
from desktop_agent.app._chat_setup import ChatSetup
from desktop_agent.app._model_choice import ModelChoice
from desktop_agent.app._tool_selection import DESKTOP_TOOLS, ToolSelection
from desktop_agent.tool import Toolkit, ToolResponse, register_desktop_tools


def _toolkit() -> Toolkit:
    toolkit = Toolkit()
    register_desktop_tools(toolkit)

    async def search_issues(query: str) -> ToolResponse:
        """Search.

        Args:
            query: What to look for.
        """
        return ToolResponse(content=[{"type": "text", "text": query}])

    toolkit.register_tool_function(search_issues)
    toolkit.tools["search_issues"].mcp_name = "github"
    return toolkit


def test_the_desktop_tools_are_the_ones_registered() -> None:
    toolkit = _toolkit()
    assert set(DESKTOP_TOOLS) == set(toolkit.tools) - {"search_issues"}


def test_an_assistants_selection_prunes_the_toolkit() -> None:
    toolkit = _toolkit()
    selection = Assistant(
        name="R", disabled_tools=("execute_shell_command",), disabled_mcp_servers=("github",)
    ).tool_selection()
    assert selection.prune(toolkit) == ["execute_shell_command", "search_issues"]
    assert "read_text_file" in toolkit.tools
    toolkit = _toolkit()
    assert ToolSelection(enabled=False).prune(toolkit)
    assert toolkit.tools == {}
    toolkit = _toolkit()
    assert ToolSelection().prune(toolkit) == []


def test_new_assistant_fields_round_trip_through_export(tmp_path: Path) -> None:
    library = AssistantLibrary(tmp_path / "assistants.json")
    saved = library.save(
        Assistant(
            name="Reviewer",
            tools=True,
            disabled_tools=("write_text_file",),
            disabled_mcp_servers=("github",),
            template="Pirate",
        )
    )
    again = AssistantLibrary(tmp_path / "assistants.json").get(saved.id)
    assert again is not None and again.disabled_tools == ("write_text_file",)
    imported = AssistantLibrary(tmp_path / "other.json").import_json(library.export_json(saved.id))
    assert (imported.template, imported.disabled_mcp_servers) == ("Pirate", ("github",))


def test_the_setup_is_its_own_part_of_the_state() -> None:
    state = AgentState("prompt")
    state.setup.provider, state.setup.assistant = "Groq", "coder"
    state.setup.params = {"max_output_tokens": 5}
    saved = json.loads(json.dumps(state.setup.state_dict()))
    assert "chat" not in state.state_dict() and "setup" not in state.state_dict()
    loaded = ChatSetup()
    loaded.load_state_dict(saved)
    assert (loaded.provider, loaded.assistant, loaded.params) == ("Groq", "coder", saved["params"])
    loaded.load_state_dict({"provider": 3, "params": "x"})  # mistyped: defaults, no error
    assert (loaded.provider, loaded.assistant, loaded.params) == ("", "", {})


def _provider(name: str, model: str) -> Provider:
    return Provider(name, f"http://{name.lower()}/v1", model, SecretStr(f"key-{name}"), "settings")


def test_a_model_of_another_provider_uses_that_provider(tmp_path: Path) -> None:
    default, other = _provider("Alpha", "a1"), _provider("Beta", "b1")
    choice = ModelChoice(tmp_path / "models.json")
    choice.providers = lambda: [default, other]
    assert choice.apply(default) == default
    choice.choose("b2", "Beta")
    used = choice.apply(default)
    assert used is not None and (used.name, used.model, used.base_url) == (
        "Beta",
        "b2",
        "http://beta/v1",
    )
    again = ModelChoice(tmp_path / "models.json")  # a new chat starts with the last one
    again.providers = choice.providers
    again.new_chat()
    used = again.apply(default)
    assert used is not None and (used.name, used.model) == ("Beta", "b2")
    again.providers = lambda: [default]  # Beta removed from Settings: the default again
    assert again.apply(default) == default
    assert again.chosen_provider == ""


async def test_the_setup_travels_in_a_backup(tmp_path: Path) -> None:
    from desktop_agent.app.library import SessionLibrary
    from desktop_agent.app.transfer import restore_backup, write_backup

    library = SessionLibrary(tmp_path / "here")
    state = AgentState("prompt")
    state.setup.provider, state.setup.assistant = "Groq", "coder"
    state.setup.params = {"context_budget": 32_000}
    session_id = await library.create(model="m")
    await library.save(session_id, agent=state, chat=state.setup)
    await library.close_all()
    await write_backup(library, tmp_path / "backup.zip")
    elsewhere = SessionLibrary(tmp_path / "there")
    await restore_backup(elsewhere, tmp_path / "backup.zip")
    parts = await elsewhere.read_parts(session_id)
    assert parts["chat"] == {
        "provider": "Groq",
        "assistant": "coder",
        "params": {"context_budget": 32_000},
    }
    loaded = AgentState("")
    await elsewhere.load(session_id, agent=loaded, chat=loaded.setup)
    assert loaded.setup.assistant == "coder"
    await elsewhere.close_all()
