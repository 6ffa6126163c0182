"""Chinese and Japanese text in the context engine: relevance by shared words, token estimates."""

from __future__ import annotations

import pytest

from desktop_agent.context import InputModule, estimate_tokens
from desktop_agent.context._relevance import meaningful_words
from desktop_agent.formatter import EstimatingTokenCounter

BEIJING = "北京市常住人口约两千一百八十万，面积一万六千平方公里。"


async def _knowledge_included(question: str, memory: str) -> tuple[bool, str]:
    """Whether the default template's long-term memory module (``is_relevant_func``) is kept."""
    input_module = InputModule()
    await input_module.build_prompt(question, long_term_memory=memory)
    report = {r.module_name: r for r in input_module.last_build_report}
    return report["long_term_memory"].included, report["long_term_memory"].reason


async def test_a_chinese_question_sharing_words_includes_the_knowledge() -> None:
    included, reason = await _knowledge_included("北京的人口是多少？", BEIJING)
    assert included, reason


async def test_an_unrelated_chinese_question_leaves_the_knowledge_out() -> None:
    included, _ = await _knowledge_included("上海明天会下雨吗？", BEIJING)
    assert not included


async def test_function_characters_and_question_words_alone_do_not_make_text_relevant() -> None:
    # Both share only 的, 是, 什么, 多少 — none of them says what the text is about.
    memory = "他的猫是白色的，有多少只不知道。"
    included, _ = await _knowledge_included("这是什么？有多少？", memory)
    assert not included


async def test_japanese_shares_kanji_words_across_kana_particles() -> None:
    included, _ = await _knowledge_included("東京の人口は？", "東京都の人口は約千四百万人です。")
    assert included
    included, _ = await _knowledge_included("大阪の天気は？", "東京都の人口は約千四百万人です。")
    assert not included


async def test_mixed_text_keeps_english_words_and_chinese_pairs() -> None:
    assert meaningful_words("Python 的列表推导式") >= {"python", "列表", "推导"}
    included, _ = await _knowledge_included("How do I sort a list in Python?", "Python 列表排序")
    assert included


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("北京的人口是多少？", 8, 11),  # nine characters: about one token each
        ("東京の人口は約千四百万人です。", 13, 17),
        ("hello world", 3, 3),  # English unchanged: four characters a token
    ],
)
def test_token_estimates_count_cjk_characters_about_one_each(
    text: str, low: int, high: int
) -> None:
    assert low <= estimate_tokens(text) <= high
    assert low <= EstimatingTokenCounter().count_text(text) <= high


async def test_a_chinese_history_fills_the_budget_at_its_real_size() -> None:
    counter = EstimatingTokenCounter(message_overhead=0)
    chinese = "这是一段很长的中文对话内容，用来检查预算。" * 50  # 1,050 characters
    tokens = await counter.count([{"role": "user", "content": chinese}])
    # Four bytes a token (the old estimate) would say 788; a tokenizer says about 1,000.
    assert 950 <= tokens <= 1100
