"""The main window feature: window, first-run panel, status line, chat controller.

The sessions sidebar is a feature of its own: ``desktop_agent.ui.sidebar``.
"""

from desktop_agent.ui.window._chat_controller import ChatController
from desktop_agent.ui.window._desktop_app import DesktopApp
from desktop_agent.ui.window._first_run import FirstRunPanel
from desktop_agent.ui.window._main_window import MainWindow
from desktop_agent.ui.window._status_line import StatusLine

__all__ = [
    "ChatController",
    "DesktopApp",
    "FirstRunPanel",
    "MainWindow",
    "StatusLine",
]
