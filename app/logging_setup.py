"""Logging that cannot leak votes.

Some libraries log full payloads at DEBUG: aiosqlite every statement with its
parameters, PTB every Bot API call with message texts, httpx request bodies.
Those would carry vote choices and submission text, so their level is held at
INFO or above even when the operator asks for debug output.
"""

from __future__ import annotations

import logging
import sys

SENSITIVE_LOGGERS = {
    "aiosqlite": logging.WARNING,
    "telegram": logging.INFO,
    "telegram.ext": logging.INFO,
    "telegram.bot": logging.WARNING,
    "telegram.ext.ExtBot": logging.WARNING,
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "openai": logging.WARNING,
    "sqlalchemy.engine": logging.WARNING,
    "asyncpg": logging.WARNING,
}


def quiet_sensitive_loggers() -> None:
    for name, level in SENSITIVE_LOGGERS.items():
        logger = logging.getLogger(name)
        if logger.getEffectiveLevel() < level or logger.level < level:
            logger.setLevel(level)


def configure_logging(level: str | int = "INFO") -> None:
    logging.basicConfig(
        level=level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    quiet_sensitive_loggers()
