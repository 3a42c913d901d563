"""Domain errors carry the sentence the user sees, as a message id and its values.

The message id is the English sentence with ``{named}`` placeholders. ``user_message`` is
that sentence filled in, in English, for the CLI and MCP server; the Telegram error handler
renders ``text`` in the member's language instead. No front door ever shows a traceback or
an internal detail to a user.
"""

from __future__ import annotations

from typing import Any

from app.domain.messages import Text


class CoordBotError(Exception):
    """Base for errors whose message is safe and useful to show to a user."""

    def __init__(self, message: str, **params: Any) -> None:
        self.text = Text(message, params)
        self.user_message = self.text.english()
        super().__init__(self.user_message)


class ValidationError(CoordBotError):
    """Input that breaks a rule; the message says which rule and how to fix it."""


class NotFoundError(CoordBotError):
    """The thing asked for does not exist."""


class PermissionDeniedError(CoordBotError):
    """The user may not do this (proposer-only, admin-only)."""


class ConflictError(CoordBotError):
    """The action no longer applies (proposal closed, already voted, ...)."""


class DateParseError(ValidationError):
    """A date or duration phrase could not be read."""
