"""``python -m leash_tui`` runs the ``leash`` command (used by tests and in checkouts)."""

from leash_tui.cli import main

if __name__ == "__main__":
    main()
