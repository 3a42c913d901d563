"""English: detection only; questions in English are read by ``app.core.ask.analysis``."""

from app.core.ask.cues import Cues

CUES = Cues(
    language="en",
    stemmer="english",
    stopwords=frozenset(
        """
        the a an of to in on at by for with about from is are was were be been do does did
        what which who whom whose where when why how many much any some all there this that
        these those it its they them we us our you your i me my he she his her have has had
        can could will would should and or but not no if than then so show list tell give
        proposals proposal polls poll votes vote open closed created week month year last next
        """.split()
    ),
)
