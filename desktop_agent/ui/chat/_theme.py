"""Colours of the chat pane, light and dark, and the style sheet built from them.

The pane styles its own widgets (by ``objectName`` and the ``role`` property) so it looks
right whatever application palette it sits in; the base colours match
``desktop_agent.ui.theme``. Rendered documents bake colours in (syntax highlighting,
inline code), which is why render caches are keyed by theme.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChatPalette:
    """Every colour the chat pane uses."""

    dark: bool
    background: str
    text: str
    muted: str
    border: str
    accent: str
    link: str
    assistant_bg: str
    user_bg: str
    user_border: str
    tool_bg: str
    tool_header: str
    code_bg: str
    code_border: str
    inline_code_bg: str
    thinking_text: str
    error_bg: str
    error_border: str
    error_text: str
    running: str
    done: str
    failed: str
    interrupted: str
    waiting: str
    denied: str
    placeholder_bg: str
    chip_text: str
    pygments_style: str


LIGHT = ChatPalette(
    dark=False,
    background="#f6f7f9",
    text="#1d2129",
    muted="#6b7280",
    border="#dde1e7",
    accent="#2f6fdf",
    link="#2f6fdf",
    assistant_bg="#ffffff",
    user_bg="#e6efff",
    user_border="#c9dafb",
    tool_bg="#fbfbfc",
    tool_header="#f1f3f6",
    code_bg="#f4f6f8",
    code_border="#e1e5ea",
    inline_code_bg="#eef0f3",
    thinking_text="#5b6270",
    error_bg="#fdecea",
    error_border="#e8a39b",
    error_text="#8f2418",
    running="#2f6fdf",
    done="#1f8a4c",
    failed="#c0392b",
    interrupted="#b7791f",
    waiting="#7e57c2",
    denied="#64707d",
    placeholder_bg="#eef0f3",
    chip_text="#ffffff",
    pygments_style="friendly",
)

DARK = ChatPalette(
    dark=True,
    background="#1e2025",
    text="#e6e8eb",
    muted="#9aa0aa",
    border="#3a3e47",
    accent="#4f8cff",
    link="#7aa7ff",
    assistant_bg="#272a31",
    user_bg="#2a3a57",
    user_border="#3b5079",
    tool_bg="#23262c",
    tool_header="#2c3038",
    code_bg="#1a1c20",
    code_border="#343842",
    inline_code_bg="#353a44",
    thinking_text="#aab0ba",
    error_bg="#3a2323",
    error_border="#7a3b35",
    error_text="#ffb4a8",
    running="#7aa7ff",
    done="#4cc27e",
    failed="#ef6b5b",
    interrupted="#e0a84a",
    waiting="#b39ddb",
    denied="#a3adb8",
    placeholder_bg="#2c3038",
    chip_text="#14161b",
    pygments_style="github-dark",
)


def chat_palette(dark: bool) -> ChatPalette:
    """The dark or the light palette."""
    return DARK if dark else LIGHT


def chat_style_sheet(p: ChatPalette) -> str:
    """The style sheet of the pane's own widgets."""
    return f"""
    #chatView, #chatList, #chatViewport {{ background: {p.background}; }}
    #chatList QScrollBar:vertical {{ background: {p.background}; width: 10px; margin: 0px; }}
    #chatList QScrollBar::handle:vertical {{ background: {p.muted}; border-radius: 3px;
        min-height: 32px; margin: 2px; }}
    #chatList QScrollBar::handle:vertical:hover {{ background: {p.text}; }}
    #chatList QScrollBar::add-line:vertical, #chatList QScrollBar::sub-line:vertical {{
        height: 0px; }}
    #chatList QScrollBar::add-page:vertical, #chatList QScrollBar::sub-page:vertical {{
        background: none; }}
    #chatView QLabel, #chatView QTextBrowser {{ color: {p.text}; background: transparent; }}
    #bubble {{ border-radius: 10px; }}
    #bubble[role="assistant"] {{ background: {p.assistant_bg}; border: 1px solid {p.border}; }}
    #bubble[role="user"] {{ background: {p.user_bg}; border: 1px solid {p.user_border}; }}
    #bubble[role="tool"] {{ background: transparent; border: none; }}
    #bubble[role="system"] {{ background: transparent; border: 1px dashed {p.border}; }}
    #bubble[interrupted="true"] {{ border-style: dashed; }}
    #chatView #senderName {{ font-weight: 600; }}
    #chatView #caption, #chatView #mediaCaption {{ color: {p.muted}; }}
    #chatView #thinkingBody {{ border: none; border-left: 2px solid {p.border}; }}
    #chatView #thinkingText QTextBrowser {{ color: {p.thinking_text}; }}
    #card {{ background: {p.tool_bg}; border: 1px solid {p.border}; border-radius: 8px; }}
    #cardHeader {{ background: {p.tool_header}; border-top-left-radius: 8px;
        border-top-right-radius: 8px; border-bottom: 1px solid {p.border}; }}
    #codeBlock {{ background: {p.code_bg}; border: 1px solid {p.code_border};
        border-radius: 6px; }}
    #codeHeader {{ border-bottom: 1px solid {p.code_border}; }}
    #chatView QLabel#statusChip {{ border-radius: 8px; padding: 1px 8px; font-size: 11px;
        font-weight: 600; color: {p.chip_text}; }}
    #statusChip[status="running"] {{ background: {p.running}; }}
    #statusChip[status="done"] {{ background: {p.done}; }}
    #statusChip[status="error"] {{ background: {p.failed}; }}
    #statusChip[status="interrupted"] {{ background: {p.interrupted}; }}
    #statusChip[status="waiting"] {{ background: {p.waiting}; }}
    #statusChip[status="denied"] {{ background: {p.denied}; }}
    #statusChip[status="not_run"] {{ background: {p.interrupted}; }}
    #chatView QLabel#endingMark {{ border-radius: 8px; padding: 0px 7px; font-size: 11px;
        font-weight: 600; color: {p.chip_text}; background: {p.interrupted}; }}
    #chatView QLabel#endingText {{ color: {p.interrupted}; }}
    #mediaBox {{ background: {p.placeholder_bg}; border: 1px solid {p.border};
        border-radius: 6px; }}
    #errorBubble {{ background: {p.error_bg}; border: 1px solid {p.error_border};
        border-radius: 10px; }}
    #chatView QLabel#errorText {{ color: {p.error_text}; }}
    #chatView QToolButton {{ color: {p.muted}; background: transparent; border: none;
        border-radius: 4px; padding: 2px 6px; }}
    #chatView QToolButton:hover {{ background: {p.tool_header}; color: {p.text}; }}
    #chatView QToolButton#playAudio {{ color: {p.text}; font-size: 14px; min-width: 22px; }}
    #chatView QToolButton#thinkingToggle {{ color: {p.thinking_text}; font-style: italic;
        padding: 2px 0px; }}
    #chatView QPushButton {{ color: {p.text}; background: {p.assistant_bg};
        border: 1px solid {p.border}; border-radius: 6px; padding: 4px 12px; }}
    #chatView QPushButton:hover {{ border-color: {p.accent}; }}
    #chatView QToolButton:focus, #chatView QPushButton:focus {{
        border: 2px solid {p.accent}; }}
    #chatView QPushButton#jumpToLatest {{ background: {p.accent}; color: #ffffff;
        border: none; border-radius: 12px; padding: 5px 14px; font-weight: 600; }}
    #chatView QLabel#exitCode {{ font-weight: 600; }}
    #chatView QLabel#exitCode[failed="true"] {{ color: {p.error_text}; }}
    #chatView QSlider::groove:horizontal {{ height: 4px; background: {p.border};
        border-radius: 2px; }}
    #chatView QSlider::handle:horizontal {{ width: 12px; margin: -4px 0;
        border-radius: 6px; background: {p.accent}; }}
    """


def document_style_sheet(p: ChatPalette) -> str:
    """The default style sheet of rendered Markdown documents (Qt's CSS subset)."""
    return f"""
    a {{ color: {p.link}; text-decoration: none; }}
    h1 {{ font-size: 20px; font-weight: 600; }}
    h2 {{ font-size: 17px; font-weight: 600; }}
    h3 {{ font-size: 15px; font-weight: 600; }}
    h4, h5, h6 {{ font-size: 14px; font-weight: 600; }}
    th {{ background-color: {p.tool_header}; font-weight: 600; }}
    blockquote {{ color: {p.muted}; }}
    pre {{ white-space: pre-wrap; }}
    """
