"""Documents as attachments: text extraction of each type, limits, bad files (no Qt)."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import docx
import pypdf
import pytest

from desktop_agent.app import _documents as documents
from desktop_agent.app._documents import (
    DocumentError,
    ExtractionCancelled,
    budget_warning,
    document_kind,
    extract_document,
    parse_document_part,
)
from desktop_agent.testing import text_pdf


def _write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "data", "media_type", "expected"),
    [
        ("notes.txt", "plain words\nsecond line", "text/plain", "plain words\nsecond line"),
        ("main.py", "def f():\n    return 1\n", "text/plain", "def f():\n    return 1"),
        ("README.md", "# Title\n\n- item", "text/markdown", "# Title\n\n- item"),
        ("table.csv", "a,b\n1,2\n", "text/csv", "a,b\n1,2"),
        ("data.json", json.dumps({"k": [1, 2]}), "application/json", '{"k": [1, 2]}'),
        ("latin1.txt", "café".encode("cp1252"), "text/plain", "café"),
    ],
)
def test_text_documents_are_sent_as_a_delimited_part(
    tmp_path: Path, name: str, data: str | bytes, media_type: str, expected: str
) -> None:
    doc = extract_document(_write(tmp_path, name, data))
    assert doc.kind == "text" and doc.media_type == media_type
    assert doc.text.strip() == expected
    part = doc.part()
    assert part.startswith(f'<document name="{name}" type="{media_type}" size="')
    assert part.endswith(f"{doc.text}\n</document>")
    parsed = parse_document_part(part)
    assert parsed is not None and parsed.name == name and parsed.text == doc.text
    assert doc.tokens > 0


def test_a_pdf_gives_its_text_page_by_page(tmp_path: Path) -> None:
    path = _write(tmp_path, "paper.pdf", text_pdf(["Abstract (short)", "Results here"]))
    doc = extract_document(path)
    assert (doc.kind, doc.pages, doc.media_type) == ("pdf", 2, "application/pdf")
    assert doc.text == "[page 1]\nAbstract (short)\n\n[page 2]\nResults here"
    assert 'pages="2"' in doc.part().splitlines()[0]


def test_a_word_document_gives_headings_paragraphs_lists_and_tables(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Report", 1)
    document.add_paragraph("First paragraph.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "name", "value"
    table.cell(1, 0).text, table.cell(1, 1).text = "x", "1"
    document.add_paragraph("A point", style="List Bullet")
    path = tmp_path / "report.docx"
    document.save(str(path))
    doc = extract_document(path)
    assert doc.kind == "docx"
    assert doc.text == "# Report\nFirst paragraph.\n| name | value |\n| x | 1 |\n- A point"


def test_a_document_name_with_quotes_round_trips(tmp_path: Path) -> None:
    doc = extract_document(_write(tmp_path, 'a "b" <c>.txt', "</document> inside"))
    parsed = parse_document_part(doc.part())
    assert parsed is not None
    assert parsed.name == 'a "b" <c>.txt' and parsed.text == "</document> inside"
    assert doc.part().count("</document>") == 1


def test_an_encrypted_pdf_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(text_pdf(["secret"]))))
    writer.encrypt("pw", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(DocumentError, match="encrypted"):
        extract_document(_write(tmp_path, "locked.pdf", out.getvalue()))


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("broken.pdf", b"%PDF-1.4\nthis is not really a pdf", "not a readable PDF"),
        ("broken.docx", b"PK\x03\x04 truncated zip", "not a readable Word document"),
        ("locked.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512, "encrypted"),
        ("scan.pdf", text_pdf([""]), "no text to extract"),
        ("binary.txt", b"abc\0\0\0def", "not a text file"),
        ("blob.bin", b"\0\1\2\3", "not a text, PDF or Word document"),
    ],
)
def test_bad_files_give_a_clear_error(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    with pytest.raises(DocumentError, match=message):
        extract_document(_write(tmp_path, name, data))


def test_huge_files_are_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(documents, "MAX_DOCUMENT_BYTES", 1000)
    with pytest.raises(DocumentError, match="not attached"):
        extract_document(_write(tmp_path, "big.txt", "x" * 2000))


def test_too_long_text_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(documents, "MAX_DOCUMENT_TOKENS", 100)
    with pytest.raises(DocumentError, match="too long"):
        extract_document(_write(tmp_path, "long.md", "word " * 200))
    pages = ["line of text " * 20] * 50
    with pytest.raises(DocumentError, match="too long"):
        extract_document(_write(tmp_path, "long.pdf", text_pdf(pages)))


def test_extraction_can_be_cancelled(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(ExtractionCancelled):
        extract_document(_write(tmp_path, "doc.pdf", text_pdf(["a", "b"])), cancel)


def test_document_kind_by_name_and_content(tmp_path: Path) -> None:
    assert document_kind(tmp_path / "x.PDF") == "pdf"
    assert document_kind(tmp_path / "x.docx") == "docx"
    assert document_kind(_write(tmp_path, "noext", "hello")) == "text"
    assert document_kind(_write(tmp_path, "pdf_without_suffix", text_pdf(["a"]))) == "pdf"
    assert document_kind(_write(tmp_path, "img.raw", b"\x89PNG\0\0")) is None


def test_the_budget_warns_when_documents_would_not_fit_the_context() -> None:
    assert budget_warning(10_000, 128_000) == ""
    warning = budget_warning(120_000, 128_000)
    assert "120,000 tokens" in warning and "128,000" in warning


def test_ordinary_text_is_not_a_document_part() -> None:
    assert parse_document_part("hello") is None
    assert parse_document_part('<document name="x" type="t" size="1 B">\nno end') is None
