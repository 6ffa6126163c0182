"""Knowledge bases: documents an agent may consult before replying (retrieval-augmented).

``KnowledgeBase`` is the interface ``ReActAgent`` calls with the user's text before each
reply; ``InMemoryKnowledgeBase`` scores its documents by keyword overlap, which is enough
for tests and small local document sets (no embedding model needed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import shortuuid

from desktop_agent.agent._keywords import keywords, overlap_score


@dataclass
class Document:
    """A retrievable piece of text."""

    content: str
    id: str = field(default_factory=shortuuid.uuid)
    metadata: dict[str, Any] = field(default_factory=dict)
    score: float | None = None
    """The relevance of the last retrieval that returned it."""


class KnowledgeBase:
    """The interface of a knowledge base."""

    async def retrieve(self, query: str, limit: int = 5, **kwargs: Any) -> list[Document]:
        """The documents most relevant to ``query``, best first."""
        raise NotImplementedError(f"{type(self).__name__} does not implement retrieve.")


class InMemoryKnowledgeBase(KnowledgeBase):
    """Documents held in memory and scored by the share of query words they contain."""

    def __init__(self, documents: list[Document | str] | None = None) -> None:
        self.documents: list[Document] = []
        self.add_documents(documents or [])

    def add_documents(self, documents: list[Document | str]) -> None:
        """Add documents (a string becomes a ``Document``)."""
        for doc in documents:
            self.documents.append(doc if isinstance(doc, Document) else Document(content=doc))

    async def retrieve(
        self,
        query: str,
        limit: int = 5,
        score_threshold: float | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        """The documents sharing words with ``query``, best first.

        Args:
            query: The text to match.
            limit: The maximum number of documents.
            score_threshold: Only documents scoring at least this much (0–1); any shared
                word is enough by default.
        """
        query_words = keywords(query)
        threshold = score_threshold or 0.0
        results: list[Document] = []
        for doc in self.documents:
            score = overlap_score(query_words, doc.content)
            if score > 0 and score >= threshold:
                results.append(Document(doc.content, doc.id, dict(doc.metadata), score))
        results.sort(key=lambda d: -(d.score or 0.0))
        return results[: max(limit, 0)]
