"""``ChatSetup``: how one chat is set up — its provider, its assistant, its parameters.

A part of the session file of its own (``"chat"``), next to ``"agent"`` and
``"versions"``, so export, backup and import carry it with the chat (they copy every part)
while the agent's part stays an ordinary agent state. A session saved before it existed
has no such part: every field keeps its default (the app's default provider, an assistant
found by the agent's name, the parameters of the old ``chat_params.json`` sidecar).
"""

from __future__ import annotations

from typing import Any

from desktop_agent.module import StateModule

SETUP_PART = "chat"
"""The name of the part in a session file."""


class ChatSetup(StateModule):
    """The chat's provider, assistant and parameter overrides.

    Attributes:
        provider: The name of the provider the chat's model comes from (``""``: the
            default provider of the app).
        assistant: The id of the chat's assistant (``""``: not recorded).
        params: Overrides of the Settings defaults (``temperature``, ``max_output_tokens``,
            ...; only the fields :data:`~desktop_agent.app._chat_params.FIELDS` names).
    """

    def __init__(self) -> None:
        super().__init__()
        self.provider = ""
        self.assistant = ""
        self.params: dict[str, Any] = {}
        for name in ("provider", "assistant", "params"):
            self.register_state(name)

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Take a saved setup; unknown or mistyped fields are ignored (never fatal).

        Raises:
            ValueError: ``state_dict`` is not a dict.
        """
        if not isinstance(state_dict, dict):
            raise ValueError("The chat setup must be a JSON object.")
        provider, assistant = state_dict.get("provider"), state_dict.get("assistant")
        params = state_dict.get("params")
        self.provider = provider if isinstance(provider, str) else ""
        self.assistant = assistant if isinstance(assistant, str) else ""
        self.params = dict(params) if isinstance(params, dict) else {}
