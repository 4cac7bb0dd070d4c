"""Words that mean the same in English, Dari and Pashto, however they are written.

Character n-grams find "tazkira" in «تذکره» (through the consonant skeletons), but they cannot
know that «گیت» and «دروازه» are the same gate, that "kids" are «اطفال» and «ماشومان», that
"everyone" is «همه», «ټول», "hama" and "tol", or that "Germany" is «آلمان» and "jarmani". So
the same rumour told in another language or script came closest to another claim that happened
to share its letters: "canada tol khalak wri" (Canada takes everyone) met "cha che la canada
sara kar kari canada ta tlay shi" (who worked with Canada can go) before the rumour of every
Afghan with a tazkira. Each sense below lists the forms people write in chat (after the
normaliser), in every language and script; a word of a sense brings the sense's own token into
the text (``with_senses``), so it counts the same whichever language it was written in.

Places are senses that say more: a rumour about another country or city is another rumour
("Australia takes everyone" is not "Canada takes everyone"), so a claim that names countries
is only matched to a message that names one of them or none, and likewise for cities
(``Places.elsewhere``). Afghanistan and Kabul are no such places: every rumour here is about
Afghans in Kabul.

The words are the evacuation's everyday vocabulary, written from the claims, their phrasings
and the benchmark's development split (scripts/claims_bench), never from its test split.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from bot.lang.normalise import normalise

#: What the things of a rumour are called, by sense. Latin forms cover romanized Dari and
#: Pashto and English. A form is listed whole, as people type it: no stemming, since a word's
#: start can be another word («پول», money, starts «پولیس», the police).
MEANINGS: Final[Mapping[str, str]] = {
    "all": """all every everyone everybody anyone anybody any whole evry evry1 everyon
        همه همگی هر تمام ټول ټوله ټولې ټولو هره هرې
        hama hame hamagi hamaye har tamam tol tolo tole tola hara hare""",
    "take": """take takes taking took taken takin accept accepts accepting accepted accpting
        evacuate evacuates evacuating evacuated evacuats bring brings bringing
        برد میبره میبرد میبرن میبرند ببره ببرد قبول پذیرد میپذیرد میپذیره انتقال
        وړی بیایی یوسی بوځی باسی منی
        mebara mebare mebaran mebarand mibara qabul qabool qabol enteqal wri bayai yosi
        bozi basi mani""",
    "tazkira": """tazkira tazkiras tazkera tazkeras tazkra tazkire id etazkira
        تذکره تزکره تذکرې تذکرو تذکری""",
    "visa": """visa visas viza vizas ویزه ویزې ویزو ویزی""",
    "family": """family families familey familys famlies famly relatives relative famil
        famila familesh khanawada khanawade korani korni korano kurani
        خانواده فامیل فامیلا فامیلی فامیلش کورنۍ کورنی کورنیو""",
    "work": """work worked works working workd employee employees employed staff exstaff
        کار کارمند کارمندان کارمندای کارکنان کارکوونکی کارکوونکو
        kar karmand karmanda karmandan kormandan karmandaye karkawonki karkawunki
        karkawunko karkawunkay""",
    "interpreter": """interpreter interpreters translator translators terp terps
        ترجمان ترجمانان ترجمانا ژباړونکی ژباړونکو
        tarjoman tarjuman tarjomana tarjumanan terjuman zhbaronki zhbarunki zhbaronko""",
    "government": """government governments govt حکومت دولت hukumat hokomat""",
    "embassy": """embassy embasy embassies سفارت سفارتش safarat""",
    "women": """women woman womn ladies lady females female
        زن زنان زنا خانم خانما ښځې ښځو ښځه میرمنې میرمنو
        zan zanan zana khanum khanuma khanoma khazi khazo khaza""",
    "children": """children child childrn kids kid babies baby
        اطفال طفل کودکان کودک بچه اولاد اولادا ماشومان ماشومانو ماشوم ماشومو
        atfal tifl bacha awlad awlada mashuman mashumano mashoman mashomo""",
    "night": """tonight tonite 2nite 2night night امشب امشو شب شپه شپې
        emshab emshow emsho shpa shpe nanshpa""",
    "gate": """gate gates gait gats دروازه دروازا دروازې دروازو گیت ګېټ ګیټ ګېټونو
        darwaza darwaze darwazo darwazi geet gateono""",
    "open": """open opens opened opening باز واز خلاص خلاصې خلاصه خلاصوی پرانیزی
        baz waz khlas khlase khlasa khlasawi pranizi paranizi""",
    "flight": """flight flights plane planes airplane flite پرواز طیاره طیارا الوتکه الوتکې
        الوتنې الوتنه parwaz tayara tayyara tiyara alwatka alwatke alwatane alwatki""",
    "name": """name names نام ناما نامت نامم نوم نومونه نومونو nam nama namet num nom
        numona noomona""",
    "read out": """read reads announce announced announcing shout shouts
        خوانده میخوانن میخوانند صدا اعلان لولی لوستل غږوی اعلانوی
        mekhanan sada elan lwali lwastal gharawi gagawi elanawi""",
    "soldier": """soldier soldiers soljers army military عسکر عسکرها عسکرای سرباز سربازان
        اردو نظامیان عسکرو سرتېری سرتېرو askar askara sarbaz ordo ordu sarteri sartero
        nizamiyan nezamian""",
    "pardon": """amnesty pardon pardoned forgive forgiven forgave forgivd عفو بخشیدن بخشیده
        بښنه بښلی بښل بخښلی afw bakhshidan bakhshedan bakhshida bakhana bakhali bakhal
        bakhkhali""",
    "former": """former ex old سابق قبلی قدیم پخوانی پخوانیو زاړه sabiq sabeq qadim
        pakhwani pakhwanay pakhwano zara""",
    "register": """register registering registration registers collect collects
        collecting ثبت جمع ثبتوی راټولوی sabt jam sabtawi ratolawi""",
    "facebook": """facebook fb فیسبوک فېسبوک""",
    "whatsapp": """whatsapp watsap واتساپ واتسپ واټساپ واټسپ""",
}

#: Countries a rumour is about, each with its people's name ("Canadian"), and the border
#: crossings into them.
COUNTRIES: Final[Mapping[str, str]] = {
    "canada": """canada canadian canadians kanada canda canadaa kanda canadayi kanadayi
        canadayan canadayano کانادا کاناډا کانادایی کاناډایی کاندا کاناډایان کاناډایانو""",
    "germany": """germany german germans jermany alman almani almanian almaniano jarmani
        germani آلمان آلمانی آلمانیان آلمانیانو جرمنی""",
    "united states": """america american americans americn usa amrika amrica amrikayi
        amrikayan amrikayano امریکا امریکایی امریکایان امریکایانو""",
    "united kingdom": """uk britain british england inglis inglistan engelis انگلیس
        انګلستان انگلستان بریتانیا""",
    "australia": """australia australian استرالیا اسټرالیا""",
    "qatar": """qatar doha قطر دوحه""",
    "pakistan": """pakistan pakistani islamabad peshawar torkham پاکستان پېښور پیشاور تورخم""",
    "iran": """iran iranian ایران ایرانی""",
    "turkey": """turkey turkish turkiya turkiye turkia ترکیه ترکیې""",
    "uzbekistan": """uzbekistan ozbekistan uzbek tashkent termez hairatan ازبکستان تاشکند
        ترمذ حیرتان""",
    "tajikistan": """tajikistan tajik dushanbe تاجکستان""",
    "india": """india indian hind hindustan هند هندوستان""",
    "france": """france french faransa فرانسه فرانسې""",
    "italy": """italy italian italia ایتالیا""",
    "spain": """spain spanish ispania اسپانیا""",
    "netherlands": """netherlands dutch holland holand هالند""",
    "sweden": """sweden swedish سویدن""",
    "norway": """norway norwegian ناروی""",
    "denmark": """denmark danish دنمارک""",
    "belgium": """belgium belgian بلجیم""",
    "switzerland": """switzerland swiss سویس""",
    "austria": """austria austrian اتریش""",
    "poland": """poland polish پولند""",
    "albania": """albania albanian البانیا""",
    "kosovo": """kosovo کوزوو""",
    "uganda": """uganda یوگندا""",
    "rwanda": """rwanda روندا""",
    "mexico": """mexico مکسیکو""",
    "brazil": """brazil برازیل""",
    "emirates": """emirates uae dubai emarat امارات دبی""",
    "kuwait": """kuwait کویت""",
    "bahrain": """bahrain بحرین""",
    "saudi arabia": """saudi arabia عربستان سعودی""",
    "china": """china chinese چین""",
    "russia": """russia russian rusia روسیه""",
    "kazakhstan": """kazakhstan قزاقستان""",
    "kyrgyzstan": """kyrgyzstan قرغزستان""",
    "turkmenistan": """turkmenistan ترکمنستان""",
    "japan": """japan japanese جاپان""",
    "ireland": """ireland irish آیرلند""",
}

#: Afghan cities a rumour is about (its airport, its flights). Kabul is not one: every rumour
#: here is about Kabul unless it names another city, and "the US Embassy in Kabul" is the
#: embassy rumour.
CITIES: Final[Mapping[str, str]] = {
    "mazar": """mazar mazr mazarisharif mazaresharif mazarsharif mazara balkh مزار مزاره بلخ""",
    "herat": """herat هرات""",
    "kandahar": """kandahar qandahar قندهار کندهار""",
    "jalalabad": """jalalabad جلال""",
    "kunduz": """kunduz kundoz کندز کندوز""",
}

#: A sense's token is a word of its own letters, from Unicode's private use area, so that its
#: n-grams are its alone; long enough to weigh about what a short word does.
_LETTERS: Final = 6
_FIRST: Final = 0xE000


def _tokens(senses: Mapping[str, str], first: int, seen: dict[str, str]) -> dict[str, str]:
    """Each listed form (normalised) → the token of its sense. Refuses a sense without a form
    in Arabic script or in Latin letters (the same rumour would then find it in one script
    only) and a form listed under two senses (``seen``: the forms of the tables before)."""
    table: dict[str, str] = {}
    for number, (name, listed) in enumerate(senses.items()):
        forms = normalise(listed).split()
        if all(form.isascii() for form in forms) or not any(form.isascii() for form in forms):
            raise ValueError(f"sense {name!r} needs forms in Arabic script and in Latin letters")
        start = first + number * _LETTERS
        token = "".join(chr(start + letter) for letter in range(_LETTERS))
        for form in forms:
            if (other := seen.get(form, name)) != name:
                raise ValueError(f"{form!r} is listed under {other!r} and {name!r}")
            seen[form] = name
            table[form] = token
    return table


_SEEN: Final[dict[str, str]] = {}
_MEANING: Final = _tokens(MEANINGS, _FIRST, _SEEN)
_COUNTRY: Final = _tokens(COUNTRIES, _FIRST + len(MEANINGS) * _LETTERS, _SEEN)
_CITY: Final = _tokens(CITIES, _FIRST + (len(MEANINGS) + len(COUNTRIES)) * _LETTERS, _SEEN)
SENSE: Final = _MEANING | _COUNTRY | _CITY
_LAST: Final = _FIRST + (len(MEANINGS) + len(COUNTRIES) + len(CITIES)) * _LETTERS


@dataclass(frozen=True)
class Places:
    """The countries and the cities a text names (their senses' tokens)."""

    countries: frozenset[str] = frozenset()
    cities: frozenset[str] = frozenset()

    def __or__(self, other: Places) -> Places:
        return Places(self.countries | other.countries, self.cities | other.cities)

    def elsewhere(self, named: Places) -> bool:
        """Whether a claim naming these places is about other ones than a message naming
        ``named``: it names countries and the message only others, or cities and the message
        only other cities. A message that names no country says nothing about countries."""
        return _apart(self.countries, named.countries) or _apart(self.cities, named.cities)


def _apart(claimed: frozenset[str], named: frozenset[str]) -> bool:
    return bool(claimed and named) and claimed.isdisjoint(named)


def is_sense(word: str) -> bool:
    """Whether a word is a sense's token rather than one somebody wrote."""
    return _FIRST <= ord(word[0]) < _LAST


def with_senses(words: list[str]) -> list[str]:
    """The words, then the token of each word's sense (normalised words)."""
    return words + [SENSE[word] for word in words if word in SENSE]


def places(words: Iterable[str]) -> Places:
    """The countries and cities a text names, from its normalised words."""
    words = list(words)
    return Places(
        frozenset(_COUNTRY[word] for word in words if word in _COUNTRY),
        frozenset(_CITY[word] for word in words if word in _CITY),
    )
