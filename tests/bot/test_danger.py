"""Threat or calm, when both share the words (kernel/danger.py): armed men who came and went
without harm, a rumour asked about, a threat weeks past are no threat now, so no urgent case is
opened and nobody is alarmed; the same words with harm done or a threat to come still are."""

from __future__ import annotations

import pytest

from kernel.danger import Danger, dangers


@pytest.mark.parametrize(
    "text",
    [
        "the taliban came to our house yesterday, checked our papers and left, nobody hurt. "
        "when is the next flight?",
        "they stopped us at the checkpoint, looked at our tazkiras and let us pass, which gate now",
        "دیروز طالبان به خانه ما آمدند، تذکره ها را دیدند و رفتند، همه خوب هستیم. "
        "پرواز بعدی کی است؟",
        "diroz taliba ba khana ma amadan, tazkira ha ra didan wa raftan, hama khub hastem",
        "پرون طالبان زموږ کور ته راغلل، تذکرې یې وکتلې او لاړل، ټول ښه یو. بله الوتنه کله ده؟",
    ],
)
def test_armed_men_who_came_and_went_without_harm_are_no_threat(text: str) -> None:
    assert Danger.THREAT not in dangers(text)


@pytest.mark.parametrize(
    "text",
    [
        "the taliban came to our house yesterday, checked our papers and left, but they said "
        "they will come back tonight for my husband",
        "دیروز طالبان به خانه ما آمدند، تذکره ها را دیدند و رفتند، ولی گفتند امشب دوباره میاییم",
        "diroz taliba ba khana ma amadan wa raftan, magar goftan dobara meyayem",
        "پرون طالبان زموږ کور ته راغلل، تذکرې یې وکتلې او لاړل، خو ویل یې چې نن شپه بیا راځو",
        "they beat my father and left",
    ],
)
def test_men_who_left_with_a_threat_to_come_back_or_harm_done_are_a_threat(text: str) -> None:
    assert Danger.THREAT in dangers(text)


@pytest.mark.parametrize(
    "text",
    [
        "people say the taliban are beating men at the gate, is it true?",
        "is there still shooting near the airport road or has it calmed down",
        "مردم میگن طالبان دم گیت مردم را لت میکنن، راست است؟",
        "خلک وایي چې طالبان په ګیټ کې خلک وهي، رښتیا ده؟",
    ],
)
def test_a_rumour_asked_about_is_no_threat(text: str) -> None:
    assert Danger.THREAT not in dangers(text)


@pytest.mark.parametrize(
    "text",
    [
        "people say the taliban are beating men at the gate, is it true? last night they came "
        "to our house and said they will come back for my brother",
        "مردم میگن طالبان دم گیت مردم را لت میکنن، راست است؟ دیشب به خانه ما آمدند و گفتند "
        "دوباره میاییم",
        "خلک وایي چې طالبان په ګیټ کې خلک وهي، رښتیا ده؟ پرون شپه زموږ کور ته راغلل او ویل یې "
        "بیا راځو",
    ],
)
def test_a_rumour_beside_a_threat_to_come_back_is_a_threat(text: str) -> None:
    assert Danger.THREAT in dangers(text)


@pytest.mark.parametrize(
    "text",
    [
        "my cousin was followed last month but he is fine now, which flights go to canada?",
        "دوست برادرم ماه گذشته تعقیب شده بود ولی حالا خوب است، پرواز کانادا کی است؟",
        "زما د تره زوی تېره میاشت تعقیب شوی و خو اوس ښه دی، د کاناډا الوتنه کله ده؟",
    ],
)
def test_a_threat_weeks_past_is_no_threat_now(text: str) -> None:
    assert Danger.THREAT not in dangers(text)


@pytest.mark.parametrize(
    "text",
    [
        "they followed me last month and now they are looking for me again",
        "they beat him, he is fine now, but they said they will come back tonight",
    ],
)
def test_a_past_threat_with_one_to_come_is_a_threat(text: str) -> None:
    assert Danger.THREAT in dangers(text)


def test_someone_taken_by_men_who_left_is_taken_still() -> None:
    assert Danger.THREAT in dangers("the taliban took my husband and left")
