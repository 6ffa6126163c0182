"""A conversation as one self-contained HTML file, styled like the chat pane.

Text is rendered from Markdown with markdown-it (raw HTML in a message is escaped, never
passed through: a chat's text cannot run script in the exported page), code is
highlighted by Pygments with inline styles, media are embedded as ``data:`` URIs, and
the style sheet uses the chat pane's colours (light, or dark when the reader's system is).

``flavor="qt"`` gives the subset of HTML that ``QTextDocument`` lays out (used for the
PDF): tables instead of rounded boxes, thinking as an indented note rather than
``<details>``, and media as named resources (:attr:`HtmlResult.files`) the printer adds.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from desktop_agent.app.transfer._markdown import (
    TOOL_OUTPUT_MAX_CHARS,
    ImageMode,
    MarkdownOptions,
    MarkdownWriter,
    speaker,
)

Flavor = Literal["browser", "qt"]

_CSS = """
:root { color-scheme: light dark; }
body { background: #f6f7f9; color: #1d2129; margin: 0;
  font: 15px/1.55 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
main { max-width: 860px; margin: 0 auto; padding: 24px 20px 48px; }
header h1 { font-size: 22px; font-weight: 600; margin: 0 0 4px; }
header p { color: #6b7280; margin: 0 0 20px; font-size: 13px; }
.msg { background: #ffffff; border: 1px solid #dde1e7; border-radius: 10px;
  padding: 10px 14px; margin: 0 0 12px; }
.msg.user { background: #e6efff; border-color: #c9dafb; margin-left: 15%; }
.msg.tool { background: #fbfbfc; }
.who { font-weight: 600; font-size: 13px; margin-bottom: 4px; }
.card { border: 1px solid #dde1e7; border-radius: 8px; margin: 8px 0; background: #fbfbfc; }
.card .head { background: #f1f3f6; padding: 4px 10px; font-size: 13px;
  border-bottom: 1px solid #dde1e7; border-radius: 8px 8px 0 0; }
.card pre { margin: 0; border: 0; border-radius: 0 0 8px 8px; }
details.thinking { color: #5b6270; font-style: italic; margin: 4px 0 8px; }
details.thinking summary { cursor: pointer; }
pre { background: #f4f6f8; border: 1px solid #e1e5ea; border-radius: 6px; padding: 8px 10px;
  overflow-x: auto; font: 13px/1.45 ui-monospace, "JetBrains Mono", Menlo, Consolas, monospace; }
code { background: #eef0f3; border-radius: 4px; padding: 1px 4px;
  font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
pre code { background: none; padding: 0; }
img { max-width: 100%; border-radius: 6px; }
table { border-collapse: collapse; } th, td { border: 1px solid #dde1e7; padding: 4px 8px; }
a { color: #2f6fdf; }
@media (prefers-color-scheme: dark) {
  body { background: #1e2025; color: #e6e8eb; }
  header p { color: #9aa0aa; }
  .msg { background: #272a31; border-color: #3a3e47; }
  .msg.user { background: #2a3a57; border-color: #3b5079; }
  .msg.tool, .card { background: #23262c; border-color: #3a3e47; }
  .card .head { background: #2c3038; border-color: #3a3e47; }
  details.thinking { color: #aab0ba; }
  pre { color: #1d2129; }
  code { background: #353a44; }
  pre code { background: none; }
  a { color: #7aa7ff; }
}
"""

_QT_CSS = """
body { color: #1d2129; font-size: 11pt; }
h1 { font-size: 18pt; } .facts { color: #6b7280; }
.who { font-weight: 600; color: #2f6fdf; }
.thinking { color: #5b6270; font-style: italic; }
.head { font-weight: 600; color: #6b7280; }
pre { background-color: #f4f6f8; font-family: monospace; font-size: 9pt; }
code { background-color: #eef0f3; font-family: monospace; }
"""


@dataclass
class HtmlResult:
    """The HTML text and, for ``flavor="qt"``, the media it names (``name → bytes``)."""

    text: str
    files: dict[str, bytes] = field(default_factory=dict)


def conversation_html(
    conversation: dict[str, Any], *, thinking: bool = True, flavor: Flavor = "browser"
) -> HtmlResult:
    """The HTML page of one exported conversation (see ``_document``)."""
    images: ImageMode = "files" if flavor == "qt" else "inline"
    writer = MarkdownWriter(MarkdownOptions(images=images))
    page = _Page(writer, thinking=thinking, qt=flavor == "qt")
    body = "\n".join(page.message(message) for message in conversation["messages"])
    title = html.escape(" ".join(str(conversation.get("title") or "Untitled chat").split()))
    facts = html.escape(_facts(conversation))
    css = _QT_CSS if flavor == "qt" else _CSS
    text = (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width"><title>{title}</title>'
        f"<style>{css}</style></head>\n<body><main>\n"
        f'<header><h1>{title}</h1><p class="facts">{facts}</p></header>\n{body}\n'
        "</main></body></html>\n"
    )
    return HtmlResult(text, writer.files)


def _facts(conversation: dict[str, Any]) -> str:
    facts = [f"{len(conversation['messages'])} messages"]
    if conversation.get("model"):
        facts.append(f"model {conversation['model']}")
    if conversation.get("created"):
        facts.append(f"started {str(conversation['created'])[:16].replace('T', ' ')}")
    return " · ".join(facts)


class _Page:
    def __init__(self, writer: MarkdownWriter, *, thinking: bool, qt: bool) -> None:
        self.writer = writer
        self.thinking = thinking
        self.qt = qt

    def message(self, message: dict[str, Any]) -> str:
        who = speaker(message)
        role = "user" if who == "User" else "tool" if who == "Tool" else "assistant"
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        inner = "\n".join(self.block(block) for block in blocks or [] if isinstance(block, dict))
        head = f'<div class="who">{html.escape(who)}</div>'
        if self.qt:
            return f"{head}\n{inner}\n<hr/>"
        return f'<section class="msg {role}">{head}\n{inner}\n</section>'

    def block(self, block: dict[str, Any]) -> str:
        kind = block.get("type")
        if kind == "text":
            return render_markdown(str(block.get("text", "")))
        if kind == "thinking":
            return self._thinking(str(block.get("thinking", "")))
        if kind == "tool_use":
            arguments = json.dumps(block.get("input", {}), ensure_ascii=False, indent=2)
            return self._card(f"Tool call · {block.get('name', '')}", _code(arguments, "json"))
        if kind == "tool_result":
            return self._tool_result(block)
        if kind in ("image", "audio", "video"):
            return render_markdown(self.writer.media(block))
        return ""

    def _thinking(self, text: str) -> str:
        if not self.thinking or not text.strip():
            return ""
        body = render_markdown(text)
        if self.qt:
            return f'<div class="thinking">Thinking: {body}</div>'
        return f'<details class="thinking"><summary>Thinking</summary>{body}</details>'

    def _card(self, title: str, body: str) -> str:
        head = html.escape(title)
        if self.qt:
            return f'<p class="head">{head}</p>{body}'
        return f'<div class="card"><div class="head">{head}</div>{body}</div>'

    def _tool_result(self, block: dict[str, Any]) -> str:
        output = block.get("output")
        items = [{"type": "text", "text": output}] if isinstance(output, str) else output or []
        text = "\n".join(
            str(i.get("text", "")) for i in items if isinstance(i, dict) and i.get("type") == "text"
        )
        if len(text) > TOOL_OUTPUT_MAX_CHARS:
            text = (
                text[:TOOL_OUTPUT_MAX_CHARS]
                + f"\n… ({len(text) - TOOL_OUTPUT_MAX_CHARS} more characters)"
            )
        media = [self.block(i) for i in items if isinstance(i, dict) and i.get("type") != "text"]
        body = (_code(text, "text") if text else "") + "".join(media)
        return self._card(f"Tool result · {block.get('name', '')}", body)


@lru_cache(maxsize=1)
def _markdown_it() -> MarkdownIt:
    options = {"html": False, "linkify": False, "typographer": False, "highlight": _highlight}
    return MarkdownIt("commonmark", options).enable("table").enable("strikethrough")


def render_markdown(text: str) -> str:
    """HTML for Markdown text; raw HTML in it is escaped."""
    return _markdown_it().render(text)


def _highlight(code: str, language: str, _attrs: Any) -> str:
    return _code(code, language)


def _code(code: str, language: str) -> str:
    try:
        lexer = get_lexer_by_name(language) if language else TextLexer()
    except ClassNotFound:
        lexer = TextLexer()
    formatter = HtmlFormatter(nowrap=True, noclasses=True, style="friendly")
    return f"<pre><code>{highlight(code, lexer, formatter).rstrip()}</code></pre>"
