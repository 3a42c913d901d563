"""English: detection only; questions in English are read by ``app.core.ask.analysis``,
whose word lists serve here as English's telling words."""

from app.core.ask.analysis import DOC_WORDS, PROPOSAL_WORDS, STATUS_PATTERNS, STOP_WORDS
from app.core.ask.cues import Cues

_STATUS = {status.value: pattern.pattern for pattern, status in STATUS_PATTERNS}

CUES = Cues(
    language="en",
    stopwords=frozenset(
        """
        the a an of to in on at by for with about from is are was were be been do does did
        what which who whom whose where when why how many much any some all there this that
        these those it its they them we us our you your i me my he she his her have has had
        can could will would should and or but not no if than then so show list tell give
        week month year last next
        """.split()
    ),
    proposal_words=PROPOSAL_WORDS.pattern,
    doc_words=DOC_WORDS.pattern,
    open=_STATUS["open"],
    closed=_STATUS["closed"],
    cancelled=_STATUS["cancelled"],
    filler=STOP_WORDS,
)
