"""``list_models``: which models an OpenAI-compatible server offers (``GET /models``).

Used by provider discovery and the settings dialog. It makes one request, without
retries, and raises the same :mod:`desktop_agent.model` errors as a chat call.
"""

from __future__ import annotations

import os

from desktop_agent.model._exceptions import ModelResponseError
from desktop_agent.model._openai_errors import translate_openai_error

# Local servers (Ollama, LM Studio, llama.cpp…) need no key, but the SDK insists on one.
_NO_KEY = "no-key"


async def list_models(
    base_url: str | None, api_key: str | None = None, timeout: float = 10.0
) -> list[str]:
    """The model ids the server at ``base_url`` lists, in the server's order.

    Args:
        base_url: E.g. ``"http://localhost:11434/v1"``; ``None`` for the SDK default
            (``OPENAI_BASE_URL`` or OpenAI's API).
        api_key: The API key; ``None`` uses ``OPENAI_API_KEY`` if set, else none.
        timeout: Seconds for the whole request.

    Raises:
        ModelError: The server could not be reached or answered with an error.
    """
    import openai  # ~0.7 s: loaded on first use

    key = api_key or os.environ.get("OPENAI_API_KEY") or _NO_KEY
    client = openai.AsyncClient(base_url=base_url, api_key=key, timeout=timeout, max_retries=0)
    try:
        return [model.id async for model in client.models.list()]
    except openai.OpenAIError as exc:
        base = str(client.base_url).rstrip("/")
        raise translate_openai_error(exc, base_url=base) from exc
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ModelResponseError(
            f"The model server at {client.base_url} sent a model list of unexpected shape."
        ) from exc
    finally:
        await client.close()
