"""The data fence: text written by community members reaches a model between two
marker lines it is told to read as data, never as instructions.

Runs of angle brackets are what the fence is made of; fenced text keeps its words but
loses the brackets, so "DATA>>>" inside a proposal title or a submission is just text
and no line can close the fence and speak as an instruction.
"""

from __future__ import annotations

import re

FENCE_OPEN = "<<<DATA"
FENCE_CLOSE = "DATA>>>"
_OPEN_RUN = re.compile(r"<{3,}")
_CLOSE_RUN = re.compile(r">{3,}")


def defuse(text: str) -> str:
    """One line of text that cannot open or close the data fence."""
    text = " ".join(text.split())
    return _CLOSE_RUN.sub("»", _OPEN_RUN.sub("«", text))
