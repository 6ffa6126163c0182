"""Variables and importance functions: resolution order, call forms, errors, built-ins."""

from __future__ import annotations

import re
from typing import Any

import pytest
from context_helpers import config, module

from desktop_agent.context import (
    BuildContext,
    InputModule,
    ModuleReport,
    context_variable,
    importance_function,
)
from desktop_agent.message import Msg


def engine(
    *modules: dict[str, Any], importance: dict[str, Any] | None = None, **variables: Any
) -> InputModule:
    input_module = InputModule(variables=variables, importance_funcs=importance)
    input_module.load_config(config(*modules))
    return input_module


# ------------------------------------------------------------------- resolution order


class GreetingModule(InputModule):
    @context_variable
    def greeting(self) -> str:
        """A greeting from a method."""
        return "from method"


async def test_build_values_win_over_registered_over_methods() -> None:
    input_module = GreetingModule()
    input_module.load_config(config(module("a", ("variable", "greeting"))))
    assert await input_module.build_prompt() == "from method"
    input_module.register_variable("greeting", lambda: "from registered")
    assert await input_module.build_prompt() == "from registered"
    assert await input_module.build_prompt(greeting="from build") == "from build"


async def test_registered_variables_override_built_ins() -> None:
    input_module = engine(module("a", ("variable", "current_datetime")))
    input_module.register_variable("current_datetime", lambda: "the dawn of time")
    assert await input_module.build_prompt() == "the dawn of time"


async def test_build_values_override_built_ins() -> None:
    input_module = engine(module("a", ("variable", "agent_name")))
    assert await input_module.build_prompt() == "Assistant"
    assert await input_module.build_prompt(agent_name="Friday") == "Friday"


def test_undecorated_methods_are_not_variables() -> None:
    known = GreetingModule().known_variables()
    assert known["greeting"] == "A greeting from a method."
    assert "build_prompt" not in known and "load_config" not in known
    assert "is_relevant_func" not in known


def test_known_variables_and_functions_have_descriptions() -> None:
    input_module = InputModule()

    def weather() -> str:
        """Today's weather report.

        More detail that the picker does not show.
        """
        return "sunny"

    input_module.register_variable("weather", weather)
    input_module.register_importance_func("always_no", lambda: False, "Never include.")
    variables = input_module.known_variables()
    assert set(variables) >= {
        "current_user_input",
        "short_term_history_content",
        "current_datetime",
        "agent_name",
        "long_term_memory",
        "knowledge",
        "sys_prompt",
        "chat_history",
        "weather",
    }
    assert variables["weather"] == "Today's weather report."
    assert list(variables) == sorted(variables)
    assert all(variables[name] for name in variables if name != "weather")
    functions = input_module.known_importance_funcs()
    assert functions["always_no"] == "Never include."
    assert set(functions) == {"always_no", "has_content", "is_relevant_func"}


# ------------------------------------------------------------------------ call forms


async def test_sync_async_and_context_taking_variables() -> None:
    seen: list[BuildContext] = []

    async def async_no_arg() -> str:
        return "A"

    def sync_context(context: BuildContext) -> str:
        seen.append(context)
        return f"B:{context.user_input}:{context.variables['mood']}"

    async def async_context(context: BuildContext) -> str:
        return f"C:{context.user_input}"

    input_module = engine(
        module(
            "a",
            ("variable", "zero"),
            ("text", " "),
            ("variable", "async_zero"),
            ("text", " "),
            ("variable", "one"),
            ("text", " "),
            ("variable", "async_one"),
        ),
        zero=lambda: "Z",
        async_zero=async_no_arg,
        one=sync_context,
        async_one=async_context,
    )
    assert await input_module.build_prompt("hi", mood="glad") == "Z A B:hi:glad C:hi"
    assert seen[0].memory is None and seen[0].user_msg is not None


async def test_a_method_variable_may_be_async_and_take_the_context() -> None:
    class Echo(InputModule):
        @context_variable
        async def echo(self, context: BuildContext) -> str:
            """The input, twice."""
            return context.user_input * 2

    input_module = Echo()
    input_module.load_config(config(module("a", ("variable", "echo"))))
    assert await input_module.build_prompt("ab") == "abab"


def test_functions_needing_two_arguments_are_refused_at_once() -> None:
    input_module = InputModule()
    with pytest.raises(TypeError, match=r"'pair' must take no arguments or one BuildContext"):
        input_module.register_variable("pair", lambda a, b: "x")
    with pytest.raises(TypeError, match="'keyword'"):
        input_module.register_importance_func("keyword", lambda *, context: True)
    with pytest.raises(TypeError, match="must be callable"):
        input_module.register_variable("text", "not callable")  # type: ignore[arg-type]


async def test_optional_parameters_do_not_receive_the_context() -> None:
    input_module = engine(
        module("a", ("variable", "limit")), limit=lambda limit=3: f"limit={limit}"
    )
    assert await input_module.build_prompt() == "limit=3"


async def test_variable_values_are_turned_into_text() -> None:
    answer = Msg("Friday", "Forty-two", "assistant")
    input_module = engine(
        module("a", ("variable", "number"), ("text", "|"), ("variable", "nothing")),
        module("b", ("variable", "message")),
        number=lambda: 7,
        nothing=lambda: None,
        message=lambda: answer,
    )
    assert await input_module.build_prompt() == "7|\n\nForty-two"


# ------------------------------------------------------------------------ importance


