"""InputModule state: config and short-term memory saved and restored, atomically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from context_helpers import IMAGE, config, module

from desktop_agent.context import ContextConfigError, InputModule
from desktop_agent.message import Msg
from desktop_agent.session import JSONSession


def custom_engine() -> InputModule:
    input_module = InputModule()
    input_module.load_config(
        config(
            module("persona", ("text", "You are terse.")),
            module("recent", ("variable", "short_term_history_content"), importance="has_content"),
            module("input", ("variable", "current_user_input"), role="user"),
            short_term_max_utterances=50,
        )
    )
    input_module.add_to_short_term("What's 2+2?")
    input_module.add_to_short_term(
        Msg("Friday", [{"type": "text", "text": "4"}, IMAGE], "assistant", invocation_id="r1")
    )
    return input_module


def test_state_dict_holds_json_ready_config_and_short_term_memory() -> None:
    state = custom_engine().state_dict()
    assert list(state) == ["config", "short_term_memory"]
    assert json.loads(json.dumps(state)) == state
    assert state["config"]["short_term_max_utterances"] == 50
    assert state["config"]["context_template"][1]["importance_func"] == "has_content"
    assert [entry["content"] for entry in state["short_term_memory"]] == [
        "What's 2+2?",
        [{"type": "text", "text": "4"}, IMAGE],
    ]


async def test_state_round_trip_restores_config_and_short_term_memory() -> None:
    original = custom_engine()
    restored = InputModule()
    restored.load_state_dict(json.loads(json.dumps(original.state_dict())))
    assert restored.config == original.config
    assert restored.short_term_memory.maxlen == 50
    assert [m.to_dict() for m in restored.short_term_memory] == [
        m.to_dict() for m in original.short_term_memory
    ]
    assert await restored.build_prompt("And 3+3?") == await original.build_prompt("And 3+3?")


async def test_json_session_round_trip(tmp_path: Path) -> None:
    session = JSONSession(save_dir=str(tmp_path))
    original = custom_engine()
    await session.save_session_state("s1", input_module=original)
    restored = InputModule()
    await session.load_session_state("s1", input_module=restored)
    assert restored.config == original.config
    assert [m.id for m in restored.short_term_memory] == [m.id for m in original.short_term_memory]
    saved = json.loads((tmp_path / "s1.json").read_text(encoding="utf-8"))
    assert set(saved) == {"input_module"}


def test_an_invalid_saved_config_raises_and_changes_nothing() -> None:
    input_module = custom_engine()
    before_config, before_memory = input_module.config, list(input_module.short_term_memory)
    state = input_module.state_dict()
    broken = {
        "config": {**state["config"], "context_template": [module("x", ("variable", "nope"))]},
        "short_term_memory": [],
    }
    with pytest.raises(ContextConfigError) as exc_info:
        input_module.load_state_dict(broken)
    assert exc_info.value.faults[0][0] == "context_template[0].segments[0].value"
    assert "the saved state" in str(exc_info.value)
    assert input_module.config is before_config
    assert list(input_module.short_term_memory) == before_memory


def test_a_saved_config_is_data_never_a_path(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config(module("a", ("text", "x")))), encoding="utf-8")
    with pytest.raises(ContextConfigError) as exc_info:
        InputModule().load_state_dict({"config": str(path), "short_term_memory": []})
    assert exc_info.value.faults[0][0] == "(root)"


def test_missing_keys_follow_strict() -> None:
    input_module = custom_engine()
    with pytest.raises(KeyError, match="Key 'short_term_memory' not found in state_dict"):
        input_module.load_state_dict({"config": input_module.state_dict()["config"]})
    input_module.load_state_dict({"short_term_memory": []}, strict=False)
    assert list(input_module.short_term_memory) == []
    assert input_module.config.short_term_max_utterances == 50


def test_loaded_utterances_obey_the_bounds() -> None:
    input_module = InputModule()
    state = input_module.state_dict()
    state["config"]["short_term_max_utterances"] = 2
    state["short_term_memory"] = [Msg("user", f"u{i}", "user").to_dict() for i in range(5)]
    input_module.load_state_dict(state)
    assert [m.content for m in input_module.short_term_memory] == ["u3", "u4"]
    input_module.add_to_short_term("u5")
    assert [m.content for m in input_module.short_term_memory] == ["u4", "u5"]
