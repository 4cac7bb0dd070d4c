"""action_check_claim: rumours answered from what editors checked, live records first."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest
from rasa_sdk import Tracker
from sqlalchemy import select, update

from actions.chat.airport import ActionAnswerAirportStatus
from actions.chat.claim_verdicts import brief_explanation
from actions.chat.claims import ActionCheckClaim
from actions.chat.privacy import ActionDeleteMyData
from actions.content import db
from actions.content.asks import Ask, asker_of
from actions.content.models import Claim, GuidanceTopic
from kernel.contract import REMEMBER_ADDRESS
from kernel.sms_segments import segment_count
from scripts.conversations import said
from tests.actions.content_support import NOW, Messages, clock, render, run

pytestmark = pytest.mark.usefixtures("content_db")

TAZKIRA = {
    "en": "Canada is taking every Afghan who has a tazkira",
    "prs": "کانادا هر افغانی را که تذکره دارد می‌برد",
    "ps": "کاناډا هر هغه افغان وړي چې تذکره ولري",
}
FALSE = {"en": "False", "prs": "نادرست", "ps": "ناسمه"}
ASKED = {
    "en": "my cousin says canada takes all afghans with a tazkira, is that true?",
    "prs": "شنیدم که کانادا همه افغان‌ها را با تذکره قبول می‌کند، راست است؟",
    "ps": "وايي چې کاناډا ټول افغانان مني یوازې تذکره پکار ده، رښتیا ده؟",
}
UNKNOWN = "Mr Ahmadzai said Uzbekistan gives visas at the Hairatan border, call 0700123456"


def tracker(
    text: str,
    language: str = "en",
    channel: str = "rest",
    entities: dict[str, str] | None = None,
    sender: str | None = None,
) -> Tracker:
    """A conversation whose latest message is ``text``, an "is this true?" sent on ``channel``."""
    return said(text, language, channel, "check_claim", entities, sender)


async def check(state: Tracker, offset: timedelta = timedelta()) -> Messages:
    messages, events = await run(ActionCheckClaim(clock=clock(offset)), state)
    assert events == []
    return messages


def responses(messages: Messages) -> list[str]:
    return [m.get("response") or "json" for m in messages]


def asks(sender: str) -> list[Ask]:
    with db.session_scope() as session:
        rows = session.scalars(select(Ask).where(Ask.conversation_id == sender)).all()
        session.expunge_all()
        return list(rows)


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_a_checked_rumour_gets_its_verdict_in_the_persons_language(language: str) -> None:
    sender = uuid.uuid4().hex
    [message] = await check(tracker(ASKED[language], language, sender=sender))
    assert message["response"] == "utter_claim_verdict"
    shown = render(message, language)
    assert TAZKIRA[language] in shown
    assert FALSE[language] in shown
    # Why, what to do instead, who checked it when.
    assert "UNHCR" in shown
    assert {"en": "2 h ago", "prs": "۲ ساعت پیش", "ps": "۲ ساعته مخکې"}[language] in shown
    # Named by the editors' words, never the person's message quoted back.
    assert ASKED[language] not in shown
    [ask] = asks(sender)
    assert ask.group_key == "canada-every-tazkira" and ask.claim_id is not None


async def test_dari_in_latin_letters_finds_the_rumour() -> None:
    [message] = await check(tracker("canada hama afghana ra ba tazkira mebara, rast ast", "prs"))
    assert message["response"] == "utter_claim_verdict"
    assert TAZKIRA["prs"] in message["claim"]


async def test_two_close_rumours_are_offered_by_number_and_the_number_picks() -> None:
    [message] = await check(tracker("canada takes every afghan who worked"))
    assert message["response"] == "utter_claim_which"
    shown = render(message, "en")
    assert "\n1. Canada" in shown and "\n2. Canada" in shown
    picked = {message["key_1"], message["key_2"]}
    assert picked == {"canada-every-tazkira", "canada-worked-for-canada"}
    # The button's payload comes back with the slug folded by the NLU's normaliser.
    folded = message["key_2"].replace("-", "")
    [answer] = await check(tracker("/check_claim", entities={"detail": folded}))
    assert answer["response"] == "utter_claim_verdict"
    assert answer["claim"] == message["claim_2"]


def picking(sender: str, rumour: str, *choices: str, channel: str = "sms_gateway") -> Tracker:
    """The conversation after "which one did you hear?": the rumour, then each choice's
    payload (an SMS "2" reaches Rasa as the payload of option 2), the last one now."""
    state = tracker(f'/check_claim{{"detail": "{choices[-1]}"}}', channel=channel, sender=sender)
    state.latest_message["entities"] = [{"entity": "detail", "value": choices[-1]}]
    said = [rumour, *(f'/check_claim{{"detail": "{c}"}}' for c in choices)]
    state.events = [
        {"event": "action", "name": "action_session_start"},
        *(
            event
            for text in said
            for event in (
                {"event": "user", "text": text, "parse_data": {}, "input_channel": channel},
                {"event": "bot", "text": "…"},
            )
        ),
    ][:-1]
    return state


async def test_the_claim_picked_of_two_gets_the_ask_once() -> None:
    sender, rumour = uuid.uuid4().hex, "canada takes every afghan who worked, call 0799123456"
    [which] = await check(tracker(rumour, channel="sms_gateway", sender=sender))
    assert which["response"] == "utter_claim_which"
    assert asks(sender) == []  # nothing is counted before the person says which

    [answer] = await check(picking(sender, rumour, which["key_2"]))
    assert answer["response"] == "utter_claim_verdict" and answer["claim"] == which["claim_2"]
    [ask] = asks(sender)
    assert ask.group_key == which["key_2"] and ask.claim_id is not None
    assert "0799123456" not in ask.masked_text and "canada" in ask.masked_text.lower()
    assert ask.channel == "sms_gateway"

    # Changing their mind moves the same ask; nothing is counted twice.
    [answer] = await check(picking(sender, rumour, which["key_2"], which["key_1"]))
    assert answer["claim"] == which["claim_1"]
    [moved] = asks(sender)
    assert moved.id == ask.id and moved.group_key == which["key_1"]
    assert moved.claim_id not in (None, ask.claim_id)


async def test_a_pick_without_the_rumour_before_it_stores_nothing_and_still_answers() -> None:
    sender = uuid.uuid4().hex
    state = tracker("/check_claim", entities={"detail": "canada-every-tazkira"}, sender=sender)
    [answer] = await check(state)
    assert answer["response"] == "utter_claim_verdict"
    assert asks(sender) == []


async def test_an_unknown_rumour_is_stored_masked_and_the_offer_is_kept_for_72_hours() -> None:
    sender = uuid.uuid4().hex
    messages = await check(tracker(UNKNOWN, channel="telegram", sender=sender))
    assert responses(messages) == ["utter_claim_unchecked_offer"]
    shown = render(messages[0], "en")
    assert "Do not go to the airport unless" in shown
    assert "cannot say whether it is true" not in shown
    [ask] = asks(sender)
    assert "0700123456" not in ask.masked_text and "Ahmadzai" not in ask.masked_text
    assert "uzbekistan" in ask.masked_text.lower()
    assert not ask.wants_answer and ask.claim_id is None

    # Someone else tells the same rumour in other words: the same group.
    other = uuid.uuid4().hex
    await check(tracker("uzbekistan gives visas at hairatan border", sender=other))
    assert asks(other)[0].group_key == ask.group_key

    accepted = await check(
        tracker("/check_claim", channel="telegram", entities={"detail": "notify"}, sender=sender),
        timedelta(minutes=2),
    )
    assert responses(accepted) == ["json", "utter_claim_will_tell"]
    expires = datetime.fromisoformat(accepted[0]["custom"][REMEMBER_ADDRESS]["expires_at"])
    assert expires <= NOW + timedelta(minutes=2, hours=72)
    [ask] = asks(sender)
    assert ask.wants_answer and ask.answer_by is not None
    assert ask.answer_by.replace(tzinfo=expires.tzinfo) == expires


async def test_an_ask_counts_as_the_person_its_channel_tagged_else_its_conversation() -> None:
    """The editors' pages count people: the same tag from another conversation is the same
    asker; a channel that knows no address (Rasa's REST channel) leaves it to the conversation."""
    first, second, untagged = (uuid.uuid4().hex for _ in range(3))
    for sender in (first, second):
        await check(said(UNKNOWN, "en", "webchat", "check_claim", sender=sender, person="client"))
    await check(tracker(UNKNOWN, sender=untagged))
    [one], [other], [rest] = asks(first), asks(second), asks(untagged)
    assert one.asker == other.asker == asker_of("client") and one.asker is not None
    assert asker_of("another client") != one.asker
    assert rest.asker is None


async def test_a_channel_that_cannot_write_later_makes_no_offer() -> None:
    messages = await check(tracker(UNKNOWN, channel="webchat"))
    assert responses(messages) == ["utter_claim_unchecked"]


async def test_a_false_verdict_is_shown_first_even_when_the_live_record_is_newer() -> None:
    # "A list of names is read out at Abbey Gate", false: checked 1 h ago; the gate 40 min ago.
    messages = await check(tracker("they read a list of names at abbey gate, you must be there"))
    assert responses(messages) == ["utter_claim_verdict", "utter_claim_now", "utter_gate_status"]
    shown = render(messages[0], "en")
    assert "Our check: False" in shown and "nobody reads names out at Abbey Gate" in shown
    assert "Abbey Gate: closed" in messages[2]["gate"]


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_all_gates_open_tonight_is_false_before_the_gates_now(language: str) -> None:
    asked = {
        "en": "is it true all gates open tonight for women and children?",
        "prs": "راست است که امشب همه دروازه‌ها برای زنان و اطفال باز می‌شوند؟",
        "ps": "رښتیا ده چې نن شپه ټولې دروازې د ښځو او ماشومانو لپاره خلاصېږي؟",
    }[language]
    messages = await check(tracker(asked, language))
    assert responses(messages)[0] in ("utter_claim_verdict", "utter_claim_closest")
    assert FALSE[language] in render(messages[0], language)
    assert responses(messages)[1:] == ["utter_claim_now", "utter_airport_status"]


async def test_a_true_verdict_older_than_the_record_gives_way_to_the_record() -> None:
    with db.session_scope() as session:
        session.execute(
            update(Claim)
            .where(Claim.slug == "abbey-gate-names-list")
            .values(verdict="true", verified_at=NOW - timedelta(hours=3))
        )
    messages = await check(tracker("they read a list of names at abbey gate, you must be there"))
    assert responses(messages) == ["utter_claim_heard", "utter_gate_status"]
    assert "Only what follows is confirmed" in render(messages[0], "en")

    # Checked again after the gate: its verdict follows the record.
    with db.session_scope() as session:
        session.execute(
            update(Claim).where(Claim.slug == "abbey-gate-names-list").values(verified_at=NOW)
        )
    messages = await check(tracker("they read a list of names at abbey gate, you must be there"))
    assert responses(messages) == ["utter_claim_heard", "utter_gate_status", "utter_claim_verdict"]


PAY_FOR_A_SEAT = {
    "en": "I heard they give seats at the airport to people who pay 2000 dollars",
    "prs": "شنیدم که در میدان هوایی به کسانی که پول بدهند جای میدهند",
    "ps": "ما اورېدلي چې په هوايي ډګر کې که پیسې ورکړې ځای درکوي",
}
NOBODY_MAY_CHARGE = {
    "en": "Nobody may charge money",
    "prs": "هیچ کس حق ندارد",
    "ps": "هېڅوک حق نه لري",
}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
@pytest.mark.parametrize("channel", ["webchat", "telegram", "sms_gateway"])
async def test_paying_for_a_seat_is_answered_with_the_anti_fraud_line_first(
    language: str, channel: str
) -> None:
    [answer] = await check(tracker(PAY_FOR_A_SEAT[language], language, channel=channel))
    shown = render(answer, language, channel)
    first_line = shown.splitlines()[0]
    assert first_line.startswith(NOBODY_MAY_CHARGE[language]) or (
        channel == "sms_gateway" and NOBODY_MAY_CHARGE[language][:6] in first_line[:60]
    ), shown
    assert (
        "cannot say" not in shown and "نمی‌توانیم بگوییم" not in shown and "نه شو ویلای" not in shown
    )
    assert segment_count(shown) <= 3 or channel != "sms_gateway"


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_an_unchecked_rumour_says_what_to_do_if_in_danger(language: str) -> None:
    [answer] = await check(tracker(UNKNOWN, language, channel="webchat"))
    shown = render(answer, language)
    assert {"en": '"help"', "prs": "«کمک»", "ps": "«مرسته»"}[language] in shown


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_sms_answers_fit_three_segments_verdict_first(language: str) -> None:
    [verdict] = await check(tracker(ASKED[language], language, channel="sms_gateway"))
    sms = render(verdict, language, "sms_gateway")
    assert sms.startswith(FALSE[language])
    assert segment_count(sms) <= 3, sms
    [offer] = await check(tracker(UNKNOWN, language, channel="sms_gateway"))
    assert segment_count(render(offer, language, "sms_gateway") + "\n1 Tell me") <= 3


async def test_delete_my_data_deletes_the_conversations_asks() -> None:
    sender = uuid.uuid4().hex
    await check(tracker(UNKNOWN, channel="telegram", sender=sender))
    assert asks(sender)
    deleting = tracker("delete my data", sender=sender)
    messages, _ = await run(ActionDeleteMyData(clock=clock()), deleting)  # type: ignore[arg-type]
    assert [m["response"] for m in messages] == ["utter_data_deleted"]
    assert asks(sender) == []


FACEBOOK = {
    "en": "is it true the us embassy collects names for flights on a facebook page?",
    "prs": "شنیدم سفارت امریکا در فیسبوک برای پرواز نام جمع می‌کند، راست است؟",
    "ps": "وايي د امریکا سفارت په فېسبوک کې د الوتنو لپاره نومونه راټولوي، رښتیا ده؟",
}
EMBASSY = {
    "en": "US Embassy Kabul",
    "prs": "سفارت امریکا در کابل",
    "ps": "په کابل کې د امریکا سفارت",
}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_a_false_list_says_how_the_real_organisation_reaches_people(language: str) -> None:
    # The fake page borrows the embassy's name: the answer gives the embassy's own contacts,
    # from its contacts record, not from the editor's explanation.
    [message] = await check(tracker(FACEBOOK[language], language))
    assert message["response"] == "utter_claim_verdict"
    shown = render(message, language)
    assert FALSE[language] in shown
    assert EMBASSY[language] in shown
    assert "+93 700 000 131" in shown and "us-evacuation@example.org" in shown
    # A claim whose source keeps no contacts record says nothing of the kind.
    [canada] = await check(tracker(ASKED[language], language))
    assert "+93" not in render(canada, language)
    # On SMS the verdict comes first, the number is kept and it all fits three segments.
    [sms] = await check(tracker(FACEBOOK[language], language, channel="sms_gateway"))
    text = render(sms, language, "sms_gateway")
    assert text.startswith(FALSE[language]) and segment_count(text) <= 3, text
    assert "+93 700 000 131" in text


async def test_the_real_contact_follows_the_record_not_the_verdict_text() -> None:
    # The editor withdraws the embassy's contacts record: the number goes with it.
    with db.session_scope() as session:
        session.execute(
            update(GuidanceTopic)
            .where(GuidanceTopic.slug == "us-evacuation-line")
            .values(withdrawn_at=NOW - timedelta(minutes=1))
        )
    [message] = await check(tracker(FACEBOOK["en"]))
    assert message["response"] == "utter_claim_verdict"
    assert "700 000 131" not in render(message, "en")


ABBEY_LIST = {
    "en": "they read a list of names at abbey gate, you must be there",
    "prs": "میگن در ابی گیت لست نام‌ها را میخوانند، باید آنجا باشی",
    "ps": "وايي په ابي ګېټ کې د نومونو لست لولي، باید هلته اوسې",
}
DO_NOT_WAIT = {"en": "Do not wait at the gate", "prs": "منتظر نمانید", "ps": "انتظار"}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_an_sms_verdict_keeps_what_to_do_not_only_the_first_sentence(language: str) -> None:
    messages = await check(tracker(ABBEY_LIST[language], language, channel="sms_gateway"))
    sms = render(messages[0], language, "sms_gateway")
    assert sms.startswith(FALSE[language]) and segment_count(sms) <= 3, sms
    assert DO_NOT_WAIT[language] in sms, sms


def test_the_brief_keeps_the_advice_before_the_rest_in_the_editors_order() -> None:
    told = (
        "No such opening has been announced. Do not go to the airport on a rumour: crowds at "
        "the gates are dangerous. Check the gates' state here before you leave."
    )
    room = len("No such opening has been announced. Do not go to the airport on a rumour: ")
    brief = brief_explanation(told, "en", lambda text: len(text) <= room + 60)
    assert brief.startswith("No such opening") and "Do not go to the airport" in brief
    only_one = brief_explanation(told, "en", lambda text: len(text) <= 80)
    assert only_one.startswith("Do not go to the airport on a rumour")
    cut = brief_explanation(told, "en", lambda text: len(text) <= 30)
    assert cut.startswith("Do not go") and cut.endswith("…")


#: Phrasings of "all gates open tonight for women and children" as its editors typed them.
EDITORS_PHRASINGS = {
    "en": "Women and children can enter any gate tonight!",
    "prs": "امشب زن‌ها و بچه‌ها را از همه دروازه‌ها داخل می‌کنند",
    "ps": "نن شپه د هوايي ډګر ټولې دروازې ښځو او ماشومانو ته خلاصې دي",
}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_an_editors_phrasing_read_as_an_airport_question_gets_the_rumour_first(
    language: str,
) -> None:
    # The NLU takes it for "are the gates open?": the airport's answer still leads with the
    # rumour's verdict, then says what the sources say now.
    state = tracker(EDITORS_PHRASINGS[language], language)
    state.latest_message["intent"] = {"name": "ask_airport_status", "confidence": 0.9}
    messages, _ = await run(ActionAnswerAirportStatus(clock=clock()), state)
    assert responses(messages) == ["utter_claim_verdict", "utter_claim_now", "utter_airport_status"]
    assert FALSE[language] in render(messages[0], language)
    # The airport's own question is the airport's answer alone.
    plain = tracker(
        {"en": "is the airport open?", "prs": "میدان هوایی باز است؟", "ps": "هوايي ډګر خلاص دی؟"}[
            language
        ],
        language,
    )
    messages, _ = await run(ActionAnswerAirportStatus(clock=clock()), plain)
    assert responses(messages) == ["utter_airport_status"]


async def test_an_editors_phrasing_is_a_verdict_not_a_choice_of_two() -> None:
    for text in (
        "Women and children can enter any gate tonight",
        "Canada is taking every Afghan who has a tazkira",
    ):
        messages = await check(tracker(text))
        assert responses(messages)[0] == "utter_claim_verdict", text
