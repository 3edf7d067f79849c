"""``python -m symt.cli``: the ``symt`` command, for where the console script is not on the path."""

import sys

from . import main

sys.exit(main())
