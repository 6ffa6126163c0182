"""Agent skills: folders with a ``SKILL.md`` whose front matter names and describes them.

Only the front matter is read when a skill is registered; the agent reads the rest of the
file itself when a task needs the skill. The front matter is the simple ``key: value`` subset
of YAML (one line per key, optional quotes), which is what skill files use.
"""

from __future__ import annotations

from pathlib import Path

from desktop_agent.tool._types import AgentSkill

DEFAULT_AGENT_SKILL_INSTRUCTION = (
    "# Agent Skills\n"
    "Agent skills are folders of instructions, scripts and resources that you can load when "
    "a task needs them. Each skill's folder has a `SKILL.md` file that explains how to use "
    "the skill: before you use a skill, you MUST read its `SKILL.md` file carefully.\n"
)
DEFAULT_AGENT_SKILL_TEMPLATE = (
    '## {name}\n{description}\nCheck "{dir}/SKILL.md" for how to use this skill.'
)


def _front_matter(text: str) -> dict[str, str]:
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return {}
    fields: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---":
            return fields
        key, sep, value = line.partition(":")
        if sep and key.strip() and not line[0].isspace():
            fields[key.strip()] = value.strip().strip("'\"")
    return {}


def read_agent_skill(skill_dir: str | Path) -> AgentSkill:
    """Read the skill in ``skill_dir``.

    Raises:
        ValueError: The folder or its ``SKILL.md`` is missing, or the front matter lacks a
            ``name`` or a ``description``.
    """
    folder = Path(skill_dir)
    if not folder.is_dir():
        raise ValueError(f"The agent skill directory {str(skill_dir)!r} does not exist.")
    skill_md = folder / "SKILL.md"
    if not skill_md.is_file():
        raise ValueError(f"The agent skill directory {str(skill_dir)!r} has no SKILL.md file.")
    fields = _front_matter(skill_md.read_text(encoding="utf-8"))
    for key in ("name", "description"):
        if not fields.get(key):
            raise ValueError(
                f"The SKILL.md file in {str(skill_dir)!r} must start with a front matter "
                f"(between '---' lines) giving the skill's {key}."
            )
    return AgentSkill(name=fields["name"], description=fields["description"], dir=str(folder))


def agent_skill_prompt(instruction: str, template: str, skills: list[AgentSkill]) -> str | None:
    """The system-prompt section listing ``skills``, or ``None`` when there are none."""
    if not skills:
        return None
    entries = [template.format(**skill) for skill in skills]
    return instruction + "\n".join(entries)