async def test_importance_true_false_and_functions() -> None:
    input_module = engine(
        module("always", ("text", "A")),
        module("never", ("text", "N"), importance=False),
        module("yes", ("text", "Y"), importance="yes"),
        module("no", ("text", "X"), importance="no"),
        importance={"yes": lambda: True, "no": lambda context: False},
    )
    assert await input_module.build_prompt() == "A\n\nY"
    reasons = {r.module_name: (r.included, r.reason) for r in input_module.last_build_report}
    assert reasons == {
        "always": (True, "always"),
        "never": (False, "importance_func=false"),
        "yes": (True, "yes returned True"),
        "no": (False, "no returned False"),
    }


async def test_async_importance_function_sees_the_module_and_its_variable_content() -> None:
    seen: list[BuildContext] = []

    async def judge(context: BuildContext) -> bool:
        seen.append(context)
        return "rain" in context.module_content

    input_module = engine(
        module("weather", ("text", "Forecast: "), ("variable", "forecast"), importance="judge"),
        importance={"judge": judge},
        forecast=lambda: "rain later",
    )
    assert await input_module.build_prompt("umbrella?") == "Forecast: rain later"
    assert seen[0].module is not None and seen[0].module.module_name == "weather"
    assert seen[0].module_content == "rain later"
    assert seen[0].user_input == "umbrella?"


@pytest.mark.parametrize(
    ("user_input", "memory_text", "included"),
    [
        ("What's my cat called?", "The user's cat is called Miso.", True),
        ("WHAT IS MY CAT CALLED", "the user's cat is called miso", True),
        ("Tell me about the weather", "The user's cat is called Miso.", False),
        ("Is it on?", "it is on the table", False),  # only stop-words and short words
        ("anything", "", False),
        ("", "The user's cat is called Miso.", False),
    ],
)
async def test_is_relevant_func(user_input: str, memory_text: str, included: bool) -> None:
    input_module = engine(
        module(
            "memory",
            ("text", "Remembered: "),
            ("variable", "long_term_memory"),
            importance="is_relevant_func",
        ),
    )
    await input_module.build_prompt(user_input, long_term_memory=memory_text)
    assert input_module.last_build_report[0].included is included


async def test_is_relevant_func_ignores_the_modules_fixed_text() -> None:
    input_module = engine(
        module(
            "memory",
            ("text", "Weather notes: "),
            ("variable", "long_term_memory"),
            importance="is_relevant_func",
        ),
    )
    await input_module.build_prompt("weather today?", long_term_memory="cats sleep a lot")
    assert input_module.last_build_report[0].included is False


async def test_has_content() -> None:
    input_module = engine(
        module(
            "knowledge", ("text", "Sources:\n"), ("variable", "knowledge"), importance="has_content"
        ),
    )
    assert await input_module.build_prompt(knowledge="  \n ") == ""
    assert input_module.last_build_report[0].reason == "has_content returned False"
    assert await input_module.build_prompt(knowledge="RFC 9110") == "Sources:\nRFC 9110"


# ---------------------------------------------------------------------------- errors


async def test_an_erroring_variable_skips_its_module_and_the_build_goes_on() -> None:
    def broken() -> str:
        raise RuntimeError("backend down")

    input_module = engine(
        module("before", ("text", "B")),
        module("broken", ("text", "X "), ("variable", "broken")),
        module("after", ("text", "A")),
        broken=broken,
    )
    assert await input_module.build_prompt() == "B\n\nA"
    report = input_module.last_build_report[1]
    assert report == ModuleReport(
        "broken", False, "error: variable 'broken' raised RuntimeError: backend down", "", 0
    )
    assert [r.included for r in input_module.last_build_report] == [True, False, True]


async def test_an_erroring_importance_function_skips_its_module() -> None:
    async def fails(context: BuildContext) -> bool:
        raise ValueError("no verdict")

    input_module = engine(
        module("a", ("text", "A"), importance="fails"),
        module("b", ("text", "B")),
        importance={"fails": fails},
    )
    assert await input_module.build_prompt() == "B"
    assert input_module.last_build_report[0].reason == (
        "error: importance function 'fails' raised ValueError: no verdict"
    )


async def test_errors_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    input_module = engine(module("a", ("variable", "bad")), bad=lambda: 1 / 0)
    await input_module.build_prompt()
    assert any(
        re.search(r"'a' left out: variable 'bad' raised ZeroDivisionError", r.getMessage())
        for r in caplog.records
    )


# ------------------------------------------------------------------------ built-ins


async def test_built_in_values_without_an_agent() -> None:
    input_module = engine(
        module("a", ("text", "["), ("variable", "long_term_memory"), ("text", "]")),
        module(
            "b", ("text", "["), ("variable", "knowledge"), ("variable", "sys_prompt"), ("text", "]")
        ),
        module("c", ("variable", "current_datetime")),
    )
    text = await input_module.build_prompt()
    first, second, third = text.split("\n\n")
    assert (first, second) == ("[]", "[]")
    assert re.fullmatch(r"\w+day, \d{4}-\d\d-\d\d \d\d:\d\d.*", third)


async def test_short_term_history_content_formats_recent_dialogue() -> None:
    input_module = engine(module("recent", ("variable", "short_term_history_content")))
    input_module.add_to_short_term("Hello")
    input_module.add_to_short_term(Msg("Friday", "Hi! How can I help?", "assistant"))
    assert await input_module.build_prompt() == "user: Hello\nFriday: Hi! How can I help?"


class Subclass(InputModule):
    @importance_function
    def is_morning(self) -> bool:
        """Only in the morning."""
        return False


async def test_importance_methods_of_subclasses() -> None:
    input_module = Subclass()
    assert input_module.known_importance_funcs()["is_morning"] == "Only in the morning."
    input_module.load_config(config(module("a", ("text", "A"), importance="is_morning")))
    assert await input_module.build_prompt() == ""
