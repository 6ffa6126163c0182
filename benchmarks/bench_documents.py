"""A 300-page PDF attached in the composer: extraction time and the GUI stall meanwhile.

The PDF is generated here (300 pages of ~3,000 characters, ``desktop_agent.testing.text_pdf``).
Measured: extraction with the app's reader (``pypdfium2``, via ``extract_document``) and, for
the choice of library, with pure-Python ``pypdf`` (a test dependency) when it is installed;
then the real :class:`Composer` attaches the file — its text is extracted in the worker thread
while a 5 ms heartbeat on the GUI thread records the gaps (target: no stall over 50 ms).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_documents.py``
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from _common import BenchmarkFailure, Heartbeat, Report, gap_summary, load_average, main_guard
from PySide6.QtCore import QCoreApplication, QElapsedTimer
from PySide6.QtWidgets import QApplication

from desktop_agent.app._documents import extract_document
from desktop_agent.testing import text_pdf
from desktop_agent.ui.composer import Composer

PAGES = 300
_LINE = "The quick brown fox jumps over the lazy dog; results in table {n} hold. "


def make_pdf(path: Path, pages: int = PAGES) -> None:
    """Write a ``pages``-page text PDF to ``path``."""
    body = [
        "\n".join(f"{p}.{n} " + _LINE.format(n=n)[: 60 + n % 20] for n in range(48))
        for p in range(pages)
    ]
    path.write_bytes(text_pdf(body))


def _pypdf_seconds(path: Path) -> float | None:
    try:
        import pypdf
    except ImportError:
        return None
    started = time.perf_counter()
    reader = pypdf.PdfReader(str(path))
    for page in reader.pages:
        page.extract_text()
    return time.perf_counter() - started


def _attach(app: QApplication, path: Path) -> tuple[float, list[float], str]:
    composer = Composer()
    composer.show()
    for _ in range(10):
        app.processEvents()
    heartbeat = Heartbeat()
    heartbeat.start()
    clock = QElapsedTimer()
    clock.start()
    composer.add_files([path])
    (chip,) = composer.document_chips()
    while chip.state == "reading":
        app.processEvents()
        if clock.elapsed() > 120_000:
            raise BenchmarkFailure("extraction did not finish within 120 s")
    seconds = clock.elapsed() / 1000
    for _ in range(5):  # a few more beats after the result is shown
        app.processEvents()
        time.sleep(0.005)
    gaps = heartbeat.stop()
    status = chip.status.text()
    composer.close()
    QCoreApplication.processEvents()
    if chip.state != "ready":
        raise BenchmarkFailure(f"the PDF was not attached: {chip.error}")
    return seconds, gaps, status


def run() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.pdf"
        make_pdf(path)
        size_mb = path.stat().st_size / 1e6
        started = time.perf_counter()
        doc = extract_document(path)
        pdfium_s = time.perf_counter() - started
        pypdf_s = _pypdf_seconds(path)
        seconds, gaps, status = _attach(app, path)
    p50, p99, worst = gap_summary(gaps)
    report = Report(f"documents: a {PAGES}-page PDF ({size_mb:.1f} MB, {len(doc.text):,} chars)")
    report.add("extract_document (pypdfium2)", f"{pdfium_s:.2f} s")
    if pypdf_s is not None:
        report.add("pypdf, for comparison", f"{pypdf_s:.2f} s")
    report.add("attached in the composer (worker thread)", f"{seconds:.2f} s")
    report.add("chip", status)
    report.add("GUI stall p50", f"{p50:.1f} ms")
    report.add("GUI stall p99", f"{p99:.1f} ms")
    report.add("GUI stall max", f"{worst:.1f} ms", "≤ 50 ms", worst <= 50)
    report.note(f"load average {load_average():.2f} (2 cores)")
    report.print()
    return 0


if __name__ == "__main__":
    main_guard(run)
