"""Light and dark themes, applied to the whole application.

The Fusion style with an explicit palette looks the same on every platform and honours
both themes; a short style sheet adds what a palette cannot say (rounded composer, chips,
muted captions). Widgets pick these rules up by ``objectName`` or dynamic property.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


@dataclass(frozen=True)
class ThemeColors:
    """The handful of colours both the palette and the style sheet use."""

    window: str
    surface: str
    sidebar: str
    text: str
    muted: str
    border: str
    accent: str
    accent_text: str
    danger: str


LIGHT = ThemeColors(
    window="#f6f7f9",
    surface="#ffffff",
    sidebar="#eceef2",
    text="#1d2129",
    muted="#6b7280",
    border="#d5d9e0",
    accent="#2f6fdf",
    accent_text="#ffffff",
    danger="#c0392b",
)
DARK = ThemeColors(
    window="#1e2025",
    surface="#272a31",
    sidebar="#181a1e",
    text="#e6e8eb",
    muted="#9aa0aa",
    border="#3a3e47",
    accent="#4f8cff",
    accent_text="#ffffff",
    danger="#ef6b5b",
)


def colors(dark: bool) -> ThemeColors:
    """The colours of the dark or the light theme."""
    return DARK if dark else LIGHT


def system_prefers_dark() -> bool:
    """Whether the desktop asks for a dark colour scheme (unknown: no)."""
    hints = QGuiApplication.styleHints()
    return hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark


def resolve_dark(theme: str) -> bool:
    """Whether the ``"light"``, ``"dark"`` or ``"system"`` theme setting means dark now."""
    if theme == "system":
        return system_prefers_dark()
    return theme == "dark"


def apply_theme(app: QApplication, dark: bool) -> None:
    """Switch the whole application to the light or the dark theme."""
    c = colors(dark)
    app.setStyle("Fusion")
    app.setPalette(_palette(c))
    app.setStyleSheet(_style_sheet(c))
    app.setProperty("darkTheme", dark)


def _palette(c: ThemeColors) -> QPalette:
    palette = QPalette()
    role = QPalette.ColorRole
    for which, value in (
        (role.Window, c.window),
        (role.WindowText, c.text),
        (role.Base, c.surface),
        (role.AlternateBase, c.window),
        (role.Text, c.text),
        (role.Button, c.surface),
        (role.ButtonText, c.text),
        (role.ToolTipBase, c.surface),
        (role.ToolTipText, c.text),
        (role.PlaceholderText, c.muted),
        (role.Highlight, c.accent),
        (role.HighlightedText, c.accent_text),
        (role.Link, c.accent),
        (role.Mid, c.border),
    ):
        palette.setColor(which, QColor(value))
    disabled = QPalette.ColorGroup.Disabled
    for which in (role.Text, role.ButtonText, role.WindowText):
        palette.setColor(disabled, which, QColor(c.muted))
    return palette


def _style_sheet(c: ThemeColors) -> str:
    return f"""
    #sidebar {{ background: {c.sidebar}; border-right: 1px solid {c.border}; }}
    #sidebarNote, #caption, #statusLine QLabel {{ color: {c.muted}; }}
    #statusLine {{ border-top: 1px solid {c.border}; }}
    #composer {{ background: {c.surface}; border: 1px solid {c.border}; border-radius: 10px; }}
    #composerInput {{ background: transparent; border: none; }}
    #attachmentChip {{ background: {c.window}; border: 1px solid {c.border};
        border-radius: 6px; }}
    #documentBadge {{ background: {c.accent}; color: {c.accent_text}; border-radius: 4px;
        font-size: 10px; font-weight: 600; }}
    #attachmentChip QLabel[error="true"], #budgetWarning {{ color: {c.danger}; }}
    QToolButton#micButton {{ color: {c.danger}; font-size: 14px; }}
    QProgressBar#micLevel {{ border: none; border-radius: 3px; background: {c.border}; }}
    QProgressBar#micLevel::chunk {{ border-radius: 3px; background: {c.danger}; }}
    #allowedToolsChip {{ background: {c.window}; border: 1px solid {c.danger};
        border-radius: 10px; padding: 3px 18px 3px 10px; color: {c.text}; }}
    #allowedToolsChip::menu-indicator {{ subcontrol-position: right center; right: 6px; }}
    QPushButton[accent="true"] {{ background: {c.accent}; color: {c.accent_text};
        border: none; border-radius: 6px; padding: 6px 14px; font-weight: 600; }}
    QPushButton[accent="true"]:disabled {{ background: {c.border}; color: {c.muted}; }}
    QPushButton[danger="true"] {{ background: {c.danger}; color: {c.accent_text};
        border: none; border-radius: 6px; padding: 6px 14px; font-weight: 600; }}
    #firstRunTitle {{ font-size: 20px; font-weight: 600; }}
    #firstRunNotes {{ color: {c.danger}; font-weight: 600; }}
    #banner {{ background: {c.surface}; border: 1px solid {c.danger}; border-radius: 6px;
        padding: 6px; }}
    #composer[focused="true"] {{ border: 2px solid {c.accent}; }}
    QPushButton:focus, QToolButton:focus {{ border: 2px solid {c.accent}; border-radius: 6px;
        padding: 4px 10px; background: {c.surface}; color: {c.text}; }}
    QPushButton[accent="true"]:focus, QPushButton[danger="true"]:focus {{
        border: 2px solid {c.text}; padding: 4px 12px; }}
    QPushButton[accent="true"]:focus {{ background: {c.accent}; color: {c.accent_text}; }}
    QPushButton[danger="true"]:focus {{ background: {c.danger}; color: {c.accent_text}; }}
    #chatList:focus, #sessionList:focus {{ border: 2px solid {c.accent}; }}
    #shortcutCard {{ background: {c.surface}; border: 1px solid {c.border};
        border-radius: 10px; }}
    #shortcutTitle, #trashTitle {{ font-size: 16px; font-weight: 600; }}
    #shortcutKeys {{ font-weight: 600; color: {c.accent}; }}
    #jumpToLatest {{ background: {c.accent}; color: {c.accent_text}; border: none;
        border-radius: 12px; padding: 4px 12px; font-weight: 600; }}
    """
