"""A keyring backend keeping passwords in a dict, for tests of the key store and of the
app using it (``keyring.set_keyring``; the ``memory_keyring`` fixture in conftest)."""

from __future__ import annotations

from keyring.backend import KeyringBackend


class MemoryKeyring(KeyringBackend):
    """A keyring that keeps passwords in a dict."""

    priority = 1
    name = "Test keyring"

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.passwords.pop((service, username), None)
