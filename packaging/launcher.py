"""The frozen app's entry script: the same ``main`` as ``desktop-agent`` and ``python -m``."""

import sys

from desktop_agent.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
