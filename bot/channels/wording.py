"""The few sentences a connector says by itself, before a message ever reaches the bot.

Everything the assistant says about flights, the airport or documents lives in the domain
(bot/domain/). These are the exceptions: a voice note or a photo never reaches the NLU, so the
connector answers it here. Three languages side by side, so a change to one shows the others:
Dari as spoken in Afghanistan, Pashto, English.
"""

from bot.lang.codes import DARI, ENGLISH, LANGUAGES, PASHTO

#: Sent when a user sends a voice note, photo, sticker, location...: say what works instead.
TEXT_ONLY: dict[str, str] = {
    DARI: "ببخشید، من فقط نوشته را خوانده می‌توانم، آواز و عکس را نه. لطفاً سوال خود را بنویسید.",
    PASHTO: (
        "بښنه غواړم، زه یوازې لیکلي پیغامونه لوستلای شم. "
        "مهرباني وکړئ خپله پوښتنه په لیکلي ډول راولېږئ."
    ),
    ENGLISH: "Sorry, I can only read written messages. Please type your question as text.",
}

#: Label of the button that opens a WhatsApp list of choices (WhatsApp allows 20 characters).
CHOOSE: dict[str, str] = {
    DARI: "انتخاب کنید",
    PASHTO: "غوره کړئ",
    ENGLISH: "Choose",
}

#: Letters Pashto has and Dari does not (shared/DESIGN.md, "Language").
_PASHTO_LETTERS = frozenset("ټډړږښګڼېۍځڅ")


def text_only(language: str | None) -> str:
    """The "please write" answer in ``language``; in all three when the language is unknown,
    Dari and Pashto first, because a wrong guess would leave the user with nothing."""
    if language in LANGUAGES:
        return TEXT_ONLY[language]
    return "\n\n".join(TEXT_ONLY[code] for code in (DARI, PASHTO, ENGLISH))


def language_of(text: str) -> str:
    """A rough guess at the language of a bot reply, only for labels around it.

    The reply was already written in the conversation's language, so its script is enough.
    """
    if any(char in _PASHTO_LETTERS for char in text):
        return PASHTO
    if any("\u0600" <= char <= "\u06ff" for char in text):
        return DARI
    return ENGLISH
