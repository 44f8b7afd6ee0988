"""``python -m arcstar``: the command line (see ``arcstar.cli``)."""

import sys

from .cli import main

sys.exit(main())
