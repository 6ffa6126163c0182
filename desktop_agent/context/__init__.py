"""The context template engine: ``InputModule`` builds a model's context from a template.

A template (JSON, validated with pydantic) is an ordered list of modules made of text
and variable segments, each included always, never, or when an importance function
says so. See ``desktop_agent.context._input_module`` for the rules, in particular where
the conversation and the current user message go.
"""

from desktop_agent.context._config import ContextConfig, ContextModule, Segment
from desktop_agent.context._exceptions import ContextConfigError
from desktop_agent.context._functions import (
    BuildContext,
    ModuleReport,
    context_variable,
    importance_function,
)
from desktop_agent.context._input_module import InputModule
from desktop_agent.context._tokens import estimate_tokens

__all__ = [
    "BuildContext",
    "ContextConfig",
    "ContextConfigError",
    "ContextModule",
    "InputModule",
    "ModuleReport",
    "Segment",
    "context_variable",
    "estimate_tokens",
    "importance_function",
]
