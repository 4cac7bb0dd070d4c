"""Every table of the content database, whichever package keeps it: the content, the cases,
the questions and the alerts. Content does not import the alert system, so its models alone
are not the whole schema; the migrations and the checks that compare them with the models
read this one."""

from __future__ import annotations

from sqlalchemy import MetaData

import actions.alerts.models  # noqa: F401  (its tables join the metadata when imported)
from actions.content.models import Base

metadata: MetaData = Base.metadata
