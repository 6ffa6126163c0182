"""The chat pane: renders a :class:`~desktop_agent.app.Conversation` as it streams.

``ChatView`` is the widget the window embeds. The other names are its parts, public for the
window, benchmarks and tests: the Qt model adapter, the stream coalescer, the incremental
Markdown renderer and its work counters.
"""

from desktop_agent.ui.chat._coalescer import StreamCoalescer
from desktop_agent.ui.chat._markdown import RENDER_STATS, RenderStats, TextRender
from desktop_agent.ui.chat._markdown_split import Chunk, MarkdownSplitter, split_markdown
from desktop_agent.ui.chat._model import ENTRY_ROLE, ConversationModel
from desktop_agent.ui.chat._view import ChatView

__all__ = [
    "ENTRY_ROLE",
    "RENDER_STATS",
    "ChatView",
    "Chunk",
    "ConversationModel",
    "MarkdownSplitter",
    "RenderStats",
    "StreamCoalescer",
    "TextRender",
    "split_markdown",
]
