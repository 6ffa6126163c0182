"""Export in the window: PDF through Qt's printing, and the Export… controller."""

from desktop_agent.ui.export._controller import ExportController
from desktop_agent.ui.export._pdf import conversation_pdf, pdf_in_subprocess

__all__ = ["ExportController", "conversation_pdf", "pdf_in_subprocess"]
