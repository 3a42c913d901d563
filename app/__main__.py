"""`python -m app` is `coordbot`."""

import sys

from app.cli import main

sys.exit(main())
