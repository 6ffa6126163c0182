"""``JSONSession``: AgentScope's files and messages, atomic writes, safe ids, bad files."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import threading
from pathlib import Path
from typing import Any

import pytest

from desktop_agent.memory import InMemoryMemory
from desktop_agent.message import Msg
from desktop_agent.module import StateModule
from desktop_agent.session import JSONSession, SessionFileError, _json_session

FIXTURES = Path(__file__).parent / "fixtures"


class Toolkit(StateModule):
    def __init__(self) -> None:
        super().__init__()
        self.active_groups: list[str] = []
        self.register_state("active_groups")


class Assistant(StateModule):
    """Shaped like AgentScope's ``ReActAgent`` state."""

    def __init__(self, name: str = "Friday") -> None:
        super().__init__()
        self.memory = InMemoryMemory()
        self.toolkit = Toolkit()
        self.name = name
        self._sys_prompt = "You are helpful."
        self.register_state("name")
        self.register_state("_sys_prompt")


class Counter(StateModule):
    def __init__(self, count: Any = 0) -> None:
        super().__init__()
        self.count = count
        self.register_state("count")


class ThreadRecorder(Counter):
    """Records on which thread its state is read and loaded."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[int] = []

    def state_dict(self) -> dict[str, Any]:
        self.threads.append(threading.get_ident())
        return super().state_dict()

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        self.threads.append(threading.get_ident())
        super().load_state_dict(state_dict, strict)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


@pytest.fixture
def session(folder: Path) -> JSONSession:
    return JSONSession(save_dir=str(folder))


async def assistant_with_history() -> Assistant:
    agent = Assistant()
    await agent.memory.add(Msg("user", "你好 \ud83d\ude00 hi", "user"), marks="hint")
    reply = [
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": "c1", "name": "search", "input": {"q": "x", "n": 2**70}},
    ]
    await agent.memory.add(Msg("Friday", reply, "assistant", {"usage": 1}, invocation_id="r1"))
    await agent.memory.update_compressed_summary("earlier")
    agent.toolkit.active_groups = ["basic", "web"]
    return agent


def files(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def put_file(folder: Path, data: bytes, name: str = "s.json") -> Path:
    """Write a session file directly, as another program (or a crash) would have."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


# -- files and round trips --------------------------------------------------------------


async def test_file_names_follow_agentscope(session: JSONSession, folder: Path) -> None:
    await session.save_session_state("s1", counter=Counter())
    await session.save_session_state("s1", user_id="alice", counter=Counter())
    assert files(folder) == ["alice_s1.json", "s1.json"]


async def test_save_dir_defaults_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    await JSONSession().save_session_state("here", counter=Counter(3))
    assert json.loads((tmp_path / "here.json").read_text()) == {"counter": {"count": 3}}


async def test_save_and_load_create_the_folder(tmp_path: Path) -> None:
    await JSONSession(str(tmp_path / "a" / "b")).load_session_state("s", counter=Counter())
    assert (tmp_path / "a" / "b").is_dir()
    await JSONSession(str(tmp_path / "c" / "d")).save_session_state("s", counter=Counter())
    assert (tmp_path / "c" / "d" / "s.json").is_file()


async def test_the_file_holds_exactly_each_modules_state(
    session: JSONSession, folder: Path
) -> None:
    agent, counter = await assistant_with_history(), Counter(5)
    await session.save_session_state("s", agent=agent, counter=counter)
    text = (folder / "s.json").read_bytes().decode("utf-8", "surrogatepass")
    assert json.loads(text) == {"agent": agent.state_dict(), "counter": counter.state_dict()}


async def test_nested_modules_round_trip(session: JSONSession) -> None:
    agent = await assistant_with_history()
    await session.save_session_state("s", user_id="u", agent=agent, counter=Counter(7))
    restored, counter = Assistant(name="Other"), Counter()
    await session.load_session_state("s", user_id="u", agent=restored, counter=counter)
    assert restored.state_dict() == agent.state_dict()
    assert counter.count == 7
    stored = restored.memory.content
    assert stored[0][0].content == "你好 \ud83d\ude00 hi" and stored[0][1] == ["hint"]
    assert stored[1][0].content[1]["input"]["n"] == 2**70
    assert stored[1][0].invocation_id == "r1"


async def test_lone_surrogates_and_non_string_keys_survive(session: JSONSession) -> None:
    await session.save_session_state("s", counter=Counter({"text": "\udc80", 1: "one"}))
    restored = Counter()
    await session.load_session_state("s", counter=restored)
    assert restored.count == {"text": "\udc80", "1": "one"}  # JSON keys are strings


async def test_saving_again_replaces_the_file(session: JSONSession, folder: Path) -> None:
    await session.save_session_state("s", counter=Counter(1), extra=Counter(2))
    await session.save_session_state("s", counter=Counter(3))
    assert json.loads((folder / "s.json").read_text()) == {"counter": {"count": 3}}


