"""``python -m api.cli``: the same as ``triform``."""

import sys

from .main import main

sys.exit(main())
