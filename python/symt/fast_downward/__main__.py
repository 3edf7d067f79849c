"""``python -m symt.fast_downward``: the ``fast-downward`` command, for where the console script
is not beside this Python (:func:`symt.fast_downward.fast_downward_command`)."""

import sys

from .wrapper import main

sys.exit(main())
