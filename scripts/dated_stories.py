"""Write test stories whose expected dates are relative ("@+1": tomorrow in Kabul) as dated ones.

End-to-end test stories (``rasa test core --e2e``) compare each entity's value, and "tomorrow"
is a different ISO date every day. Stories under tests/followups/ write a date's expected value
as ``@+N`` (N days after today in Kabul), ``@friday`` (the next Friday, today included) or
``@MM-DD`` (that day this year); this writes copies
with the ISO dates of today into OUT, which `make test-followups` then runs. Standard library.
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.nlu.dates import today_in_kabul  # noqa: E402

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_RELATIVE = re.compile(r'"@(?:\+(\d+)|(\d{2})-(\d{2})|([a-z]+day))"')


def dated(text: str, today: date) -> str:
    """``text`` with every ``"@+N"``, ``"@friday"`` and ``"@MM-DD"`` replaced by its ISO date."""

    def iso(match: re.Match[str]) -> str:
        ahead, month, day, weekday = match.groups()
        if weekday is not None:
            ahead = str((_WEEKDAYS.index(weekday) - today.weekday()) % 7)
        if ahead is not None:
            return f'"{(today + timedelta(days=int(ahead))).isoformat()}"'
        return f'"{date(today.year, int(month), int(day)).isoformat()}"'

    return _RELATIVE.sub(iso, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="folder of story files with relative dates")
    parser.add_argument("out", type=Path, help="folder for the dated copies (replaced)")
    args = parser.parse_args(argv)
    today = today_in_kabul()
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.yml"):
        old.unlink()
    for story_file in sorted(args.source.glob("*.yml")):
        (args.out / story_file.name).write_text(
            dated(story_file.read_text("utf-8"), today), "utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
