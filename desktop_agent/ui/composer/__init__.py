"""The composer feature: text input, attachments with previews, Send/Stop."""

from desktop_agent.ui.composer._allowed_tools import AllowedToolsChip
from desktop_agent.ui.composer._attachments import (
    Attachment,
    AttachmentChip,
    attachment_from_image,
    attachment_from_path,
)
from desktop_agent.ui.composer._composer import Composer
from desktop_agent.ui.composer._input import ComposerInput

__all__ = [
    "AllowedToolsChip",
    "Attachment",
    "AttachmentChip",
    "Composer",
    "ComposerInput",
    "attachment_from_image",
    "attachment_from_path",
]
