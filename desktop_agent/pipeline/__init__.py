"""Multi-agent plumbing (mirror of ``agentscope.pipeline``)."""

from desktop_agent.pipeline._class import FanoutPipeline, SequentialPipeline
from desktop_agent.pipeline._functional import (
    fanout_pipeline,
    sequential_pipeline,
    stream_printing_messages,
)
from desktop_agent.pipeline._msghub import MsgHub

__all__ = [
    "FanoutPipeline",
    "MsgHub",
    "SequentialPipeline",
    "fanout_pipeline",
    "sequential_pipeline",
    "stream_printing_messages",
]
