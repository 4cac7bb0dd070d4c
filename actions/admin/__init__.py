"""The editors' admin HTTP API (aiohttp) and its token command line, ``python -m actions.admin``.

Imports nothing heavy here: the action server imports every module under ``actions/`` at
start-up, and only ``serve`` needs the web application.
"""
