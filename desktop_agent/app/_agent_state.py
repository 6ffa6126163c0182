"""``AgentState``: what a session saves of its agent, present before the agent exists.

The chat service builds its ``ReActAgent`` lazily, on the first turn (the agent core
imports ``openai``, ~0.75 s), and rebuilds it when the provider or the settings change.
A session, though, must be saved and restored at any moment, with or without an agent.
So the parts of the agent that make up its state — memory, toolkit state, name, system
prompt and ``InputModule`` — live here, and the agent is built *around* them: it gets
this memory and this input module, and this toolkit state is loaded into its toolkit.

``state_dict()`` has the shape of ``ReActAgent.state_dict()`` (``memory``, ``toolkit``,
``input_module``, ``name``, ``_sys_prompt``, and ``plan_notebook`` once plans are used): the
live agent's state while one is attached, else the same keys from here. So a session file
holds an ordinary agent state, which a ``ReActAgent`` (or AgentScope's) loads as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desktop_agent.module import StateModule

if TYPE_CHECKING:
    from desktop_agent.app._chat_setup import ChatSetup
    from desktop_agent.app._conversation_tree import ConversationTree
    from desktop_agent.context import InputModule
    from desktop_agent.memory import MemoryBase
    from desktop_agent.plan import PlanNotebook

AGENT_NAME = "Assistant"


class ToolkitState(StateModule):
    """A toolkit's state (its active tool groups) while no ``Toolkit`` is built."""

    def __init__(self, active_groups: list[str] | None = None) -> None:
        """Create it.

        Args:
            active_groups: The names of the active tool groups; ``None``: whatever a new
                toolkit has active (nothing was saved or loaded yet).
        """
        super().__init__()
        self.active_groups: list[str] | None = active_groups
        self.register_state("active_groups", custom_to_json=lambda groups: list(groups or []))

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Take ``{"active_groups": [...]}`` (as ``Toolkit.state_dict()`` gives).

        Raises:
            ValueError: It is not a dict with an ``active_groups`` list of strings.
        """
        groups = state_dict.get("active_groups") if isinstance(state_dict, dict) else None
        if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
            raise ValueError("The toolkit state must be a dict with an 'active_groups' list.")
        self.active_groups = list(groups)


class AgentState(StateModule):
    """Memory, toolkit state, name, system prompt and input module of a conversation's agent.

    Attributes:
        memory: The conversation's memory (the agent's, once built).
        toolkit: The toolkit's state while no agent is attached.
        input_module: The context template engine the agent assembles its prompt with.
        name: The agent's name.
    """

    def __init__(
        self,
        sys_prompt: str = "",
        *,
        name: str = AGENT_NAME,
        memory: MemoryBase | None = None,
        input_module: InputModule | None = None,
    ) -> None:
        """Create a fresh state: an empty memory and the default template unless given.

        Args:
            sys_prompt: The system prompt.
            name: The agent's name.
            memory: The memory to keep (default: a new ``SessionMemory``, an
                ``InMemoryMemory`` that is cheap to autosave).
            input_module: The input module to keep (default: ``InputModule()``, the
                default template).
        """
        super().__init__()
        if memory is None:
            # Loaded with the agent core, after first paint.
            from desktop_agent.app._session_memory import SessionMemory

            memory = SessionMemory()
        if input_module is None:
            # Loaded with the agent core, after first paint.
            from desktop_agent.context import InputModule

            input_module = InputModule()
        self.memory = memory
        self.toolkit = ToolkitState()
        self.input_module = input_module
        self.name = name
        self._sys_prompt = sys_prompt
        self.register_state("name")
        self.register_state("_sys_prompt")
        # A child module (saved with the session) once plans are used; see ensure_plan_notebook.
        self.plan_notebook: PlanNotebook | None = None
        object.__setattr__(self, "_agent", None)  # not a child: its state is delegated to
        # Not a child either: the other versions are their own part of a session file
        # ("versions"), so the agent's part stays an ordinary agent state.
        object.__setattr__(self, "_versions", None)
        # Not a child either: the chat's provider, assistant and parameters ("chat" part).
        object.__setattr__(self, "_setup", None)

    @property
    def setup(self) -> ChatSetup:
        """The chat's provider, assistant and parameters (its own part of a session file)."""
        setup = self.__dict__["_setup"]
        if setup is None:
            from desktop_agent.app._chat_setup import ChatSetup

            setup = ChatSetup()
            object.__setattr__(self, "_setup", setup)
        return setup

    @property
    def versions(self) -> ConversationTree:
        """The conversation's other versions (edits, regenerated answers), created on use."""
        tree = self.__dict__["_versions"]
        if tree is None:
            # Loaded with the agent core, after first paint.
            from desktop_agent.app._conversation_tree import ConversationTree

            tree = ConversationTree()
            object.__setattr__(self, "_versions", tree)
        return tree

    def ensure_plan_notebook(self) -> PlanNotebook:
        """The conversation's plan notebook, created on first use (plans on)."""
        if self.plan_notebook is None:
            # Loaded with the agent core, after first paint.
            from desktop_agent.plan import PlanNotebook

            self.plan_notebook = PlanNotebook()
        return self.plan_notebook

    @property
    def sys_prompt(self) -> str:
        """The system prompt (the agent's while one is attached)."""
        agent = self.agent
        return str(agent.sys_prompt) if agent is not None else self._sys_prompt

    @sys_prompt.setter
    def sys_prompt(self, value: str) -> None:
        self._sys_prompt = value
        if self.agent is not None:
            self.agent._sys_prompt = value

    @property
    def agent(self) -> Any:
        """The live ``ReActAgent`` built around this state, if any."""
        return self.__dict__["_agent"]

    @property
    def active_groups(self) -> list[str] | None:
        """The active tool groups (the agent's toolkit's while one is attached)."""
        agent = self.agent
        if agent is not None:
            return list(agent.toolkit.state_dict()["active_groups"])
        return self.toolkit.active_groups

    def attach(self, agent: Any) -> None:
        """Use ``agent`` (built with this memory and input module) as the live agent.

        Its name, system prompt and toolkit's active groups are set from this state.
        """
        agent.name = self.name
        agent._sys_prompt = self._sys_prompt
        if self.toolkit.active_groups is not None:
            groups = {"active_groups": self.toolkit.active_groups}
            agent.toolkit.load_state_dict(groups, strict=False)
        object.__setattr__(self, "_agent", agent)

    def detach(self) -> None:
        """Forget the live agent, keeping what it changed (name, prompt, tool groups)."""
        agent = self.agent
        if agent is None:
            return
        self.toolkit.active_groups = self.active_groups
        self.name, self._sys_prompt = str(agent.name), str(agent.sys_prompt)
        object.__setattr__(self, "_agent", None)

    def state_dict(self) -> dict[str, Any]:
        """The agent's state (``ReActAgent.state_dict()`` shape)."""
        agent = self.agent
        if agent is not None:
            state: dict[str, Any] = agent.state_dict()
            return state
        return super().state_dict()

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Load a saved agent state; parts it lacks keep their current value.

        Sessions saved before the input module joined the agent's state have no
        ``input_module``: they get the default template. Load into a fresh state and
        discard it if this raises (a part may be loaded already).

        Raises:
            TypeError, KeyError, ValueError: A part does not fit.
        """
        if isinstance(state_dict.get("plan_notebook"), dict):
            self.ensure_plan_notebook()  # the session used plans: keep them
        super().load_state_dict(state_dict, strict=False)
        if self.agent is not None:
            self.attach(self.agent)
