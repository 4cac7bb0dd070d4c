"""The words that make a caseworker's case urgent, per language, Arabic script and romanized.

Danger to life or body, violence, a child, a medical emergency, and the words people use for
"urgent" itself. Read by kernel/case_urgency.py, which matches whole words after the project's
normaliser and after folding Pashto letters to what a Persian keyboard types instead (ټ → ت,
ړ → ر, ې → ی …), so each word is written here once, as Pashto writes it.

* ``words`` count as written or with one of the language's ``endings`` («طفلم», «ماشومان»,
  "injured"); a phrase counts when its words stand together, the last with an ending.
* ``exact`` count only as written: «خون» is blood but «خوندي» is safe, «لور» a daughter but
  «لوری» a side.
* ``calls`` and ``rings``: within two words after a word of ``calls``, a word that starts with
  one of ``rings`` is a phone call, not a blow (Pashto rings by "beating" a bell: «سفارت زنګ
  وهلی», "the embassy called"; «زنګ یې ووهلو», "he called").

Standard library only: both runtimes import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps


@dataclass(frozen=True)
class UrgentWords:
    """One language's urgent words (see the module docstring)."""

    words: tuple[str, ...]
    exact: tuple[str, ...]
    endings: tuple[str, ...]
    calls: tuple[str, ...] = ()
    rings: tuple[str, ...] = ()


URGENT_WORDS: Final[dict[str, UrgentWords]] = {
    ENGLISH: UrgentWords(
        words=(
            # medical
            "ambulance", "bleed", "blood", "doctor", "hospital", "injure", "injury", "wound",
            "hurt", "sick", "pregnant", "unconscious", "heart attack", "emergency", "urgent",
            "urgently", "dying", "die", "dead", "in labour", "in labor", "can't breathe",
            "cannot breathe", "not breathing", "collapse",
            # a child
            "child", "children", "baby", "babies", "kid", "son", "daughter", "minor", "infant",
            # violence, danger
            "beat", "beaten", "beat me", "attack", "shot", "shoot", "gunfire", "gunshot",
            "bullet", "violence", "threat", "threaten", "kill", "kidnap", "abduct", "rape",
            "gun", "armed", "in danger", "hiding", "looking for me", "followed by",
            "following me", "following us", "followed me", "followed us", "chasing", "arrest",
            "detain", "help now", "asap",
        ),
        exact=(),
        endings=("", "s", "es", "ed", "d", "ing", "ly"),
    ),
    DARI: UrgentWords(
        words=(
            # medical
            "زخمی", "زخم", "خونریزی", "خون میره", "خون می آید", "داکتر", "دکتر", "شفاخانه",
            "امبولانس", "مریض", "حامله", "بیهوش", "بی هوش", "زایمان", "سکته", "مرمی",
            "تیر خورده", "نفس کشیده نمیتواند", "میمیرد", "می میرد", "مرده",
            # a child
            "طفل", "اطفال", "اولاد", "بچه", "بچیم", "کودک", "دختر", "پسر", "نوزاد",
            # violence, danger, urgency
            "در خطر", "ده خطر", "خطر جانی", "عاجل", "فوری", "اضطراری", "تهدید", "حمله",
            "خشونت", "فیر", "اختطاف", "تجاوز", "لت و کوب", "کشتن", "میکشن", "می کشن",
            "بکشن", "کشته", "قتل", "دنبالم", "دنبال ما", "تعقیب", "بازداشت", "دستگیر",
            "زندان", "تفنگ", "نجات",
            # romanized
            "zakhmi", "zakhm", "khunrizi", "khun mera", "daktar", "doktar", "shifakhana",
            "ambulans", "mariz", "hamila", "behosh", "marmi", "tir khorda", "tifl", "atfal",
            "awlad", "bacha", "bachem", "kudak", "dokhtar", "dukhtar", "pesar", "pisar",
            "da khatar", "dar khatar", "fawri", "fori", "foran", "fauri", "ajel", "ezterari",
            "tahdid", "hamla", "khushunat", "lat o kob", "lat kadan", "lat kardan",
            "ekhtetaf", "tajawoz", "mekoshan", "mekushan", "koshta", "kushta", "donbalam",
            "dunbalam", "taqib", "najat", "fir kadan", "fir mekonan", "fir mekunan",
        ),
        exact=("خون", "لت", "khun", "lat", "fir"),
        endings=(
            "", "م", "ت", "ش", "ام", "ات", "اش", "مان", "تان", "شان", "ها", "های", "هایم",
            "ان", "ی", "یم", "یش", "یست", "ست",
            "i", "am", "em", "esh", "ash", "ha", "hayam", "an", "ast", "st",
        ),
    ),
    PASHTO: UrgentWords(
        words=(
            # medical
            "ټپي", "ټپیان", "زخمي", "وینه", "ډاکټر", "ډاکتر", "روغتون", "ناروغ", "امیندواره",
            "بلاربه", "بېهوښ", "امبولانس", "مرمۍ", "مړ شو", "مړه شوه", "ساه نه شي",
            # a child
            "ماشوم", "ماشومان", "کوچنی", "کوچنۍ", "زوی", "زامن", "لوڼې", "ماشومه",
            # violence, danger, urgency
            "په خطر", "خطر کې", "بیړنی", "بیړنۍ", "بیړني", "فوري", "ژر مرسته", "ژر راشئ",
            "ژر تر ژره", "ګواښ", "برید", "تاوتریخوالی", "ډزې", "تښتول", "وتښتول",
            "زورزیاتی", "ووهلم", "ووهلو", "ووهله", "ووهلې", "ووهل شوم", "وهي مې", "وژل",
            "ووژل", "وژني", "ووژني", "وژلی", "پسې ګرځي", "پسې دي", "پسې راغلي", "ونیول",
            "زندان", "ټوپک",
            # romanized
            "tapi", "tapian", "zakhmi", "wina", "daktar", "doktar", "roghtun", "narogh",
            "naroogh", "amindwara", "behokh", "ambulans", "marmai", "mashum", "mashuman",
            "kuchnai", "kuchnay", "zoy", "zamen", "pa khatar", "khatar ki", "khatar ke",
            "biranai", "beranai", "bairanai", "fawri", "fori", "zar mrasta", "zhar mrasta",
            "zar rasha", "zhar rasha", "gwash", "barid", "dze", "daze", "dazi", "tukhtawal",
            "wuwahalam", "wowahalam", "wahalam", "wazhni", "wazhne", "wojhni", "wazhal",
            "pase garzi", "pase di", "niwalai", "topak",
        ),
        exact=("لور", "مړ", "lur"),
        endings=(
            "", "ان", "انو", "ه", "و", "ی", "ونه", "ونو", "ګان", "ګانو",
            "an", "ano", "a", "e", "o", "i", "ona",
        ),
        calls=("زنګ", "zang", "telefon", "ټیلیفون"),
        rings=("وهل", "ووه", "وهي", "wahal", "wuwahal", "wowahal", "wahi"),
    ),
}  # fmt: skip

refuse_gaps(gaps(URGENT_WORDS, "kernel/lang/urgent_words.py URGENT_WORDS"))
