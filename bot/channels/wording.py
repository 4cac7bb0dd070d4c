"""The few sentences a connector says by itself, without the bot.

Everything the assistant says about flights, the airport or documents lives in the domain
(bot/domain/). These are the exceptions: a voice note or a photo never reaches the NLU, and
when the assistant itself fails (a dead action server, a lost database) there is no bot left
to say sorry, so the connector says it here. Three languages side by side, so a change to one
shows the others: Dari as spoken in Afghanistan, Pashto, English.
"""

from bot.lang.codes import DARI, ENGLISH, LANGUAGES, PASHTO, RTL_LANGUAGES

#: Sent when a user sends a voice note, photo, sticker, location...: say what works instead.
TEXT_ONLY: dict[str, str] = {
    DARI: "ببخشید، من فقط نوشته را خوانده می‌توانم، آواز و عکس را نه. لطفاً سوال خود را بنویسید.",
    PASHTO: (
        "بښنه غواړم، زه یوازې لیکلي پیغامونه لوستلای شم. "
        "مهرباني وکړئ خپله پوښتنه په لیکلي ډول راولېږئ."
    ),
    ENGLISH: "Sorry, I can only read written messages. Please type your question as text.",
}

#: Sent when the assistant failed to answer: silence would leave a frightened person guessing.
TRY_AGAIN: dict[str, str] = {
    DARI: "ببخشید، مشکلی پیش آمد. چند دقیقه بعد دوباره کوشش کنید.",
    PASHTO: "بښنه غواړم، ستونزه پېښه شوه. څو دقیقې وروسته بیا هڅه وکړئ.",
    ENGLISH: "Sorry, something went wrong. Please try again in a few minutes.",
}

#: Added to TRY_AGAIN when the operator set ``EMERGENCY_HOTLINE`` (the same sentence as the
#: action server's utter_content_unavailable_hotline).
CALL_HOTLINE: dict[str, str] = {
    DARI: "اگر همین حالا به کمک ضرورت دارید، به {hotline} زنگ بزنید.",
    PASHTO: "که همدا اوس مرستې ته اړتیا لرئ، {hotline} ته زنګ ووهئ.",
    ENGLISH: "If you need help now, call {hotline}.",
}

#: Label of the button that opens a WhatsApp list of choices (WhatsApp allows 20 characters).
CHOOSE: dict[str, str] = {
    DARI: "انتخاب کنید",
    PASHTO: "غوره کړئ",
    ENGLISH: "Choose",
}


def text_only(language: str | None) -> str:
    """The "please write" answer in ``language``; in all three when the language is unknown,
    Dari and Pashto first, because a wrong guess would leave the user with nothing."""
    if language in LANGUAGES:
        return TEXT_ONLY[language]
    return "\n\n".join(TEXT_ONLY[code] for code in (DARI, PASHTO, ENGLISH))


def try_again(language: str | None, hotline: str | None) -> str:
    """The apology for a failed answer, with the hotline when there is one; in all three
    languages when the conversation's language is unknown (as ``text_only``)."""

    def sentence(code: str) -> str:
        if not hotline:
            return TRY_AGAIN[code]
        # A phone number reads left to right as a whole, also inside Dari and Pashto text.
        number = f"\u2068{hotline}\u2069" if code in RTL_LANGUAGES else hotline
        return f"{TRY_AGAIN[code]} {CALL_HOTLINE[code].format(hotline=number)}"

    if language in LANGUAGES:
        return sentence(language)
    return "\n\n".join(sentence(code) for code in (DARI, PASHTO, ENGLISH))