async def test_only_names_in_the_file_are_loaded(session: JSONSession) -> None:
    await session.save_session_state("s", counter=Counter(1), unused=Counter(9))
    counter, absent = Counter(), Counter(42)
    await session.load_session_state("s", counter=counter, absent=absent)
    assert (counter.count, absent.count) == (1, 42)


@pytest.mark.parametrize("name", ["agentscope_1_0_21.json", "agentscope_1_0_11_legacy_memory.json"])
async def test_files_written_by_agentscope_load(folder: Path, name: str) -> None:
    before = put_file(folder, (FIXTURES / name).read_bytes(), "old.json").read_bytes()
    agent, memory = Assistant(), InMemoryMemory()
    await JSONSession(str(folder)).load_session_state("old", agent=agent, memory=memory)
    assert (folder / "old.json").read_bytes() == before
    loaded = agent.memory if "1_0_21" in name else memory
    assert loaded.content[0][0].id in before.decode()
    if "1_0_21" in name:
        assert agent.toolkit.active_groups == ["basic"]
        assert agent._sys_prompt == "You are a helpful assistant named Friday."
        assert loaded.content[0][1] == ["hint"]
        summary = (await loaded.get_memory())[0]
        assert summary.content == "The user asked about the weather."
        assert loaded.content[1][0].content[1]["input"] == {"city": "Zürich"}
    else:
        assert [marks for _, marks in loaded.content] == [[], []]
        assert loaded.content[0][0].metadata == {}


# -- missing files and logs -------------------------------------------------------------


async def test_a_missing_file_is_skipped_by_default(
    session: JSONSession, folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="desktop_agent")
    counter = Counter(4)
    await session.load_session_state("nope", counter=counter)
    assert counter.count == 4
    path = os.path.join(str(folder), "nope.json")
    assert caplog.messages == [f"Session file {path} does not exist. Skip loading session state."]


async def test_a_missing_file_raises_when_not_allowed(session: JSONSession, folder: Path) -> None:
    path = os.path.join(str(folder), "u_nope.json")
    with pytest.raises(ValueError) as info:
        await session.load_session_state("nope", user_id="u", allow_not_exist=False)
    assert str(info.value) == f"Failed to load session state for file {path} does not exist."
    assert not isinstance(info.value, SessionFileError)


async def test_save_and_load_log_their_path(
    session: JSONSession, folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="desktop_agent")
    await session.save_session_state("s", counter=Counter())
    await session.load_session_state("s", counter=Counter())
    path = os.path.join(str(folder), "s.json")
    assert caplog.messages == [
        f"Saved session state to {path} successfully.",
        f"Load session state from {path} successfully.",
    ]
    assert {record.name for record in caplog.records} == {"desktop_agent"}


# -- atomic writes ----------------------------------------------------------------------


async def saved_file(session: JSONSession, folder: Path) -> bytes:
    await session.save_session_state("s", counter=Counter("old"))
    return (folder / "s.json").read_bytes()


async def test_a_failing_rename_keeps_the_old_file(
    session: JSONSession, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await saved_file(session, folder)

    def fail(source: Any, target: Any) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="Input/output error"):
        await session.save_session_state("s", counter=Counter("new"))
    assert (folder / "s.json").read_bytes() == before
    assert files(folder) == ["s.json"]


