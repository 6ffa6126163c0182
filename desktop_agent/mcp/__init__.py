"""MCP clients (mirror of ``agentscope.mcp``), built on the official ``mcp`` SDK.

``StdIOStatefulClient`` runs a local server process, ``HttpStatefulClient`` keeps one
streamable-HTTP (or SSE) session open, ``HttpStatelessClient`` opens a fresh session per
operation. Each turns a server tool into an ``MCPToolFunction``, which a ``Toolkit``
registers like any tool (``Toolkit.register_mcp_client``).

Importing this package imports the SDK (~0.3 s); ``desktop_agent`` and ``Toolkit`` never
import it themselves, so they work without ``mcp`` installed.
"""

from desktop_agent.mcp._client_base import MCPClientBase
from desktop_agent.mcp._http_stateful_client import HttpStatefulClient
from desktop_agent.mcp._http_stateless_client import HttpStatelessClient
from desktop_agent.mcp._mcp_function import MCPToolFunction
from desktop_agent.mcp._stateful_client_base import StatefulClientBase
from desktop_agent.mcp._stdio_stateful_client import StdIOStatefulClient

__all__ = [
    "HttpStatefulClient",
    "HttpStatelessClient",
    "MCPClientBase",
    "MCPToolFunction",
    "StatefulClientBase",
    "StdIOStatefulClient",
]
