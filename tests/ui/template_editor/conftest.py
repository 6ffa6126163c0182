"""Fixtures for the template editor: a session's input module and an editor over it.

Widget tests are synchronous ``qtbot`` tests. The preview tests are ``async def`` tests,
which run on the qasync loop of ``tests/ui/conftest.py`` (its ``wait_signal`` fixture
awaits a signal through a future; never ``qtbot.waitSignal`` there).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop_agent.app._template_library import TemplateLibrary
from desktop_agent.context import InputModule
from desktop_agent.ui.template_editor import TemplateEditorWindow


@pytest.fixture
def input_module() -> InputModule:
    """A session's input module with the default template and one registered variable."""
    module = InputModule()
    module.register_variable("weather", lambda: "Sunny, 24°C", "Today's weather report.")
    return module


@pytest.fixture
def library(desktop_agent_home: Path) -> TemplateLibrary:
    """The saved templates under the test's data folder."""
    return TemplateLibrary(desktop_agent_home)


@pytest.fixture
def editor(
    qtbot: QtBot, input_module: InputModule, library: TemplateLibrary
) -> TemplateEditorWindow:
    """An editor over ``input_module`` (not shown: no preview builds)."""
    window = TemplateEditorWindow(input_module, library=library)
    # Closing a window with unapplied changes asks first; tests end without asking.
    qtbot.addWidget(window, before_close_func=lambda w: w.reload_from_session())
    return window
