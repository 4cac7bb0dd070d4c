"""The danger words' rules (kernel/danger.py): what a message says happened long ago, is over, or
was seen on a video is no danger now; a thing lost is no person lost; a list of places is nothing
for the classifier to guess at; and phrasings people wrote that the words once missed."""

from __future__ import annotations

import pytest

from kernel.danger import Danger, dangers, words_alone


@pytest.mark.parametrize(
    "text",
    [
        "my brother was injured in 2018 in the army, can he still apply for the P2 program?",
        "berarem sal-e 2019 yak hafta gum bood magar pas amad, aya in bayad da form nawishta ya?",
        "ورور مې په ۲۰۱۸ کې په اردو کې ټپي شوی و اوس هم د پي ۲ لپاره غوښتنه کولای شي؟",
    ],
)
def test_a_clause_naming_a_year_before_the_evacuation_tells_of_the_past(text: str) -> None:
    assert dangers(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "i saw a video taliban beating people at the airport, is it from today?",
        "ویدیوی دیدم که طالبا مردم ره در میدان لت میکنن از امروز است؟",
        "یوه ویډیو مې ولیدله چې طالبان په هوايي ډګر کې خلک وهي دا د نن ده؟",
        "این گپ که طالبان خانه ها ره تلاشی میکنن شایعه است؟",
    ],
)
def test_a_threat_seen_on_a_video_or_heard_as_a_rumour_is_news(text: str) -> None:
    assert Danger.THREAT not in dangers(text)


@pytest.mark.parametrize(
    "text",
    [
        "zoy me teera hafta taba larala, os jor de. safar kawalay shi?",
        "بچیم تب داشت ولی خوب شده، ده طیاره سفر کده میتانه؟",
        "my mother was sick last week but she is fine now, when is the flight?",
    ],
)
def test_a_wound_or_a_loss_the_message_says_is_over_is_none(text: str) -> None:
    assert dangers(text) == ()


def test_a_threat_is_one_even_when_something_else_is_over() -> None:
    text = "my son is fine now but taliban came to our house last night and beat my husband"
    assert dangers(text) == (Danger.THREAT,)


def test_a_list_of_places_is_nothing_for_the_classifier_to_guess_at() -> None:
    assert dangers("east gate, north gate, baron hotel side") == ()


@pytest.mark.parametrize(
    "text",
    [
        "پاسپورت بچیم گم شده با فامیل سفر کده میتانه؟",
        "passport-e bachem gum shuda ba famil safar karda metana?",
        "د زوی پاسپورټ مې ورک شوی له کورنۍ سره سفر کولای شي؟",
    ],
)
def test_a_thing_lost_before_someone_named_after_is_the_things_loss(text: str) -> None:
    assert Danger.MISSING not in words_alone(text)


@pytest.mark.parametrize(
    "text",
    [
        "کدام پوسته تلاشی بهتر است چوک مسعود یا چوک میدان؟",
        "koma talashi posta ghwara da da masood chawk ka da airport chawk?",
        "heard taliban took control of panjshir, is that true?",
        "شنیدیم طالبا پنجشیر ره گرفتن راست است؟",
        "gun fire yesterday at airport is it closed?",
        "do i need doctor's certificate for visa medical?",
        "we are staying home today, they say the gates are closed, talk tomorrow",
    ],
)
def test_words_of_danger_in_everyday_questions_are_calm(text: str) -> None:
    assert words_alone(text) == ()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("dugangi hayem dar saf az ma joda shudan yakesh pesh ma as digesh nest", Danger.MISSING),
        ("modar ma az dirooz pas na amada kasi deda?", Danger.MISSING),
        ("berarema zadan dar chawk, hala dar khana pinhan as", Danger.THREAT),
        ("د لور لاس مې یوه شېبه پرېښود بیا نه وه ۴ کلنه ده", Danger.MISSING),
        ("mashuman me na mondal kegi da dewal sara wo", Danger.MISSING),
        ("ماشوم د ګڼې ګوڼې وروسته ښه ساه نشي اخیستلای ژر مرسته وکړئ", Danger.MEDICAL),
        ("a guy got hit by a bullet in shoulder near airport circle, help now", Danger.MEDICAL),
        ("خانمم غش کد سرش به زمین خورد جواب نمیته", Danger.MEDICAL),
    ],
)  # fmt: skip
def test_phrasings_people_wrote_are_found(text: str, kind: Danger) -> None:
    assert words_alone(text) == (kind,)


def test_soldiers_at_the_airports_gate_are_no_men_at_the_door() -> None:
    text = "عسکرو زوی مې د دروازې سره له موږ جلا کړ ویې ویل لوی دی چېرته یې بوت؟ ۱۷ کلن"
    assert words_alone(text) == (Danger.MISSING,)
