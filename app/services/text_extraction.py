"""Text out of the files people upload or import: plain text, Markdown and PDF."""

from __future__ import annotations

import io
import logging
from pathlib import PurePath

from app.domain.errors import ValidationError

logger = logging.getLogger(__name__)

TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown"})
SUFFIXES = TEXT_SUFFIXES | {".pdf"}
ACCEPTED = ".txt, .md or .pdf file"
MAX_FILE_BYTES = 5 * 1024 * 1024


def extract_text(filename: str, data: bytes) -> str:
    """The text of ``data``; a ValidationError says what to send instead. Blocking (PDF)."""
    name = PurePath(filename).name or "the file"
    suffix = PurePath(filename).suffix.lower()
    if suffix not in SUFFIXES:
        if suffix:
            raise ValidationError(
                "I can't read {suffix} files. Send a .txt, .md or .pdf file, or paste the text.",
                suffix=suffix,
            )
        raise ValidationError(
            "I can't read this kind of file. Send a .txt, .md or .pdf file, or paste the text."
        )
    if len(data) > MAX_FILE_BYTES:
        raise ValidationError(
            "'{name}' is {size} MB; files can be up to 5 MB. "
            "Split it into several documents, or paste the text.",
            name=name,
            size=f"{len(data) / 2**20:.1f}",
        )
    text = _pdf_text(data, name) if suffix == ".pdf" else _utf8(data, name)
    if not text.strip():
        raise ValidationError("'{name}' is empty.", name=name)
    return text


def _utf8(data: bytes, name: str) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(
            "'{name}' is not UTF-8 text. Save it with the UTF-8 encoding (most editors "
            "offer it under “Save as”) and send it again, or paste the text.",
            name=name,
        ) from None
    if "\x00" in text:
        raise ValidationError("'{name}' looks like a binary file, not text.", name=name)
    return text


def _pdf_text(data: bytes, name: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError

    try:
        pages = [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]
    except FileNotDecryptedError:
        raise ValidationError(
            "'{name}' is password-protected. Send an unprotected copy, or paste the text.",
            name=name,
        ) from None
    except Exception:  # a damaged or unusual file: pypdf raises many kinds of error
        logger.info("could not read a PDF", exc_info=True)
        raise ValidationError(
            "I couldn't read '{name}' as a PDF. Send it as .txt or .md, or paste the text.",
            name=name,
        ) from None
    text = "\n\n".join(p.strip() for p in pages if p.strip()).replace("\x00", "")
    if not text:
        raise ValidationError(
            "I found no text in '{name}': it may be scanned pages (pictures). "
            "Send a PDF with selectable text, or paste the text.",
            name=name,
        )
    return text
