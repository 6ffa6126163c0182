"""Export in the window: PDF through Qt's printing, and the Export… controller."""

from typing import TYPE_CHECKING, Any

from desktop_agent.ui.export._controller import ExportController

if TYPE_CHECKING:
    from desktop_agent.ui.export._pdf import conversation_pdf, pdf_in_subprocess

__all__ = ["ExportController", "conversation_pdf", "pdf_in_subprocess"]


def __getattr__(name: str) -> Any:
    """The PDF functions are imported when first asked for: Qt's PDF and page classes cost
    ~26 ms to load, which the window's first paint does not need."""
    if name in {"conversation_pdf", "pdf_in_subprocess"}:
        from desktop_agent.ui.export import _pdf

        return getattr(_pdf, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
