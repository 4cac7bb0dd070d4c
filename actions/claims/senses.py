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

The words are the evacuation's everyday vocabulary, the claims' and the editors' answers' alike
(actions/content/seed/answers.yml: borders and crossings, passports and their office, banks,
money and hawala, e-mails, parents and siblings, waiting near the airport, programmes and how
to apply): written from the claims, the answers and their phrasings and from the development
splits of both benchmarks (scripts/claims_bench, scripts/answers_bench/*_dev.yml), never from
their test splits. A word that more often means something else is left out: «لست» and "list"
(a sense of its own made the list rumour and the e-mail answer nearer to each other and to
everyday questions, not to their own messages), «فارم» (also a farm), «پولی» (Pashto borders,
but Dari for "paid"), "wrora" and "bro" (how people greet the assistant, not their brothers).
Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from kernel.lang.normalise import normalise

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
        famila familesh familem familam khanawada khanawade korani korni korano kurani
        kornai kornay خانواده فامیل فامیلا فامیلی فامیلش فامیلم کورنۍ کورنی کورنیو""",
    "work": """work worked works working workd employee employees employed staff exstaff
        کار کارمند کارمندان کارمندای کارکنان کارکوونکی کارکوونکو
        kar karmand karmanda karmandan kormandan karmandaye karkawonki karkawunki
        karkawunko karkawunkay""",
    "interpreter": """interpreter interpreters translator translators terp terps
        ترجمان ترجمانان ترجمانا ژباړونکی ژباړونکو ژباړن
        tarjoman tarjuman tarjomana tarjumanan terjuman zhbaronki zhbarunki zhbaronko
        zhbaran""",
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
    # The editors' answers: borders, papers, money, family, waiting, programmes.
    "border": """border borders bordr boarder boarders crossing crossings frontier
        سرحد سرحدات سرحدی سرحدها مرز پوله پولې پولو گذرگاه
        sarhad sarhade sarhadat sarhadi sarhaad sarhd pula pola pule pulay polay""",
    "cross": """cross crosses crossed crosing عبور تیر تېرېدل تېرېدای تېرېدلای تېرېدو
        تېرېږی تېروی تېرول تېرولو اوښتل اوښتلای ubur obur tir ter teredal teredalay
        teredalai teredai teredo teregi terawi terawal terawalo awakhtal awakhtalai
        awshtalai awshtalay""",
    "passport": """passport passports passprt passpor pasport pasports paspord passpord
        pasaport passportem pasportem passportuna pasportuna
        پاسپورت پاسپورتم پاسپورتش پاسپورتا پاسپورتها پاسپورتونه پاسپورټ پاسپورټونه
        پاسپورټونو""",
    "office": """office offices ofice offis department departments directorate dept
        دفتر دفترش دفاتر دفترونه دفترونو اداره ادارات ادارې ادارو ریاست ریاستونه
        daftar dafter daftare daftarona edara idara edare idare edarat riasat riyasat
        reyasat riasate riyasate""",
    "bank": """bank banks banka bankha bankuna bankona banko atm atms
        بانک بانکها بانکونه بانکونو بانکه بانکا""",
    "money": """money cash paisa paise paisey peisa pesa pool naqd naghd naghde naghdi
        پول پولم پیسه پیسې پیسو پیسی نقد نغدې نغدی""",
    "withdraw": """withdraw withdraws withdrawal withdrawals withdrawing withdrew withdrawl
        کشیده کشیدن ایستلای ایستل kashida kashidan kasheda keshida istalai istalay istal
        weestalay westalay wistalay""",
    "hawala": """hawala hawalla hawaala hawaladar hawaladars hawaladaran moneygram
        saraf sarraf sarafan sarrafan sarafa sarafaye
        حواله صراف صرافان صرافا صرافای صرافی""",
    "email": """email emails emailed emaili mail gmail imel emel imail
        ایمیل ایمیلی ایمیلها ایمیلونه ایمیلونو ایمیلم ایمیلت جیمیل""",
    "parent": """parent parents mother mothers mom mum father fathers dad
        مادر مادرم مادرش مادرت پدر پدرم پدرش والدین مور پلار پلاره
        madar madaram madarem madarom mader madare padar padaram padarem padarom pedar
        padare walidain waldain walidin mor plar plara""",
    "sibling": """sibling siblings brother brothers sister sisters
        برادر برادرم برادرا برادرها بیادر بیادرم بیادرا خواهر خواهرم خواهرا خوار خوارم
        خوارا ورور وروڼه ورونه وروڼو خور خویندې خوندې
        baradar baradaram baradarem biadar biyadar bayadar bayadarem bayadaram biadaram
        khwahar khwaharam khahar khwar khwarem khwaram wror wrur wrona wruna khor
        khwende khwenday khwainde""",
    "wait": """wait waits waiting waited wate stay staying stayed
        انتظار منتظر ماندن بمانیم پاتې ایسار intezar intizar entezar intazar intezaar
        muntazir muntazer montazer montazir bomanem bemanem pate pati isar""",
    "near": """near nearby nearest neer nere نزدیک نزدیکی نزدیکترین نږدې نژدې نزدې نیږدې
        nazdik nazdeek nezdik nazdike nizde nazde nezde nizhde nazhde najde nijde""",
    "apply": """apply applies applied applying application applications aplay aply
        درخواست درخواستها درخواستی غوښتنه غوښتنې غوښتنلیک darkhast darkhost darkhaast
        darkhwast darkhwost ghokhtana ghukhtana ghoshtana ghwakhtana ghokhtane
        ghushtana""",
    "programme": """program programs programme programmes scheme schemes barnama barnamaye
        programe برنامه پروگرام پروګرام پروګرامونه پروګرامونو پروگرامها""",
    "refer": """refer refers referred referral referrals referal refferal
        معرفی معرفۍ moarefi moarifi muarefi marefi moarefy""",
    "employer": """employer employers کارفرما karfarma""",
    "organisation": """organisation organisations organization organizations ngo ngos
        موسسه مؤسسه موسسات مؤسسات موسسې موسسو mosesa moasesa muassasa mossesa mosisa
        mosese mosesaye""",
    "media": """journalist journalists reporter reporters media خبرنگار خبرنگاران خبریال
        خبریالان رسانه رسنۍ رسنیو رسنی khabarnegar khabarnigar khabarnegaran khabarial
        khabaryal rasana rasanai""",
    "project": """project projects projekt پروژه پروژې پروژو proja prozha projah""",
    "refugee": """refugee refugees asylum پناهنده پناهندگی پناهجو کډوال کډوالۍ کډوالو
        panahanda panahandagi panahandegi panahjo kadwal kadwalai kadwalo""",
    "hotel": """hotel hotels hotal هوتل هوټل هتل""",
    "closed": """closed closd shut shutdown بسته بند تړلی تړلې تړل basta bast band tarali
        taralay tarle""",
    "arap": """arap araap اراپ آراپ ارپ""",
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
    "united kingdom": """uk britain british england inglis inglistan engelis englis
        britania bartania bretania angrez انگلیس انګلیس انګلستان انگلستان بریتانیا بریتانیه
        بریتانیې برتانیه برتانیا برتانیې برطانیه انګرېز انګرېزان انگریز""",
    "australia": """australia australian استرالیا اسټرالیا""",
    "qatar": """qatar doha قطر دوحه""",
    "pakistan": """pakistan pakistani islamabad peshawar quetta پاکستان پاکستانی
        پېښور پیشاور کویته""",
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

#: Afghan cities a rumour is about (its airport, its flights), and the border crossings a
#: question is about (the Torkham crossing is not the Spin Boldak one, though both lead to
#: Pakistan). Kabul is not one: every rumour here is about Kabul unless it names another city,
#: and "the US Embassy in Kabul" is the embassy rumour.
CITIES: Final[Mapping[str, str]] = {
    "mazar": """mazar mazr mazarisharif mazaresharif mazarsharif mazara balkh مزار مزاره بلخ""",
    "herat": """herat هرات""",
    "kandahar": """kandahar qandahar قندهار کندهار""",
    "jalalabad": """jalalabad جلال""",
    "kunduz": """kunduz kundoz کندز کندوز""",
    "torkham": """torkham torkhum turkham torkam tourkham تورخم طورخم""",
    "spin boldak": """boldak boldaq spinboldak chaman بولدک بولدک سپین‌بولدک چمن""",
}

#: The country a border crossing leads to: a question about Torkham is about Pakistan too, so
#: a message about the border with Iran does not come to it.
LEADS_TO: Final[Mapping[str, str]] = {"torkham": "pakistan", "spin boldak": "pakistan"}

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
#: A crossing's token → the token of the country it leads to.
_LED_TO: Final = {
    _CITY[normalise(CITIES[crossing]).split()[0]]: _COUNTRY[
        normalise(COUNTRIES[country]).split()[0]
    ]
    for crossing, country in LEADS_TO.items()
}
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
    """The countries and cities a text names, from its normalised words; a border crossing
    names the country it leads to as well (``LEADS_TO``)."""
    words = list(words)
    cities = frozenset(_CITY[word] for word in words if word in _CITY)
    return Places(
        frozenset(_COUNTRY[word] for word in words if word in _COUNTRY)
        | {_LED_TO[city] for city in cities if city in _LED_TO},
        cities,
    )
