"""The editors' command line, ``python -m actions.content``; one module per group of commands.

Each module's ``register`` adds its subcommands; a command returns the text to print on
success and raises on failure (``main.py`` turns errors into one message and exit status 1).
"""
