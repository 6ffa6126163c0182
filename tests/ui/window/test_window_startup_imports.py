"""What the window imports before its first paint (SPEC §7: cold start ≤ 1 s).

The MCP server model, the Tools tab, the template editor, PDF export and the session library are
loaded on first use, not by ``desktop_agent.ui.app`` (what ``python -m desktop_agent``
imports before it paints). They still work when asked for. ``keyring`` loads after the
first paint, the agent core (``openai``) once the sidebar is filled and the last session
reopened.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DEFERRED = (
    "desktop_agent.app._mcp_config",
    "desktop_agent.app.library",
    "desktop_agent.ui.export._pdf",
    "desktop_agent.ui.settings._tools_page",
    "desktop_agent.ui.template_editor._window",
)


def _run(code: str, extra_env: dict[str, str] | None = None) -> str:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **(extra_env or {})}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_window_module_leaves_the_deferred_parts_unloaded() -> None:
    code = (
        "import sys, json, desktop_agent.ui.app\n"
        f"print(json.dumps([m for m in {DEFERRED!r} if m in sys.modules]))"
    )
    assert json.loads(_run(code)) == []


def test_the_deferred_parts_load_when_asked_for() -> None:
    code = (
        "import desktop_agent.ui.app\n"
        "from desktop_agent.app import McpServerConfig, parse_mcp_json\n"
        "from desktop_agent.ui.settings import ToolsPage\n"
        "from desktop_agent.ui.template_editor import TemplateDocument, TemplateEditorWindow\n"
        "print(McpServerConfig.__name__, ToolsPage.__name__, TemplateEditorWindow.__name__)"
    )
    assert _run(code) == "McpServerConfig ToolsPage TemplateEditorWindow"


_STARTUP_ORDER = """
import json, sys
from PySide6.QtCore import QTimer
import desktop_agent.ui.app as app

seen = {}

class Watched(app.DesktopApp):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.window.first_painted.connect(self.on_first_paint)
        self.sessions.ready.connect(self.on_sessions_ready)

    def on_first_paint(self):
        seen["keyring_at_first_paint"] = "keyring" in sys.modules
        seen["context_at_first_paint"] = "desktop_agent.context" in sys.modules

    def on_sessions_ready(self):
        seen["openai_when_sessions_ready"] = "openai" in sys.modules
        self.waited = 0
        self.wait_for_core()

    def wait_for_core(self):
        self.waited += 1
        if "desktop_agent.agent" in sys.modules or self.waited > 600:
            seen["openai_later"] = "openai" in sys.modules
            seen["keyring_later"] = "keyring" in sys.modules
            self.window.close()
        else:
            QTimer.singleShot(50, self.wait_for_core)

app.DesktopApp = Watched
app.run()
print(json.dumps(seen))
"""


def test_keyring_after_first_paint_and_agent_core_once_the_sessions_are_shown() -> None:
    # Imports in a worker thread share the GIL: `keyring` (~0.3 s, to read the API keys)
    # would delay the first paint; `openai` (~0.75 s) the sessions' loading and reopening.
    # The chat's AgentState (memory, template engine) is made after first paint too.
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "sk-test"}
    seen = json.loads(_run(_STARTUP_ORDER, env).splitlines()[-1])
    assert seen == {
        "keyring_at_first_paint": False,
        "context_at_first_paint": False,  # the chat's AgentState: its template engine
        "openai_when_sessions_ready": False,
        "openai_later": True,
        "keyring_later": True,
    }


def test_settings_with_mcp_servers_load_them_as_configs(tmp_path: Path) -> None:
    from desktop_agent.app import McpServerConfig, load_settings, save_settings

    path = tmp_path / "settings.json"
    server = {"name": "files", "command": "npx", "env": {"TOKEN": "very-secret"}}
    path.write_text(json.dumps({"mcp_servers": [server]}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.warning is None
    [config] = loaded.settings.mcp_servers
    assert isinstance(config, McpServerConfig)
    assert config.revealed_env() == {"TOKEN": "very-secret"}
    save_settings(loaded.settings, path)
    assert json.loads(path.read_text())["mcp_servers"][0]["env"] == {"TOKEN": "very-secret"}


def test_an_invalid_mcp_server_entry_is_reported_with_its_place(tmp_path: Path) -> None:
    from desktop_agent.app import load_settings

    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"mcp_servers": [{"command": "npx"}]}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.warning is not None
    assert "mcp_servers.0.name" in loaded.warning