async def test_a_failing_encoder_keeps_the_old_file(
    session: JSONSession, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await saved_file(session, folder)

    def fail(data: Any) -> bytes:
        raise MemoryError

    monkeypatch.setattr(_json_session, "encode_json", fail)
    with pytest.raises(MemoryError):
        await session.save_session_state("s", counter=Counter("new"))
    assert (folder / "s.json").read_bytes() == before
    assert files(folder) == ["s.json"]


async def test_an_unserializable_state_raises_type_error_and_writes_nothing(
    session: JSONSession, folder: Path
) -> None:
    before = await saved_file(session, folder)
    with pytest.raises(TypeError):
        await session.save_session_state("s", counter=Counter(object()))
    assert (folder / "s.json").read_bytes() == before
    assert files(folder) == ["s.json"]


async def test_an_overtaken_save_does_not_overwrite_the_newer_one(
    session: JSONSession, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered, release = threading.Event(), threading.Event()
    real_encode = _json_session.encode_json

    def slow_for_first(data: Any) -> bytes:
        if data["counter"]["count"] == "first":
            entered.set()
            assert release.wait(timeout=30)
        return real_encode(data)

    monkeypatch.setattr(_json_session, "encode_json", slow_for_first)
    first = asyncio.create_task(session.save_session_state("s", counter=Counter("first")))
    assert await asyncio.to_thread(entered.wait, 30)
    await session.save_session_state("s", counter=Counter("second"))
    release.set()
    await first
    assert json.loads((folder / "s.json").read_text()) == {"counter": {"count": "second"}}


# -- event loop -------------------------------------------------------------------------


async def test_module_state_is_read_and_loaded_on_the_callers_thread(
    session: JSONSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    io_threads: list[int] = []
    real_write, real_decode = _json_session.atomic_write_bytes, _json_session.decode_json

    def write(path: str, data: bytes) -> None:
        io_threads.append(threading.get_ident())
        real_write(path, data)

    def decode(data: bytes) -> Any:
        io_threads.append(threading.get_ident())
        return real_decode(data)

    monkeypatch.setattr(_json_session, "atomic_write_bytes", write)
    monkeypatch.setattr(_json_session, "decode_json", decode)
    recorder = ThreadRecorder()
    await session.save_session_state("s", recorder=recorder)
    await session.load_session_state("s", recorder=recorder)
    loop_thread = threading.get_ident()
    assert recorder.threads == [loop_thread, loop_thread]
    assert len(io_threads) == 2 and loop_thread not in io_threads


@pytest.mark.parametrize("stage", ["write", "read"])
async def test_file_io_does_not_block_the_event_loop(
    session: JSONSession, monkeypatch: pytest.MonkeyPatch, stage: str
) -> None:
    await session.save_session_state("s", counter=Counter(1))
    entered, release = threading.Event(), threading.Event()

    def held(real: Any) -> Any:
        def wrapper(*args: Any) -> Any:
            entered.set()
            assert release.wait(timeout=30), "the event loop was blocked"
            return real(*args)

        return wrapper

    if stage == "write":
        monkeypatch.setattr(
            _json_session, "atomic_write_bytes", held(_json_session.atomic_write_bytes)
        )
        operation = session.save_session_state("s", counter=Counter(2))
    else:
        monkeypatch.setattr(_json_session, "decode_json", held(_json_session.decode_json))
        operation = session.load_session_state("s", counter=Counter())
    task = asyncio.create_task(operation)
    assert await asyncio.to_thread(entered.wait, 30)  # the loop runs while the I/O waits
    release.set()
    await task


# -- ids that would leave save_dir ------------------------------------------------------

BAD_SESSION_IDS = [
    "",
    "../escape",
    "a/b",
    "a\\b",
    "/etc/passwd",
    "C:evil",
    "c:\\x",
    "..",
    ".",
    "a\x00b",
]
BAD_USER_IDS = ["../u", "u/v", "..", "\\\\server\\share", "D:", "u\x00"]


@pytest.mark.parametrize("bad", BAD_SESSION_IDS)
async def test_session_ids_that_leave_save_dir_are_refused(
    session: JSONSession, tmp_path: Path, bad: str
) -> None:
    counter = ThreadRecorder()
    with pytest.raises(ValueError) as save_error:
        await session.save_session_state(bad, counter=counter)
    with pytest.raises(ValueError) as load_error:
        await session.load_session_state(bad, counter=counter)
    for info in (save_error, load_error):
        assert f"Invalid session_id {bad!r}" in str(info.value)
    assert counter.threads == []  # refused before touching the module
    assert files(tmp_path) == ["da-home"]


@pytest.mark.parametrize("bad", BAD_USER_IDS)
async def test_user_ids_that_leave_save_dir_are_refused(
    session: JSONSession, tmp_path: Path, bad: str
) -> None:
    with pytest.raises(ValueError, match=f"Invalid user_id {bad!r}".replace("\\", "\\\\")):
        await session.save_session_state("s", user_id=bad, counter=Counter())
    with pytest.raises(ValueError, match="Invalid user_id"):
        await session.load_session_state("s", user_id=bad, counter=Counter())
    assert files(tmp_path) == ["da-home"]


@pytest.mark.parametrize(
    "good", ["v1.2", "a..b", "...", "2025-01-01T10:00:00", "会话 1", ".hidden"]
)
async def test_unusual_but_safe_ids_work(session: JSONSession, folder: Path, good: str) -> None:
    await session.save_session_state(good, user_id=good, counter=Counter(good))
    counter = Counter()
    await session.load_session_state(good, user_id=good, counter=counter)
    assert counter.count == good
    assert files(folder) == [f"{good}_{good}.json"]


# -- files that cannot be loaded --------------------------------------------------------

BAD_FILES = [
    (b"", "it is empty"),
    (b" \n\t", "it is empty"),
    (b"{not json", "it is not valid JSON (Expecting property name"),
    (b'{"counter": {"count": 1}', "it is not valid JSON (Expecting ',' delimiter"),
    (b'{"counter": {"count": "\xff"}}', "it is not UTF-8 text"),
    (b"\xef\xbb\xbf{}", "it is not valid JSON (Unexpected UTF-8 BOM"),
    (b"[1, 2]", "its top level is a JSON array, not an object"),
    (b"null", "its top level is a JSON null, not an object"),
    (b'"text"', "its top level is a JSON string"),
    (b"42", "its top level is a JSON number"),
    (b'{"counter": [1]}', "the state of 'counter' is a JSON array, not an object"),
    (b'{"counter": true}', "the state of 'counter' is a JSON boolean, not an object"),
    (b"[" * 100_000, "its JSON nests too deeply"),
]


@pytest.mark.parametrize(("data", "reason"), BAD_FILES)
async def test_bad_files_raise_session_file_error_and_stay_untouched(
    session: JSONSession, folder: Path, data: bytes, reason: str
) -> None:
    put_file(folder, data)
    counter, agent = Counter("kept"), await assistant_with_history()
    agent_state = json.dumps(agent.state_dict())
    with pytest.raises(SessionFileError) as info:
        await session.load_session_state("s", agent=agent, counter=counter)
    path = os.path.join(str(folder), "s.json")
    assert info.value.path == path and info.value.reason.startswith(reason)
    assert str(info.value).startswith(f"Failed to load session state from file {path}: {reason}")
    assert isinstance(info.value, ValueError)
    assert (folder / "s.json").read_bytes() == data
    assert files(folder) == ["s.json"]
    assert counter.count == "kept" and json.dumps(agent.state_dict()) == agent_state


async def test_a_truncated_session_raises_session_file_error(
    session: JSONSession, folder: Path
) -> None:
    await session.save_session_state("s", agent=await assistant_with_history())
    whole = (folder / "s.json").read_bytes()
    for cut in (1, len(whole) // 3, len(whole) // 2, len(whole) - 1):
        (folder / "s.json").write_bytes(whole[:cut])
        agent = Assistant()
        with pytest.raises(SessionFileError, match="it is not valid JSON"):
            await session.load_session_state("s", agent=agent)
        assert (folder / "s.json").read_bytes() == whole[:cut]
        assert await agent.memory.size() == 0


@pytest.mark.parametrize(
    ("state", "cause", "detail"),
    [
        ({"memory": {"content": "oops"}}, ValueError, "The memory content must be a list"),
        ({"memory": {"content": [[{}, []]]}}, KeyError, "'name'"),
        ({"memory": {"content": [5]}}, ValueError, "Memory entry 0 must be"),
        ({"memory": {"_compressed_summary": "s"}}, KeyError, "Key 'content' not found"),
        (
            {"memory": [], "toolkit": {}, "name": "n", "_sys_prompt": ""},
            TypeError,
            "expects a dict",
        ),
    ],
)
async def test_a_state_the_module_rejects_names_the_module(
    session: JSONSession,
    folder: Path,
    state: dict[str, Any],
    cause: type[Exception],
    detail: str,
) -> None:
    full = {"toolkit": {"active_groups": []}, "name": "n", "_sys_prompt": "p", **state}
    data = json.dumps({"agent": full}).encode()
    put_file(folder, data)
    agent = await assistant_with_history()
    before = json.dumps(agent.state_dict())
    with pytest.raises(SessionFileError) as info:
        await session.load_session_state("s", agent=agent)
    assert "the state of 'agent' does not fit the module" in info.value.reason
    assert detail in info.value.reason
    assert type(info.value.__cause__) is cause
    assert (folder / "s.json").read_bytes() == data
    assert json.dumps(agent.state_dict()) == before  # validated before anything changed


async def test_a_folder_in_place_of_the_file_raises_session_file_error(
    session: JSONSession, folder: Path
) -> None:
    (folder / "s.json").mkdir(parents=True)
    with pytest.raises(SessionFileError, match="it cannot be read") as info:
        await session.load_session_state("s", counter=Counter())
    assert isinstance(info.value.__cause__, OSError)


async def test_later_modules_are_checked_before_earlier_ones_load(
    session: JSONSession, folder: Path
) -> None:
    put_file(folder, b'{"first": {"count": 1}, "second": "broken"}')
    first, second = Counter("old"), Counter("old")
    with pytest.raises(SessionFileError, match="the state of 'second'"):
        await session.load_session_state("s", first=first, second=second)
    assert first.count == "old"


def test_session_file_error_keeps_path_and_reason_and_pickles() -> None:
    error = SessionFileError("/x/s.json", "it is empty")
    assert (error.path, error.reason) == ("/x/s.json", "it is empty")
    assert str(error) == "Failed to load session state from file /x/s.json: it is empty"
    clone = pickle.loads(pickle.dumps(error))
    assert (type(clone), clone.path, clone.reason, str(clone)) == (
        SessionFileError,
        error.path,
        error.reason,
        str(error),
    )
