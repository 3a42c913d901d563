"""Text out of the files people upload: plain text, Markdown and PDF."""

from __future__ import annotations

import io
from pathlib import PurePath

from app.domain.errors import ValidationError

TEXT_SUFFIXES = {".txt", ".md", ".markdown"}
ACCEPTED = ".txt, .md or .pdf"
MAX_FILE_BYTES = 5 * 1024 * 1024


def extract_text(filename: str, data: bytes) -> str:
    """The text of ``data``; a ValidationError says what to send instead."""
    suffix = PurePath(filename).suffix.lower()
    if len(data) > MAX_FILE_BYTES:
        raise ValidationError("That file is larger than 5 MB. Please send a smaller one.")
    if suffix in TEXT_SUFFIXES:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ValidationError(
                f"'{filename}' is not UTF-8 text. Please save it as UTF-8 and send it again."
            ) from exc
    elif suffix == ".pdf":
        text = _pdf_text(filename, data)
    else:
        raise ValidationError(f"I can read {ACCEPTED} files; '{filename}' is not one of them.")
    if not text.strip():
        raise ValidationError(f"'{filename}' has no text I can read.")
    return text


def _pdf_text(filename: str, data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise ValidationError(f"'{filename}' is not a PDF I can read.") from exc
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text:
        raise ValidationError(
            f"'{filename}' has no text layer (it may be scanned images). Please send the text."
        )
    return text
