"""Rumours people ask about ("is it true that…"), matched against the claims editors checked.

Standard library and ``kernel.lang`` only, so the action server needs nothing more to answer a
rumour. ``matching`` finds the checked claims nearest to a message, in any of the three
languages and either script; ``frames`` drops the words people wrap a rumour in (each
language's, kernel/lang/hearsay.py); ``kernel.lang.skeleton`` lets "tazkira" find «تذکره».
"""
