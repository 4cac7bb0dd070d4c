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


#: Not "everyone", "anyone" or "any": "Canada takes everyone" is about everyone, as «کانادا
#: همه را می‌برد» and «کاناډا ټول خلک وړي» are (``senses``).
ENGLISH: Final = _listed(
    """is it this that true real correct right confirmed fake false rumour rumor rumours lie
    genuine legit so or not just gossip i heard have has said says say saying told me someone
    somebody people they my please pls can you check verify fact tell if a the
    should believe sounds like truth there news message post video saw got"""
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
    """rast raste rasta ast as ke ki aya ee in durust dorost durusta dorosta dorogh darogh
    shunidam shenidam shenidom shunidem goft megan megya mardom yak yaki nafar kasi ba man
    waqean wagean haqiqat dara shaya afwah gap khabar payam ya ne na faqat taeed shoda check
    ko kon konom bawar etebar hamitor reshtia rishtia rishtya ryshtia reshtya rekhtia
    rekhtya da dai di che ka hagha sama sam awredali awredale wawredal me ma wewayal wai
    khalk khalak yaw cha rata lari awaza khabara paygham yawaze tayid shawe kari kra
    wokhera wokram hamdase"""
)

#: What a forwarded chain letter wraps its rumour in: "URGENT", "forward", "share", «فوری»,
#: «شریک کنید», «ولېږئ», "rawan konen". Like the frame, it says nothing about which rumour it
#: is, and a long appeal to pass it on would make a chain letter far from its own claim.
CHAIN: Final = _listed(
    """urgent breaking important forward forwarded share send fast groups
    فوری مهم شریک کنید کنین روان بفرستید زود گروپ
    بیړني بیړنی شریک کړئ ولېږئ واستوئ ژر ګروپونو
    fawri muhim share konen konin rawan befresten zod beranai beranay krai wolegai wastawai
    zhar"""
)

#: Dari and Pashto grammar words, both scripts: «را» «از» «د» «په», "ra", "az", "pa", as
#: spoken too («ره», «ده», "bara", "o"), and the plural «ها» the normaliser parts from its word
#: at the joiner («دروازه‌ها» → «دروازه ها»). Like English grammar they say nothing about which
#: rumour it is, and a short one matches any text that has it.
GRAMMAR: Final = _listed(
    """را ره از و در ده بر برای بری هم تا د په ته له سره کې کی او لپاره تر ها های هایی
    یې به خو نو
    ra az wa o aw pa ta la sara ye baraye baray bari bara bare lapara ham hum ha haye hay
    de ba kho no"""
)

WORDS: Final = ENGLISH | ENGLISH_GRAMMAR | DARI | PASHTO | LATIN | CHAIN | GRAMMAR
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
