"""Text that is shown to a member later, in the member's language.

The core never knows who reads a sentence. It names the sentence by its English source
(the gettext message id, with ``{named}`` placeholders) and hands over the values; a front
door renders it: the Telegram handlers in the member's language, the CLI and MCP server in
English. ``N_`` marks a literal for extraction without translating it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def N_(message: str) -> str:  # the gettext marker extractors look for
    return message


@dataclass(frozen=True)
class Text:
    """A message id and its values; ``plural`` (with ``count``) when the sentence counts."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def english(self) -> str:
        template = self.msgid
        if self.plural is not None and self.count is not None and self.count != 1:
            template = self.plural
        return fill(template, self.params, self.count)


class Weekday(int):
    """A day of the week (Monday is 0) as a value of a sentence: each language names it."""

    def __str__(self) -> str:
        return WEEKDAY_NAMES[self]


def english_value(value: Any) -> Any:
    """A value as the English text shows it: nested sentences and days rendered."""
    if isinstance(value, Text):
        return value.english()
    if isinstance(value, date) and not isinstance(value, datetime):
        return f"{value:%B} {value.day}, {value.year}"
    return value


def fill(template: str, params: dict[str, Any], count: int | None = None) -> str:
    """``template`` with its named placeholders filled; without values it is left as is."""
    if not params and count is None:
        return template
    values = {name: english_value(value) for name, value in params.items()}
    if count is not None:
        values.setdefault("n", count)
    return template.format(**values)
