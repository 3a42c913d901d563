"""The rules a proposal must satisfy, shared by the one-line and guided /propose."""

from __future__ import annotations

from datetime import datetime, timedelta

from app.domain.errors import ValidationError

MAX_TITLE = 200
MAX_DESCRIPTION = 3000
MAX_OPTION = 100
MIN_OPTIONS = 2
MAX_OPTIONS = 10
MAX_SUBMISSION = 2000
MAX_CONTEXT = 20000
MAX_AHEAD = timedelta(days=365)


def clean_title(value: str) -> str:
    title = " ".join(value.split())
    if not title:
        raise ValidationError("The title cannot be empty. Please send a short title.")
    if len(title) > MAX_TITLE:
        raise ValidationError(
            "The title is {length} characters long; the limit is {limit}. "
            "Please send a shorter title.",
            length=len(title),
            limit=MAX_TITLE,
        )
    return title


def clean_description(value: str) -> str:
    description = value.strip()
    if not description:
        raise ValidationError("The description cannot be empty. Please describe the proposal.")
    if len(description) > MAX_DESCRIPTION:
        raise ValidationError(
            "The description is {length} characters long; the limit is {limit}. Please shorten it.",
            length=len(description),
            limit=MAX_DESCRIPTION,
        )
    return description


def split_options(value: str) -> list[str]:
    """Options separated by commas, or one per line."""
    separator = "\n" if "\n" in value.strip() else ","
    return [" ".join(part.split()) for part in value.split(separator) if part.strip()]


def clean_options(options: list[str]) -> list[str]:
    cleaned = [" ".join(o.split()) for o in options if o.strip()]
    if len(cleaned) < MIN_OPTIONS:
        raise ValidationError(
            "A multiple-choice proposal needs at least {minimum} options, "
            "separated by commas (for example: Yes, No, Abstain).",
            minimum=MIN_OPTIONS,
        )
    if len(cleaned) > MAX_OPTIONS:
        raise ValidationError(
            "You gave {count} options; the limit is {limit}. Please combine some.",
            count=len(cleaned),
            limit=MAX_OPTIONS,
        )
    seen: set[str] = set()
    for option in cleaned:
        if len(option) > MAX_OPTION:
            raise ValidationError(
                "The option '{option}...' is too long; each option can have at most "
                "{limit} characters.",
                option=option[:30],
                limit=MAX_OPTION,
            )
        key = option.casefold()
        if key in seen:
            raise ValidationError(
                "The option '{option}' appears twice. Each option must be different.",
                option=option,
            )
        seen.add(key)
    return cleaned


def check_deadline(deadline: datetime, now: datetime) -> datetime:
    if deadline <= now:
        raise ValidationError(
            "That deadline is in the past. Please give a future time, like '3 days'."
        )
    if deadline - now > MAX_AHEAD:
        raise ValidationError(
            "That deadline is more than a year away. Please choose a deadline within 365 days."
        )
    return deadline


def clean_submission(value: str) -> str:
    text = value.strip()
    if not text:
        raise ValidationError("Your submission is empty. Please send your idea as text.")
    if len(text) > MAX_SUBMISSION:
        raise ValidationError(
            "Your submission is {length} characters long; the limit is {limit}. "
            "Please shorten it and send it again.",
            length=len(text),
            limit=MAX_SUBMISSION,
        )
    return text


def clean_context(value: str) -> str:
    text = value.strip()
    if len(text) > MAX_CONTEXT:
        raise ValidationError(
            "The context text is too long ({length} characters; the limit is {limit}).",
            length=len(text),
            limit=MAX_CONTEXT,
        )
    return text
