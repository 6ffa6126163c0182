"""Translation of user-visible text written outside the Qt layer.

The app layer (status lines, error bubbles, reports) cannot import Qt, yet its texts reach
the window. They go through :func:`translate`, which has Qt's signature and lupdate reads
like ``QCoreApplication.translate``; the window installs Qt's translator as the backend at
start (:func:`set_backend`). Until then, and in tests, the text comes back as written with
``%n`` replaced, as Qt does without a translation, and English plurals made from the
source's "(s)" ("%n model(s)": "1 model", "2 models"), so that the command line and tests
read as the English translation does.

Only text meant for the user is translated: strings the model reads (AgentScope's default
prompts, tool results) stay exactly as the reference gives them.
"""

from collections.abc import Callable

Backend = Callable[[str, str, str | None, int], str]


def _untranslated(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    del context, disambiguation
    if n < 0:
        return text
    return text.replace("(s)", "" if n == 1 else "s").replace("%n", str(n))


_backend: Backend = _untranslated


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """Return ``text`` in the user's language (``n`` picks a plural form and fills ``%n``)."""
    return _backend(context, text, disambiguation, n)


def set_backend(backend: Backend | None) -> None:
    """Translate through ``backend`` from now on (``None``: back to the untranslated text)."""
    global _backend
    _backend = backend if backend is not None else _untranslated


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for lupdate where it is defined (a table); translate it where shown.

    Named as Qt names it, because that name is what lupdate looks for.
    """
    del context
    return text
