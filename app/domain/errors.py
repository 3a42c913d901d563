"""Domain errors carry the sentence the user sees.

Every front door (Telegram, CLI, MCP) shows ``user_message`` as it is; the
error handler never shows a traceback or an internal detail to a user.
"""

from __future__ import annotations


class CoordBotError(Exception):
    """Base for errors whose message is safe and useful to show to a user."""

    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)
        self.user_message = user_message


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
