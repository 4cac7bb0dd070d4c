"""Every table of the content database, whichever package keeps it: the content, the cases,
the questions, the alerts and the rumours people ask about. Each package's models join the one
metadata of ``kernel/contentdb/tables.py`` when imported; none imports another's to complete the
schema, so the migrations and the checks that compare them with the models read this one."""

from __future__ import annotations

from sqlalchemy import MetaData

import actions.alerts.models
import actions.cases.models
import actions.content.asks
import actions.content.models
import actions.questions.models
from kernel.contentdb import tables

#: The whole schema: the tables both runtimes use, and the content runtime's own.
metadata: MetaData = tables.metadata

#: The packages whose models make up ``metadata``.
MODELS = (
    actions.content.models,
    actions.alerts.models,
    actions.cases.models,
    actions.content.asks,
    actions.questions.models,
)
