"""Webhooks answered at once, turns taken from a line: a surge costs people waiting, never lost
messages or a provider's retries.

Under a surge a webhook that waits for its turn waits too long for the provider: Twilio gives
up after 15 seconds, WhatsApp and Telegram send the message again and again. For the channels
whose replies go out through the provider's API (Telegram, WhatsApp, Twilio, SMS gateways, Kannel)
``WebhookInput.receive`` therefore authenticates, reads, parses and de-duplicates as before,
then puts each message in line (``Intake.put``) and answers 200 at once; workers (asyncio tasks
of the Rasa process, started with the server) take the turns from the line.

**Each person in order: partitions, not locks.** A conversation id always falls in the same
one of ``partitions`` lines (a hash of the id), and one worker at a time serves a line (it
holds the line's lease while it takes its messages), so a person's messages are answered one
after the other in the order they arrived, in this process and across processes. Locks per
conversation would need a fair lock across processes, which Redis has not: two workers holding
a person's first and second message race for it, and the second may win. The price of
partitions is that a slow turn delays the people behind it in its line; more lines than workers
(16 and 2 by default) keep that small, and a worker with nothing to do takes the next free line.

**Each person their share.** A person has at most ``INTAKE_IN_LINE_PER_PERSON`` messages (1)
in line at once; their later ones are parked and join the end of the line one by one, as
each earlier one is answered. A person who sends 600 messages in two seconds therefore holds
up the others of their line by one turn at a time, not by 600: everyone else's first message
goes before their second (a round robin of people, not of messages). Their own messages keep
their order.

**What jumps the line, and how often.** STOP, a withdrawal, "delete my data" and "safety"
(``about_safety``) go to the line's first part, read before anything else, always. Urgent
words and danger (``sounds_urgent``) go to its second part, read next, for a person's first
``INTAKE_JUMPS_PER_PERSON`` such messages (3) in ten minutes; later ones wait their turn like
any other. The urgent words are public: without that limit a flood of "my child is bleeding"
would put itself before every real one, and before other people's STOP (``LineShare``).

**The wait is said.** A message waiting longer than ``QUEUE_NOTICE_SECONDS`` gets one short
notice in the person's language (one language: ``notice_language``), at most once per ten
minutes per person, with about how many minutes are left, or "in a moment": the messages in
line before it over the pace every process answered at while there was work (``waits.py``,
sampled from the line's own count). In a surge most of those waiting are told, so the notices
stay cheap: the language is that of the person's last answer, kept with the turn's record (no
tracker read), and each check asks the memory only about people it has not seen told. A check
(once a second) looks ahead to the end of the next one: a notice goes when its message has
waited that long, not up to a second later, when its answer may already have gone out; a
notice whose answer went out first is not sent.

**Nothing lost, nothing answered twice.** A message leaves the line (``Line.ack``) only after
its turn's replies, or its apology, were handed to the provider; a worker that stops in the
middle leaves it with the line, and the next worker on that line takes it back first. The
turn's own record (``answered:`` in the channel memory, kept as soon as the provider took the
first reply) makes a message taken back after its answer went out only acknowledged, not
answered again; one taken back after its first reply only, from a turn that never ended (a
killed process), is not run again either (its actions would do their work twice), and its
person is told the answer may be incomplete; the process remembers its own turns' records too,
until their message left the line, for a Redis that cannot be reached between a reply and its
``XACK``; a message its webhook answered at once because its put timed out is recorded the same
way, in case the put reached the line after all; the providers' ids (``SeenMessages``) keep a
retry out of the line. A message whose turn raises (rather than ending in an answer or an
apology) is tried again, and on its third failure leaves the line with the apology, so that it
cannot hold the people behind it in silence. Replies the provider could not take for now (down,
overloaded) are kept with the message and handed over when it is back, before the message
leaves its line (``held_replies``): a provider's outage delays answers, it does not lose them.

**Where each part lives.**

- ``line.py``: a message as it waits (``Job``), the ``Line`` every kind of line answers to, and
  ``ProcessLine``, one process's line in memory (what the tests use);
- ``kept_line.py``: ``JournaledLine``, `make run`'s: the same line kept in a SQLite file, so
  that it outlives a restart;
- ``redis_line.py``: ``RedisLine``, the production profile's, in Redis Streams shared by every
  process;
- ``jumping.py``: what goes before the others (STOP, "delete my data", urgent words, danger);
- ``worker.py``: ``Intake``, the workers that lease a line, take a message, run its turn and
  acknowledge it, and the check that tells people of the wait; ``intake_for`` picks the line;
- ``ledger.py``: the record of each turn (under way, answered, the language it answered in),
  which keeps a message from being answered twice; the replies a provider could not take wait
  in ``bot/channels/held_replies.py``;
- ``notices.py``: the language and the pace the notice of the wait is said in
  (``bot/channels/waits.py``).
"""
