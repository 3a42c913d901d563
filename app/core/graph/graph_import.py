"""What valid input is (facts, limits, texts), and loading many facts fast.

Every front door stores facts through ``clean_fact``, so the same limits and
messages apply to /add_fact, `coordbot facts add` and `coordbot facts import`.

A bulk load is a pipeline: a worker process parses, validates, normalises, sorts
and packs the next batch while the database writes the current one
(app.persistence.repositories.fact_bulk).
"""

from __future__ import annotations

import asyncio
import gc
import math
import multiprocessing
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from typing import Any

from app.domain.errors import ValidationError
from app.domain.messages import N_
from app.nlp.key_terms import normalize
from app.nlp.lexical import lexical_text
from app.persistence.database import Database
from app.persistence.repositories.fact_bulk import BulkWriter, LoadRow, pack
from app.persistence.repositories.facts import NewFact

MAX_ENTITY = 300
MAX_PREDICATE = 100
MAX_REPORTED_ERRORS = 5
# Whole sentences for each named input, so each reads naturally once translated.
TOO_LONG = {
    "name": N_("The name is too long: at most {limit} characters."),
    "question": N_("The question is too long: at most {limit} characters."),
    "entity": N_("The entity is too long: at most {limit} characters."),
}
PART_EMPTY = {
    "subject": N_("The subject is empty. Write the fact as: Subject | predicate | Object"),
    "predicate": N_("The predicate is empty. Write the fact as: Subject | predicate | Object"),
    "object": N_("The object is empty. Write the fact as: Subject | predicate | Object"),
}
PART_TOO_LONG = {
    "subject": N_("The subject is too long: at most {limit} characters (got {length})."),
    "predicate": N_("The predicate is too long: at most {limit} characters (got {length})."),
    "object": N_("The object is too long: at most {limit} characters (got {length})."),
}


def bounded(value: Any, *, name: str, default: int, maximum: int) -> int:
    """An integer option: missing -> default, above the maximum -> the maximum (as the
    original tools clamped), below 1 -> an error."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(
            "'{name}' must be a whole number between 1 and {maximum}.", name=name, maximum=maximum
        )
    if value < 1:
        raise ValidationError(
            "'{name}' must be at least 1 (at most {maximum}).", name=name, maximum=maximum
        )
    return min(value, maximum)


def clean_text(value: Any, *, name: str, limit: int, empty: str) -> str:
    """A free-text input on one line: ``empty`` if blank, an error if over ``limit``."""
    text = " ".join(str(value or "").split())
    if not text:
        raise ValidationError(empty)
    if len(text) > limit:
        raise ValidationError(
            TOO_LONG.get(name, "The {name} is too long: at most {limit} characters."),
            name=name,
            limit=limit,
        )
    return text


def _clean_part(value: str, name: str, limit: int) -> str:
    text = " ".join(str(value).split())
    if not text:
        raise ValidationError(PART_EMPTY[name])
    if len(text) > limit:
        raise ValidationError(PART_TOO_LONG[name], limit=limit, length=len(text))
    return text


def parse_confidence(value: str | float | None) -> float:
    if value is None or value == "":
        return 1.0
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not 0.0 <= number <= 1.0:  # also rejects NaN
        raise ValidationError(
            "Confidence must be a number between 0 and 1, like 0.9 (got '{value}').", value=value
        )
    return number


def clean_fact(
    subject: str,
    predicate: str,
    obj: str,
    confidence: str | float | None = 1.0,
    source: str = "manual",
) -> NewFact:
    """A fact ready to store: parts trimmed, lengths and confidence checked."""
    return NewFact(
        _clean_part(subject, "subject", MAX_ENTITY),
        _clean_part(predicate, "predicate", MAX_PREDICATE),
        _clean_part(obj, "object", MAX_ENTITY),
        parse_confidence(confidence),
        source,
    )


def parse_tsv_line(line: str, source: str = "manual") -> NewFact | None:
    """``subject<TAB>predicate<TAB>object[<TAB>confidence]``; None for blank and # lines."""
    stripped = line.rstrip("\r\n")
    if not stripped.strip() or stripped.lstrip().startswith("#"):
        return None
    fields = stripped.split("\t")
    if len(fields) not in (3, 4):
        raise ValidationError(
            "expected 3 or 4 tab-separated fields (subject, predicate, object[, confidence]), "
            "got {count}",
            count=len(fields),
        )
    return clean_fact(*fields, source=source)  # type: ignore[misc]


@dataclass
class ImportReport:
    lines: int = 0  # read so far
    committed: int = 0  # of those, the lines whose facts are written (for progress)
    imported: int = 0  # facts written (a repeated triple counts once per batch)
    skipped: int = 0
    errors: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "lines": self.lines,
            "imported": self.imported,
            "skipped": self.skipped,
            "errors": list(self.errors),
        }


@dataclass
class Prepared:
    payloads: list[bytes]  # the unique rows in index order, packed for the writer
    count: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)


