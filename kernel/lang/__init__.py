"""Language facts both runtimes share: codes, scripts, Arabic-script normalisation.

Standard library only: the action server imports this package without Rasa installed.
"""
