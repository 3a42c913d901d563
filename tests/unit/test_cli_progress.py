"""`coordbot facts import`'s progress line, as a terminal shows it."""

from __future__ import annotations

import io

from app.cli.facts import Progress
from app.core.graph.graph_import import ImportReport


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_import_and_the_indexing_redraw_one_line() -> None:
    screen = Terminal()
    progress = Progress(100, screen)
    progress.done = 42
    progress.draw(ImportReport(committed=1234, skipped=5))
    progress.indexed(10, 40)
    progress.finish()
    assert screen.getvalue() == (
        "\rimporting facts [############                  ]  42%  1,234 lines, 5 skipped"
        "\rindexing facts  [#######                       ]  25%  10 of 40 facts\n"
    )
