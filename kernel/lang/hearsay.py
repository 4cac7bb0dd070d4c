"""The words people wrap a rumour in, per language: "is it true that…", «شنیدم که…», «رښتیا ده
چې…» (actions/claims/frames.py drops them before a rumour is matched).

Each language's words are in its script and as people type it in Latin letters. They say nothing
about which rumour it is, and every question carries them; a message may mix languages and
scripts, so the matcher reads it against every language's words. Words as people write them;
frames.py normalises them (kernel/lang/normalise.py: ي → ی, ZWNJ → space), as it does messages.

* ``FRAMES``: the frame itself ("is it true", «آیا راست است», «رښتیا ده»). English's grammar
  words ("with", "from") are part of it: without them a rumour told in a long English sentence
  comes as close to its claim as a short Dari one does.
* ``CHAIN``: what a forwarded chain letter wraps its rumour in ("URGENT", "forward", «شریک
  کنید», «ولېږئ», "rawan konen"): a long appeal to pass it on would make a chain letter far from
  its own claim.
* ``GRAMMAR``: grammar words («را» «از» «د» «په», "ra", "az", "pa"): a short one matches any
  text that has it. Those of English are in its frame; the matcher can keep the others
  (``without_frame(grammar=False)``), the step docs/BENCHMARKS.md measured them by.
* ``HEARSAY``: the words that say a message passes on what someone else said ("I heard",
  «میگن», «وايي», "megan", "awredali"). People rarely wrap their own everyday question in them,
  so such a message is taken as a rumour (actions/claims/matching.py ``Guard``).

Standard library only: both runtimes import it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps


def _words(block: str) -> tuple[str, ...]:
    return tuple(block.split())


#: Not "everyone", "anyone" or "any": "Canada takes everyone" is about everyone, as «کانادا
#: همه را می‌برد» and «کاناډا ټول خلک وړي» are (actions/claims/senses.py).
_ENGLISH_FRAME: Final = _words(
    """is it this that true real correct right confirmed fake false rumour rumor rumours lie
    genuine legit so or not just gossip i heard have has said says say saying told me someone
    somebody people they my please pls can you check verify fact tell if a the
    should believe sounds like truth there news message post video saw got"""
)
#: English grammar words: "flights from mazar for anyone with a visa" is about flights, Mazar,
#: anyone and visas. Words that are also romanized Dari or Pashto ("did" saw, "are" yes) are
#: kept.
_ENGLISH_GRAMMAR: Final = _words(
    """with from for of and at by will would does was were been an their them his her its
    our we your into about then than also"""
)

FRAMES: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: _ENGLISH_FRAME + _ENGLISH_GRAMMAR,
    DARI: _words(
        """راست راسته است اس که آیا ایا این آن درست دروغ شنیدم شنیدیم شنیده گفت گفتند می گویند
        میگن میگه مردم یک یکی نفر کسی به من واقعا واقعاً حقیقت دارد شایعه افواه گپ خبر
        پیام یا نه فقط تایید شده چک کن کنم بررسی برایم باور اعتبار همین طور
        rast raste rasta ast as ke ki aya ee in durust dorost durusta dorosta dorogh darogh
        shunidam shenidam shenidom shunidem goft megan megya mardom yak yaki nafar kasi ba man
        waqean wagean haqiqat dara shaya afwah gap khabar payam ya ne na faqat taeed shoda check
        ko kon konom bawar etebar hamitor"""
    ),
    PASHTO: _words(
        """رښتیا ده دی دي چې که ایا دا هغه سمه سم دروغ اورېدلي اورېدل واورېدل مې ما وویل وايي
        خلک یو چا راته حقیقت لري اوازه افواه خبره خبر پیغام یوازې نه تایید شوې کړې چک کړه
        وڅېړه باور وکړم همداسې
        reshtia rishtia rishtya ryshtia reshtya rekhtia rekhtya da dai di che ka hagha sama sam
        awredali awredale wawredal me ma wewayal wai khalk khalak yaw cha rata lari awaza
        khabara paygham yawaze tayid shawe kari kra wokhera wokram hamdase"""
    ),
}

CHAIN: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: _words("urgent breaking important forward forwarded share send fast groups"),
    DARI: _words(
        """فوری مهم شریک کنید کنین روان بفرستید زود گروپ
        fawri muhim share konen konin rawan befresten zod"""
    ),
    PASHTO: _words(
        """بیړني بیړنی شریک کړئ ولېږئ واستوئ ژر ګروپونو
        beranai beranay krai wolegai wastawai zhar"""
    ),
}

#: As spoken too («ره», «ده», "bara", "o"), and the plural «ها» the normaliser parts from its
#: word at the joiner («دروازه‌ها» → «دروازه ها»).
GRAMMAR: Final[dict[str, tuple[str, ...]]] = {
    # In its frame (``FRAMES``), dropped always.
    ENGLISH: (),
    DARI: _words(
        """را ره از و در ده بر برای بری هم تا ها های هایی به
        ra az wa o baraye baray bari bara bare ham hum ha haye hay ba"""
    ),
    PASHTO: _words(
        """د په ته له سره کې کی او لپاره تر یې خو نو
        aw pa ta la sara ye lapara de kho no"""
    ),
}

HEARSAY: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: _words(
        "heard hear true real fake rumour rumor rumours lie legit says say saying said told"
    ),
    DARI: _words(
        """شنیدم شنیدیم شنیده میگن میگه گویند گفتند راست راسته شایعه افواه دروغ
        shunidam shenidam shunidem megan megya goft rast raste dorogh darogh shaya shaiya afwah"""
    ),
    PASHTO: _words(
        """اورېدلي اورېدل واورېدل وايي وویل رښتیا اوازه
        reshtia rishtia rekhtia rekhtya awredali awredale wawredal wai wayi awaza"""
    ),
}

refuse_gaps(
    gaps(FRAMES, "kernel/lang/hearsay.py FRAMES")
    + gaps(CHAIN, "kernel/lang/hearsay.py CHAIN")
    + gaps(GRAMMAR, "kernel/lang/hearsay.py GRAMMAR")
    + gaps(HEARSAY, "kernel/lang/hearsay.py HEARSAY")
)
