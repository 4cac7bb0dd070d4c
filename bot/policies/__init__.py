"""Rasa dialogue policies of the assistant (bot runtime only)."""
