"""One member's language: sentences, plurals, dates, durations and numbers."""

from __future__ import annotations

import gettext
from datetime import date, datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal, format_percent

from app.domain.messages import Text, Weekday, fill
from app.i18n.catalogs import (
    PSEUDO,
    SOURCE_LANGUAGE,
    PseudoTranslations,
    normalize,
    translations,
    wrap,
)

WHEN_PATTERN = "EEE dd MMM y, HH:mm"
DAY_PATTERN = "d MMM y"


class Translator:
    """Renders message ids in one language; call it like gettext with named values."""

    def __init__(self, language: str, tz: ZoneInfo) -> None:
        self.language = language
        self.tz = tz
        self.pseudo = language == PSEUDO
        self.locale = Locale.parse(SOURCE_LANGUAGE if self.pseudo else language)
        self._catalog: gettext.NullTranslations = (
            PseudoTranslations() if self.pseudo else translations(language)
        )

    def __call__(self, message: str, **params: Any) -> str:
        return fill(self._catalog.gettext(message), self._values(params))

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form of the sentence for ``n`` (Russian has three); ``{n}`` is filled in."""
        return fill(self._catalog.ngettext(singular, plural, n), self._values(params), n)

    def _values(self, params: dict[str, Any]) -> dict[str, Any]:
        """Values that are language too (a nested sentence, a day, a weekday) in this one."""
        return {name: self._value(value) for name, value in params.items()}

    def _value(self, value: Any) -> Any:
        if isinstance(value, Text):
            return self.text(value)
        if isinstance(value, Weekday):
            shown = self.locale.days["format"]["wide"][int(value)]
        elif isinstance(value, date) and not isinstance(value, datetime):
            shown = format_date(value, "long", locale=self.locale)
        else:
            return value
        return wrap(shown) if self.pseudo else shown

    def text(self, text: Text) -> str:
        if text.plural is not None and text.count is not None:
            return self.ngettext(text.msgid, text.plural, text.count, **text.params)
        return self(text.msgid, **text.params)

    # Numbers and dates in this language's conventions.
    def when(self, moment: datetime) -> str:
        local = moment.astimezone(self.tz)
        shown = f"{format_datetime(local, WHEN_PATTERN, locale=self.locale)} {local.tzname()}"
        return wrap(shown) if self.pseudo else shown

    def day(self, moment: datetime) -> str:
        """The calendar day of ``moment`` in this language, in the bot's zone: "1 Nov 2026"."""
        shown = format_date(moment.astimezone(self.tz), DAY_PATTERN, locale=self.locale)
        return wrap(shown) if self.pseudo else shown

    def number(self, value: float) -> str:
        return format_decimal(value, locale=self.locale)

    def percent(self, value: float) -> str:
        """``value`` in percent points (12.5 -> "12.5%"), one decimal."""
        return format_percent(value / 100, "#,##0.0%", locale=self.locale)

    def remaining(self, deadline: datetime, now: datetime) -> str:
        """How long until ``deadline``: "in 2 days 3 hours", at most two units."""
        tr = self  # the name the message extractor looks for
        seconds = int((deadline - now).total_seconds())
        if seconds <= 0:
            return tr("ended")
        days, rest = divmod(seconds, 86400)
        hours, rest = divmod(rest, 3600)
        minutes = rest // 60
        parts = []
        if days:
            parts.append(tr.ngettext("{n} day", "{n} days", days))
        if hours:
            parts.append(tr.ngettext("{n} hour", "{n} hours", hours))
        if not days and minutes:
            parts.append(tr.ngettext("{n} minute", "{n} minutes", minutes))
        if not parts:
            return tr("in less than a minute")
        return tr("in {duration}", duration=" ".join(parts[:2]))


@cache
def translator(language: str | None, tz: ZoneInfo) -> Translator:
    """The translator for a catalog name or IETF tag; unknown ones read English."""
    return Translator(normalize(language) or SOURCE_LANGUAGE, tz)
