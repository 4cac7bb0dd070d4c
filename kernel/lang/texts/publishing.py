"""What publishing says when a change would make the published facts contradict each other,
and the one text it writes itself: the note of a gate closed with its airport.

The command line and the admin API say these in English, the console in its interface
language; ``{how}`` is how that door says "do it anyway" (``--close-gates``,
``"close_gates": true``, a checkbox's label), so the sentence is the same everywhere.
Dari as written in Afghanistan (میدان هوایی), Pashto as Pashto (هوايي ډګر, دروازه: بنده).
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry

TEXTS: Final[dict[str, Entry]] = {
    #: A closed airport whose gates still say open: people would read both.
    "gates_open": {
        "en": "Closing {airport} would leave gates that still say open: {gates}. Close them "
        "too ({how}), or publish them closed first.",
        "prs": "اگر {airport} بسته شود، این دروازه‌ها هنوز باز نشان داده می‌شوند: {gates}. "
        "آن‌ها را هم ببندید ({how})، یا اول آن‌ها را بسته نشر کنید.",
        "ps": "که {airport} بند شي، دا دروازې به لا خلاصې ښکاري: {gates}. هغه هم وتړئ "
        "({how})، یا لومړی یې تړلې خپرې کړئ.",
    },
    #: A gate opened (or put back open) while its airport is closed.
    "gate_at_closed_airport": {
        "en": "{airport} is closed, so {gate} cannot be open: reopen the airport first, then "
        "the gate.",
        "prs": "{airport} بسته است، پس {gate} باز بوده نمی‌تواند: اول میدان هوایی را باز کنید، "
        "بعد دروازه را.",
        "ps": "{airport} بند دی، نو {gate} خلاصه کېدای نه شي: لومړی هوايي ډګر خلاص کړئ، بیا "
        "دروازه.",
    },
    #: The state changed but a text in some language did not: it may say the opposite now.
    "unchanged_text": {
        "en": "The {state} changed from {before} to {after}, but the {text} in {languages} did "
        "not: it may still say the opposite. Write it for the new {state}, or confirm that it "
        "still holds ({how}).",
        "prs": "{state} از {before} به {after} تغییر کرد، ولی {text} به {languages} تغییر "
        "نکرد: شاید هنوز برعکس آن را بگوید. آن را برای {state} جدید بنویسید، یا تایید کنید که "
        "هنوز درست است ({how}).",
        "ps": "{state} له {before} څخه {after} ته بدل شو، خو {text} په {languages} بدل نه شو: "
        "ښايي لا هم برعکس ووايي. د نوي {state} لپاره یې ولیکئ، یا تایید کړئ چې لا سم دی "
        "({how}).",
    },
    #: The note a gate gets when an editor closes it together with its airport.
    "closed_with_airport": {
        "en": "The airport is closed.",
        "prs": "میدان هوایی بسته است.",
        "ps": "هوايي ډګر بند دی.",
    },
}
