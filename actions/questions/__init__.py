"""What people ask and what the assistant could not answer: the editors' view of the question log
that the bot runtime's tracker store writes (``bot/question_log.py``)."""
