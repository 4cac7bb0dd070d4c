"""The content database as both runtimes see it: its shared tables, their column types and
status values, and the bot runtime's engines. Written for SQLAlchemy 1.4 (the bot runtime)
and 2.0 (the content runtime) alike, so the content runtime's models map onto these very
tables instead of describing them a second time."""
