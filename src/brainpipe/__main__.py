"""``python -m brainpipe``: the ``brainpipe`` command (:mod:`brainpipe.cli`)."""

import sys

from .cli import main

sys.exit(main())
