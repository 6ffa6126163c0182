"""The incremental Markdown splitter: streamed equals fresh, each line scanned once."""

from __future__ import annotations

import random

from desktop_agent.ui.chat import MarkdownSplitter, split_markdown
from desktop_agent.ui.chat._markdown_split import Chunk

TEXT = """# Title

Intro paragraph with `code` and a [link](https://example.com).

- item one
- item two

- loose item after a blank line
  continued inside the item

| a | b |
|---|---|
| 1 | 2 |

```python
def f(x):

    return x  # a blank line inside the fence
```

  ```js
  indented fence
  ```

After the code.

~~~
unterminated fence"""


def _signature(chunks: list[Chunk]) -> list[object]:
    return [(tuple(c.units), c.tail, c.closed) for c in chunks]


def test_streamed_split_equals_fresh_split_at_any_cut_points() -> None:
    rng = random.Random(7)
    for chunk_chars in (40, 300, 5000):
        fresh = split_markdown(TEXT, chunk_chars)
        for _ in range(25):
            splitter = MarkdownSplitter(chunk_chars)
            end = 0
            while end < len(TEXT):
                end = min(len(TEXT), end + rng.randint(1, 30))
                splitter.feed(TEXT[:end])
            splitter.feed(TEXT, final=True)
            assert _signature(splitter.chunks) == _signature(fresh)
            assert splitter.restarts == 0


def test_units_reassemble_the_text_exactly() -> None:
    chunks = split_markdown(TEXT, 60)
    assert "".join(u.source for c in chunks for u in c.units) == TEXT


def test_code_units_hold_the_code_without_fences() -> None:
    units = [u for c in split_markdown(TEXT) for u in c.units if u.kind == "code"]
    assert [(u.lang, u.text) for u in units] == [
        ("python", "def f(x):\n\n    return x  # a blank line inside the fence"),
        ("js", "indented fence"),
        ("", "unterminated fence"),
    ]


def test_loose_list_items_stay_in_one_unit() -> None:
    units = [u.text for c in split_markdown(TEXT) for u in c.units if u.kind == "md"]
    assert any("- item one" in u and "continued inside the item" in u for u in units)


def test_an_open_fence_is_the_tail_while_streaming() -> None:
    splitter = MarkdownSplitter()
    splitter.feed("Text\n\n```py\nprint(1)\nprint(")
    tail = splitter.chunks[-1].tail
    assert tail is not None
    assert (tail.kind, tail.lang, tail.text) == ("code", "py", "print(1)\nprint(")


def test_text_that_is_not_an_extension_restarts() -> None:
    splitter = MarkdownSplitter()
    splitter.feed("Hello\n\nworld\n")
    splitter.feed("Goodbye\n")
    assert splitter.restarts == 1
    splitter.feed("Goodbye\n", final=True)
    assert [u.text for u in splitter.chunks[0].units] == ["Goodbye\n"]


def test_chunks_close_at_the_size_limit() -> None:
    text = "".join(f"Paragraph {i} with some words in it.\n\n" for i in range(50))
    chunks = split_markdown(text, 200)
    assert len(chunks) > 5
    assert all(c.closed for c in chunks)
    assert all(c.size >= 200 for c in chunks[:-1])
