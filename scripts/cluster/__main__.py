"""`python -m scripts.cluster` (scripts/cluster/run.py)."""

import sys

from scripts.cluster.run import main

sys.exit(main())