def _prepare(
    lines: list[str], first_line: int, source: str, dialect: str, language: str = "en"
) -> Prepared:
    """Lines as unique rows in index order, packed. Pure, so it can run in another process.

    Well-formed lines take an inlined path (a million lines make every call count);
    anything unusual goes through ``parse_tsv_line`` for the real message. Each row
    carries its lexical terms in ``language`` (BOT_LANGUAGE).
    """
    out = Prepared(payloads=[])
    rows: dict[tuple[str, str, str], LoadRow] = {}
    # A file has few distinct predicates and confidences: each is cleaned once.
    predicates: dict[str, tuple[str, str, str]] = {}
    confidences: dict[str, float] = {}
    names: dict[str, str] = {}  # a subject or object's lexical terms: names repeat
    for number, line in enumerate(lines, first_line):
        fields = line.rstrip("\r\n").split("\t")
        try:
            if len(fields) == 4:
                raw_s, raw_p, raw_o, raw_c = fields
                confidence = confidences.get(raw_c)
                if confidence is None:
                    confidence = float(raw_c) if raw_c.strip() else 1.0
                    if not 0.0 <= confidence <= 1.0:  # also NaN
                        raise ValueError
                    confidences[raw_c] = confidence
            elif len(fields) == 3:
                raw_s, raw_p, raw_o = fields
                confidence = 1.0
            else:
                raise ValueError
            predicate = predicates.get(raw_p)
            if predicate is None:
                p = " ".join(raw_p.split())
                if not p or len(p) > MAX_PREDICATE:
                    raise ValueError
                predicate = predicates[raw_p] = (p, normalize(p), lexical_text(p, language))
            s = " ".join(raw_s.split())
            o = " ".join(raw_o.split())
            if not (s and o and len(s) <= MAX_ENTITY and len(o) <= MAX_ENTITY):
                raise ValueError
        except ValueError:
            try:
                fact = parse_tsv_line(line, source)
            except ValidationError as exc:
                out.skipped += 1
                if len(out.errors) < MAX_REPORTED_ERRORS:
                    out.errors.append(f"line {number}: {exc.user_message}")
                continue
            if fact is None:
                continue
            s, o, confidence = fact.subject, fact.object, fact.confidence
            predicate = (
                fact.predicate,
                normalize(fact.predicate),
                lexical_text(fact.predicate, language),
            )
        p, pn, lp = predicate
        # Already single-spaced: normalize() is casefold() unless there are underscores
        # or accents to fold.
        sn = normalize(s) if "_" in s or not s.isascii() else s.casefold()
        on = normalize(o) if "_" in o or not o.isascii() else o.casefold()
        # fact_lexical(s, p, o), a part at a time (the predicate's is computed once).
        ls = names.get(s)
        if ls is None:
            ls = names[s] = lexical_text(s, language)
        lo = names.get(o)
        if lo is None:
            lo = names[o] = lexical_text(o, language)
        lexical = " ".join(t for t in (ls, lp, lo) if t)
        rows[sn, pn, on] = (s, p, o, sn, pn, on, confidence, source, lexical)
    out.count = len(rows)
    out.payloads = pack([rows[key] for key in sorted(rows)], dialect)
    return out


class _Preparer:
    """Hands out the next batch, prepared off the event loop.

    The first batch is prepared on a thread. Only when there is a second one does a
    worker process start (spawned: about a second): preparing on a thread would hold
    the GIL that sqlite3 and asyncpg need between rows, and the write of one batch
    and the preparation of the next would take turns instead of overlapping. The
    worker runs without the cyclic garbage collector: nothing it builds holds a cycle,
    and collections walking a batch's rows cost about as much as parsing them.
    """

    def __init__(
        self,
        lines: Iterable[str],
        size: int,
        source: str,
        dialect: str,
        report: ImportReport,
        language: str = "en",
    ) -> None:
        self.lines = iter(lines)
        self.language = language
        self.size = size
        self.source = source
        self.dialect = dialect
        self.report = report
        self.exhausted = False
        self.pool: ProcessPoolExecutor | None = None

    async def next(self) -> Prepared | None:
        if self.exhausted:
            return None
        chunk = list(islice(self.lines, self.size))
        self.exhausted = len(chunk) < self.size
        if not chunk:
            return None
        first = self.report.lines + 1
        self.report.lines += len(chunk)
        args = (chunk, first, self.source, self.dialect, self.language)
        if self.report.lines == len(chunk):
            prepared = await asyncio.to_thread(_prepare, *args)
        else:
            if self.pool is None:
                self.pool = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"), initializer=gc.disable
                )
            prepared = await asyncio.get_running_loop().run_in_executor(self.pool, _prepare, *args)
        self.report.skipped += prepared.skipped
        room = MAX_REPORTED_ERRORS - len(self.report.errors)
        self.report.errors += prepared.errors[: max(room, 0)]
        return prepared

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


async def import_lines(
    db: Database,
    lines: Iterable[str],
    now: datetime,
    *,
    source: str = "manual",
    batch_size: int | None = None,
    progress: Callable[[ImportReport], None] | None = None,
    language: str = "en",
) -> ImportReport:
    """Load TSV lines batch by batch (each batch its own transaction, on PostgreSQL
    two: see BulkWriter); bad lines are skipped and the first few reported, so one typo
    does not sink a million facts. The next batch is prepared while the current one is
    written.

    Default batches: 100,000 lines on SQLite (each commit rewrites every index page the
    batch touched, so fewer, bigger commits win), 50,000 on PostgreSQL (each half's
    staging table then stays well within the default 8 MB of temp_buffers). Facts are
    indexed by their lexical terms in ``language`` (BOT_LANGUAGE).
    """
    if batch_size is None:
        batch_size = 50_000 if db.dialect == "postgresql" else 100_000
    report = ImportReport()
    preparer = _Preparer(lines, batch_size, source, db.dialect, report, language)
    try:
        async with BulkWriter(db.engine, now) as writer:
            batch = await preparer.next()
            batch_end = report.lines
            while batch is not None:
                write = asyncio.ensure_future(_write(writer, batch))
                try:
                    upcoming = await preparer.next()
                finally:
                    report.imported += await write  # never leave the write running on its own
                report.committed = batch_end
                batch_end = report.lines
                if progress is not None:
                    progress(report)
                batch = upcoming
    finally:
        preparer.close()
    return report


async def _write(writer: BulkWriter, batch: Prepared) -> int:
    if batch.count:
        await writer.write(batch.payloads)
    return batch.count
