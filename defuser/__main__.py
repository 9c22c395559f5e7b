"""``python -m defuser`` runs the ``mittens`` command line."""

from defuser.cli import main

if __name__ == "__main__":
    main()
