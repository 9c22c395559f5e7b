"""``python -m defuser`` and the ``mittens`` script: the command line, started so that a
Ctrl-C pressed while it is still loading ends it the documented way (one line,
``mittens: interrupted``, exit 130) rather than with a traceback."""

from defuser.terminal.startup import hold_interrupts


def run() -> None:
    """Start ``mittens``: hold Ctrl-C, load the command line, run it (which takes over
    Ctrl-C once its error boundary is in place)."""
    hold_interrupts()
    from defuser.cli import main

    main()


if __name__ == "__main__":
    run()
