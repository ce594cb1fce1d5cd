"""``python -m ggn``: the same as the ``ggn`` command."""

from ggn.cli import main

if __name__ == "__main__":
    main()
