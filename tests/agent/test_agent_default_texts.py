"""Compression defaults are AgentScope 1.0.21's exact texts (reference/agentscope-1.0-texts.md)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from desktop_agent.agent import CompressionConfig, ReActAgent, SummarySchema
from desktop_agent.token import CharTokenCounter

COMPRESSION_PROMPT = (
    "<system-hint>You have been working on the task described above but have not yet "
    "completed it. Now write a continuation summary that will allow you to resume work "
    "efficiently in a future context window where the conversation history will be replaced "
    "with this summary. Your summary should be structured, concise, and actionable."
    "</system-hint>"
)
SUMMARY_TEMPLATE = """<system-info>Here is a summary of your previous work
# Task Overview
{task_overview}

# Current State
{current_state}

# Important Discoveries
{important_discoveries}

# Next Steps
{next_steps}

# Context to Preserve
{context_to_preserve}</system-info>"""
FIELDS = {
    "task_overview": (
        300,
        "The user's core request and success criteria.\n"
        "Any clarifications or constraints they specified",
    ),
    "current_state": (
        300,
        "What has been completed so far.\n"
        "File created, modified, or analyzed (with paths if relevant).\n"
        "Key outputs or artifacts produced.",
    ),
    "important_discoveries": (
        300,
        "Technical constraints or requirements uncovered.\n"
        "Decisions made and their rationale.\n"
        "Errors encountered and how they were resolved.\n"
        "What approaches were tried that didn't work (and why)",
    ),
    "next_steps": (
        200,
        "Specific actions needed to complete the task.\n"
        "Any blockers or open questions to resolve.\n"
        "Priority order if multiple steps remain",
    ),
    "context_to_preserve": (
        300,
        "User preferences or style requirements.\n"
        "Domain-specific details that aren't obvious.\n"
        "Any promises made to the user",
    ),
}


def test_compression_config_defaults() -> None:
    config = ReActAgent.CompressionConfig(
        enable=True, agent_token_counter=CharTokenCounter(), trigger_threshold=10
    )
    assert config.compression_prompt == COMPRESSION_PROMPT
    assert config.summary_template == SUMMARY_TEMPLATE
    assert config.summary_schema is SummarySchema
    assert config.keep_recent == 3


def test_summary_schema_fields_lengths_and_descriptions() -> None:
    properties = SummarySchema.model_json_schema()["properties"]
    assert list(properties) == list(FIELDS)
    for name, (max_length, description) in FIELDS.items():
        assert properties[name]["maxLength"] == max_length
        assert properties[name]["description"] == description
    with pytest.raises(ValidationError):
        SummarySchema(**{name: "x" for name in FIELDS} | {"next_steps": "x" * 201})


def test_the_counter_must_be_a_token_counter() -> None:
    with pytest.raises(ValidationError):
        CompressionConfig(
            enable=True,
            agent_token_counter=object(),  # type: ignore[arg-type]
            trigger_threshold=10,
        )
