"""Names in each language: the words that introduce one, and common given names
(kernel/question_mask.py masks them before a question is stored).

A word after a cue ("my name is", «نام من», «زما نوم», a title such as "Mr", «حاجی», «ښاغلی»)
is masked, in any position; so is a given name of the lists anywhere in a message. A language
without its cues here would have its speakers' names stored as they typed them: that is why a
language added to ``LANGUAGES`` stops the import until it has them. Cues are written as people
type them (lower case; the mask reads them in any case), given names as people write them in
either script; the mask normalises both. Every message is read against every language's.

Standard library only: both runtimes import it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: Words that introduce a name (the next word is masked), then titles; in each language's
#: order of reading, a longer cue after a shorter one it starts with («زما نوم», «زما نوم دی»)
#: as the mask has always read them.
NAME_CUES: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "my name is", "my name's", "i am called", "named", "name is", "name:",
        "mr", "mrs", "ms", "miss", "dr", "engineer", "eng",
    ),
    DARI: (
        # Titles in Latin letters, Pashto's too.
        "haji", "hajji", "mullah", "mawlawi", "sayed", "sayyed", "agha",
        "نام من", "نامم", "اسم من", "اسمم", "بنام", "به نام",
        "آقای", "اقای", "خانم", "حاجی", "ملا", "مولوی", "سید", "انجنیر", "داکتر",
    ),
    PASHTO: (
        "زما نوم", "نوم مې", "زما نوم دی",
        "ښاغلی", "ښاغلې", "میرمن", "حاجي", "مولوي", "ډاکټر",
    ),
}  # fmt: skip


def _names(block: str) -> frozenset[str]:
    return frozenset(block.split())


#: Common Afghan given names, romanized as people type them and in Arabic script: Dari and
#: Pashto speakers give the same names. English has none of its own here: the people who write
#: English to this assistant are Afghans with these names; a language whose speakers have other
#: names lists them.
_AFGHAN_GIVEN_NAMES: Final = _names(
    """
    ahmad ahmed mohammad muhammad mohammed mohamad ali hassan hasan hussain hossain hussein
    abdul abdullah abdul rahman rahim karim mahmood mahmud omar umar hamid hameed farid
    fareed rashid rasheed wahid waheed zahir jawad javed javid naveed navid nasir naser
    sultan shah khan gul jan noor nur sayed qasim ismail yusuf yousuf idris zabihullah
    ahmadullah hekmat hikmat habib bilal bashir najib najibullah samiullah rahmatullah
    fatima fatema maryam mariam zahra zainab khadija aisha ayesha amina farida fariba
    shabana shukria malalai malala nadia nazia parwana roya sima soraya sadia marzia
    zarghona laila lailuma nargis frishta fereshta mursal mahbooba shakila
    احمد محمد علی حسن حسین عبدالله عبدالرحمن رحیم کریم محمود حامد فرید رشید وحید ظاهر
    جواد نوید ناصر سلطان قاسم اسماعیل یوسف ادریس ذبیح حکمت حبیب بلال بشیر
    نجیب نجیب‌الله سمیع‌الله رحمت‌الله فاطمه مریم زهرا زینب خدیجه عایشه آمنه امینه فریده فریبا
    شبانه شکریه ملالی ملاله نادیه نازیه پروانه رویا سیما ثریا سعدیه مرضیه زرغونه لیلا لیلما نرگس
    فرشته مرسل محبوبه شکیلا
    """
)
GIVEN_NAMES: Final[dict[str, frozenset[str]]] = {
    ENGLISH: frozenset(),
    DARI: _AFGHAN_GIVEN_NAMES,
    PASHTO: _AFGHAN_GIVEN_NAMES,
}

refuse_gaps(
    gaps(NAME_CUES, "kernel/lang/name_cues.py NAME_CUES")
    + gaps(GIVEN_NAMES, "kernel/lang/name_cues.py GIVEN_NAMES")
)
