"""``DefaultPlanToHint``: the ``<system-hint>`` a ReAct agent reads before each step.

The texts are class attributes, so a subclass can change any of them.
"""

from __future__ import annotations

from desktop_agent.plan._plan_model import Plan

_OPTIONS_TAIL = (
    "- If the user asks you to do something unrelated to the plan, prioritize the completion "
    "of user's query first, and then return to the plan afterward."
)


class DefaultPlanToHint:
    """Turns the current plan (or ``None``) into a hint text for the model."""

    hint_prefix: str = "<system-hint>"
    hint_suffix: str = "</system-hint>"

    no_plan: str = (
        "If the user's query is complex (e.g. programming a website, game or app), or requires "
        "a long chain of steps to complete (e.g. conduct research on a certain topic from "
        "different sources), you NEED to create a plan first by calling 'create_plan'. "
        "Otherwise, you can directly execute the user's query without planning."
    )

    at_the_beginning: str = (
        "The current plan:\n```\n{plan}\n```\n"
        "Your options include:\n"
        "- Mark the first subtask as 'in_progress' by calling 'update_subtask_state' with "
        "subtask_idx=0 and state='in_progress', and start executing it.\n"
        "- If the first subtask is not executable, analyze why and what you can do to advance "
        "the plan, e.g. ask user for more information, revise the plan by calling "
        "'revise_current_plan'.\n"
        f"{_OPTIONS_TAIL}\n"
        "- If the user no longer wants to perform the current plan, confirm with the user and "
        "call the 'finish_plan' function.\n"
    )

    when_a_subtask_in_progress: str = (
        "The current plan:\n```\n{plan}\n```\n"
        "Now the subtask at index {subtask_idx}, named '{subtask_name}', is 'in_progress'. Its "
        "details are as follows:\n```\n{subtask}\n```\n"
        "Your options include:\n"
        "- Go on execute the subtask and get the outcome.\n"
        "- Call 'finish_subtask' with the specific outcome if the subtask is finished.\n"
        "- Ask the user for more information if you need.\n"
        "- Revise the plan by calling 'revise_current_plan' if necessary.\n"
        f"{_OPTIONS_TAIL}"
    )

    when_no_subtask_in_progress: str = (
        "The current plan:\n```\n{plan}\n```\n"
        "The first {index} subtasks are done, and there is no subtask 'in_progress'. Now Your "
        "options include:\n"
        "- Mark the next subtask as 'in_progress' by calling 'update_subtask_state', and start "
        "executing it.\n"
        "- Ask the user for more information if you need.\n"
        "- Revise the plan by calling 'revise_current_plan' if necessary.\n"
        f"{_OPTIONS_TAIL}"
    )

    at_the_end: str = (
        "The current plan:\n```\n{plan}\n```\n"
        "All the subtasks are done. Now your options are:\n"
        "- Finish the plan by calling 'finish_plan' with the specific outcome, and summarize "
        "the whole process and outcome to the user.\n"
        "- Revise the plan by calling 'revise_current_plan' if necessary.\n"
        f"{_OPTIONS_TAIL}"
    )

    def __call__(self, plan: Plan | None) -> str | None:
        """The hint for ``plan``, wrapped in ``hint_prefix``/``hint_suffix``, or ``None``."""
        hint = self._hint(plan)
        if hint:
            return self.hint_prefix + hint + self.hint_suffix
        return None

    def _hint(self, plan: Plan | None) -> str | None:
        if plan is None:
            return self.no_plan
        states = [subtask.state for subtask in plan.subtasks]
        done, abandoned = states.count("done"), states.count("abandoned")
        in_progress = [i for i, state in enumerate(states) if state == "in_progress"]
        if not in_progress and done == 0:
            return self.at_the_beginning.format(plan=plan.to_markdown())
        if in_progress:
            index = in_progress[-1]
            subtask = plan.subtasks[index]
            return self.when_a_subtask_in_progress.format(
                plan=plan.to_markdown(),
                subtask_idx=index,
                subtask_name=subtask.name,
                subtask=subtask.to_markdown(detailed=True),
            )
        if done + abandoned == len(states):
            return self.at_the_end.format(plan=plan.to_markdown())
        if done > 0:
            return self.when_no_subtask_in_progress.format(plan=plan.to_markdown(), index=done)
        return None
