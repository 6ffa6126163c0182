"""The plan tools' schemas and how ReActAgent uses a PlanNotebook (reference §5.2, §6)."""

from __future__ import annotations

from typing import Any

from desktop_agent.agent import PlanNotebook as ReExportedNotebook
from desktop_agent.agent import ReActAgent
from desktop_agent.formatter import OpenAIChatFormatter
from desktop_agent.message import Msg, ToolUseBlock
from desktop_agent.plan import DefaultPlanToHint, PlanNotebook
from desktop_agent.testing import ScriptedChatModel
from desktop_agent.tool import Toolkit

SUBTASKS = [{"name": "Book", "description": "Book the flight", "expected_outcome": "A ticket"}]


def tool_use(call_id: str, tool_name: str, /, **arguments: Any) -> dict[str, Any]:
    return dict(ToolUseBlock(type="tool_use", id=call_id, name=tool_name, input=arguments))


def make_agent(model: ScriptedChatModel, **kwargs: Any) -> ReActAgent:
    agent = ReActAgent(
        name="Friday",
        sys_prompt="Be brief.",
        model=model,
        formatter=OpenAIChatFormatter(),
        **kwargs,
    )
    agent.set_console_output_enabled(False)
    return agent


def schemas(notebook: PlanNotebook) -> dict[str, dict[str, Any]]:
    toolkit = Toolkit()
    for tool in notebook.list_tools():
        toolkit.register_tool_function(tool)
    return {s["function"]["name"]: s["function"] for s in toolkit.get_json_schemas()}


def test_the_old_import_path_still_works() -> None:
    assert ReExportedNotebook is PlanNotebook


def test_tool_schemas_match_the_reference() -> None:
    functions = schemas(PlanNotebook())
    assert functions["view_historical_plans"] == {
        "name": "view_historical_plans",
        "description": "View the historical plans.",
        "parameters": {"properties": {}, "type": "object"},
    }
    update = functions["update_subtask_state"]
    assert update["description"] == (
        "Update the state of a subtask by given index and state. Note if you\nwant to mark a "
        "subtask as done, you SHOULD call `finish_subtask`\ninstead with the specific outcome."
    )
    assert update["parameters"]["properties"]["state"]["enum"] == [
        "todo",
        "in_progress",
        "abandoned",
    ]
    assert update["parameters"]["required"] == ["subtask_idx", "state"]
    create = functions["create_plan"]["parameters"]
    assert create["properties"]["subtasks"]["items"] == {"$ref": "#/$defs/SubTask"}
    assert create["properties"]["name"]["description"] == (
        "The plan name, should be concise, descriptive and not exceed\n10 words."
    )
    sub = create["$defs"]["SubTask"]
    assert sub["description"] == "The subtask model used in the plan module."
    assert list(sub["properties"]) == [
        "name",
        "description",
        "expected_outcome",
        "outcome",
        "state",
        "created_at",
        "finished_at",
    ]
    assert sub["required"] == ["name", "description", "expected_outcome"]
    assert "default" not in sub["properties"]["created_at"]
    assert "title" not in str(functions)
    revise = functions["revise_current_plan"]["parameters"]
    assert revise["required"] == ["subtask_idx", "action"]
    assert revise["properties"]["subtask"]["anyOf"] == [
        {"$ref": "#/$defs/SubTask"},
        {"type": "null"},
    ]
    assert functions["finish_plan"]["parameters"]["properties"]["state"]["enum"] == [
        "done",
        "abandoned",
    ]
    assert functions["finish_subtask"]["parameters"]["required"] == [
        "subtask_idx",
        "subtask_outcome",
    ]
    assert functions["recover_historical_plan"]["parameters"]["required"] == ["plan_id"]


async def test_agent_adds_a_fresh_hint_before_every_reasoning_step() -> None:
    notebook = PlanNotebook()
    model = ScriptedChatModel(
        [
            [
                tool_use(
                    "p",
                    "create_plan",
                    name="Trip",
                    description="Go",
                    expected_outcome="In Rome",
                    subtasks=SUBTASKS,
                )
            ],
            [tool_use("s", "update_subtask_state", subtask_idx=0, state="in_progress")],
            "Working on it.",
        ]
    )
    agent = make_agent(model, plan_notebook=notebook)
    await agent(Msg("Ada", "Plan my trip", "user"))

    to_hint = DefaultPlanToHint()
    first, second, third = (call.messages[-1] for call in model.calls)
    assert first == {
        "role": "user",
        "name": "user",
        "content": [{"type": "text", "text": to_hint(None)}],
    }
    assert "Your options include:\n- Mark the first subtask" in second["content"][0]["text"]
    assert (
        "Now the subtask at index 0, named 'Book', is 'in_progress'" in third["content"][0]["text"]
    )
    assert [t["function"]["name"] for t in model.calls[0].tools or []][:3] == [
        "view_subtasks",
        "update_subtask_state",
        "finish_subtask",
    ]
    texts = [m.get_text_content() or "" for m in await agent.memory.get_memory()]
    assert not any("<system-hint>" in t for t in texts)
    results = [
        b["output"]
        for m in await agent.memory.get_memory()
        for b in m.get_content_blocks("tool_result")
    ]
    assert results[0][0]["text"] == "Plan 'Trip' created successfully."
    assert list(agent.state_dict()) == ["memory", "toolkit", "plan_notebook", "name", "_sys_prompt"]


async def test_with_the_meta_tool_the_plan_tools_wait_in_an_inactive_group() -> None:
    model = ScriptedChatModel(["Hello."])
    agent = make_agent(model, plan_notebook=PlanNotebook(), enable_meta_tool=True)
    group = agent.toolkit.groups["plan_related"]
    assert not group.active and group.description == PlanNotebook.description
    await agent(Msg("Ada", "Hi", "user"))
    (meta,) = model.calls[0].tools or []
    assert meta["function"]["name"] == "reset_equipped_tools"
    assert meta["function"]["parameters"]["properties"]["plan_related"] == {
        "type": "boolean",
        "description": PlanNotebook.description,
        "default": False,
    }
    # The hint is added even while the plan tools are inactive.
    assert model.calls[0].messages[-1]["content"][0]["text"] == DefaultPlanToHint()(None)
