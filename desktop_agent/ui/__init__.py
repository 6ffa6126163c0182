"""The PySide6 window: the only layer that imports Qt and qasync.

Feature folders: ``window`` (main window, sidebar, first-run panel, status line, chat
controller), ``composer``, ``settings``, ``permissions``, ``chat`` (the chat pane). The
entry point is :func:`desktop_agent.ui.app.run`; nothing is imported here so that
``import desktop_agent.ui`` stays cheap.
"""
