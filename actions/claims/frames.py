"""The words people wrap a rumour in: "is it true that…", «شنیدم که…», «رښتیا ده چې…».

They say nothing about which rumour it is, and every question carries them, so they are
dropped from the message and from the claims' texts alike before matching: what is left is
the rumour itself. One list per way of writing; a message may mix them.
"""

from typing import Final

from bot.lang.normalise import normalise


def _listed(words: str) -> frozenset[str]:
    """The words as the normaliser leaves them («وايي» → «وایی»), as messages are compared."""
    return frozenset(normalise(words).split())


ENGLISH: Final = _listed(
    """is it this that true real correct right confirmed fake false rumour rumor rumours lie
    genuine legit so or not just gossip i heard have has said says say saying told me someone
    somebody anyone people they everyone my please pls can you check verify fact tell if a the
    should believe sounds like any truth there news message post video saw got"""
)

#: English grammar words: "flights from mazar for anyone with a visa" is about flights, Mazar,
#: anyone and visas. Without them a rumour told in a long English sentence comes as close to
#: its claim as a short Dari one does. Words that are also romanized Dari or Pashto ("did"
#: saw, "are" yes) are kept.
ENGLISH_GRAMMAR: Final = _listed(
    """with from for of and at by will would does was were been an their them his her its
    our we your into about then than also"""
)

#: Dari in Arabic script, after the normaliser (ي → ی, ZWNJ → space: «می گویند»).
DARI: Final = _listed(
    """راست راسته است اس که آیا ایا این آن درست دروغ شنیدم شنیدیم شنیده گفت گفتند می گویند
    میگن میگه مردم یک یکی نفر کسی به من واقعا واقعاً حقیقت دارد شایعه افواه گپ خبر
    پیام یا نه فقط تایید شده چک کن کنم بررسی برایم باور اعتبار همین طور"""
)

#: Pashto in Arabic script.
PASHTO: Final = _listed(
    """رښتیا ده دی دي چې که ایا دا هغه سمه سم دروغ اورېدلي اورېدل واورېدل مې ما وویل وايي
    خلک یو چا راته حقیقت لري اوازه افواه خبره خبر پیغام یوازې نه تایید شوې کړې چک کړه
    وڅېړه باور وکړم همداسې"""
)

#: Dari and Pashto in Latin letters, as people type them in chat.
LATIN: Final = _listed(
    """rast raste ast as ke ki aya ee in durust dorost dorogh darogh shunidam shenidam
    shunidem goft megan megya mardom yak yaki nafar kasi ba man waqean wagean haqiqat
    dara shaya afwah gap khabar payam ya ne na faqat taeed shoda check ko kon konom bawar
    etebar hamitor reshtia rishtia rekhtia rekhtya da dai di che ka hagha sama sam awredali
    awredale wawredal me ma wewayal wai khalk yaw cha rata lari awaza khabara paygham
    yawaze tayid shawe kari kra wokhera wokram hamdase"""
)

#: Dari and Pashto grammar words, both scripts: «را» «از» «د» «په», "ra", "az", "pa". Like
#: English grammar they say nothing about which rumour it is, and a short one matches any
#: text that has it.
GRAMMAR: Final = _listed(
    """را از و در بر برای بری هم تا د په ته له سره کې او لپاره تر
    ra az wa aw pa ta la sara ye baraye baray bari lapara ham"""
)

WORDS: Final = ENGLISH | ENGLISH_GRAMMAR | DARI | PASHTO | LATIN | GRAMMAR
WITHOUT_GRAMMAR: Final = WORDS - GRAMMAR

#: The words that say a message passes on what someone else said: "I heard", "they say", "is
#: it true", «میگن», «شنیدم», «وايي», «رښتیا», "megan", "awredali". People rarely wrap their own
#: everyday question in them, so such a message is taken as a rumour even when an everyday
#: question comes nearly as close (``matching.Guard``).
HEARSAY: Final = _listed(
    """heard hear true real fake rumour rumor rumours lie legit says say saying said told
    شنیدم شنیدیم شنیده میگن میگه گویند گفتند راست راسته شایعه افواه دروغ
    اورېدلي اورېدل واورېدل وايي وویل رښتیا اوازه
    shunidam shenidam shunidem megan megya goft rast raste dorogh darogh shaya shaiya afwah
    reshtia rishtia rekhtia rekhtya awredali awredale wawredal wai wayi awaza"""
)


def without_frame(words: list[str], *, grammar: bool = True) -> list[str]:
    """The message's words without the frame (and without the grammar words unless
    ``grammar`` is false); all of them if nothing else is left."""
    dropped = WORDS if grammar else WITHOUT_GRAMMAR
    kept = [word for word in words if word not in dropped]
    return kept or words


def is_hearsay(words: list[str]) -> bool:
    """Whether the (normalised) words pass on something heard: "I heard", «میگن», "wai"."""
    return not HEARSAY.isdisjoint(words)
