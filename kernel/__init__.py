"""What both runtimes share: Rasa's process (``bot/``) and the content runtime (``actions/``).

Language facts and the catalogue of sentences (``lang/``), the names one process sends another
(``contract.py``), the content database's tables (``contentdb/``), danger and urgency, case
hours and events, alert rates, settings' values, metrics, and the SMS rendering the console
previews. The standard library, SQLAlchemy and prometheus-client only: it imports neither
runtime, nor Rasa, Sanic, aiohttp or redis (pyproject.toml ``[tool.importlinter]``), so that the
content runtime can import all of it and never needs the bot runtime's packages.
"""
