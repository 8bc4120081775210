"""The ``tribune`` command line: one module per sub-command, wired together by :mod:`tribune_cli.main`."""
