"""Command-line interface (placeholder)."""


def console_main() -> None:
    """Entry point of the ``parbleu`` command."""
    raise SystemExit("not implemented yet")
