"""What the python-chess scripts of tests/python share: failing with a message, and
collecting python-chess's warnings about the engine's output."""

import logging
import sys


class Warnings(logging.Handler):
    """Every warning python-chess logs (add it to the "chess.engine" logger)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def fail_on_warnings(warnings):
    """Fails, listing them, if python-chess logged any warning (see `Warnings`)."""
    if warnings.records:
        fail("python-chess warned:\n" + "\n".join(warnings.records))
