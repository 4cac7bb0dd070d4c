"""The words of danger, per language and kind, in Arabic script and romanized (kernel/danger.py).

Each kind — ``missing``, ``medical``, ``threat``, and ``taken`` (someone taken away: a threat,
or missing when nobody knows where they are since; kernel/danger.py) — has:

* ``alone`` — phrases that mean the kind by themselves («بیهوش», "ambulance", "death threat");
* ``pairs`` — two sides that mean the kind when both stand in one sentence, a few words apart:
  mostly a person and what happened to them ("my **son** is **lost**", «**مور** مې **ناروغه**
  ده»), also a need and its help ("**send** a **doctor**") or a sign and where it is
  ("**gunfire** … **right now**"). Pair n of a kind means the same in every language (a Dari
  person and an English loss make a pair too: people mix), and stands within the same ``span``;
* ``calm`` — phrases that contain such words and are not danger ("sick of waiting", "safe
  journey", "medical certificate"): a word inside one of them does not count.

``things`` are what people lose that are not people (a passport, a ticket, a phone): a pair with
a thing between or right beside its two sides is about the thing. Words are written once, as
the language writes them, and match with the language's ``endings`` (a romanized word of fewer
than three letters takes none: "i" is not "is"); Pashto letters are folded to what a Persian
keyboard types before matching (ټ → ت, ړ → ر, ې → ی …), so «ټپي» also finds «تپی». Romanized
words are spelled many ways: ``_spellings("{paida,payda} namitan")`` writes each of them.
Romanized words need not be written in every vowel spelling: kernel/danger.py reads a romanized
Dari or Pashto word by its consonants and vowel slots ("zaxmi" is "zakhmi"); a calm phrase can
keep a lookalike apart ("intezar mekashem", waiting, is not "mekoshem", we kill). Written from
what people wrote in August 2021 and tuned on the development messages of tests/nlu/danger/dev/,
dev2/, dev3/, dev4/, dev5/, dev6/ and dev7/; the test messages beside them were never read for it.

Standard library only: both runtimes import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: Someone taken away: the fourth list of each language, read with the other three.
TAKEN: Final = "taken"
#: How many words apart the two sides of a pair may stand, unless the pair says otherwise.
PAIR_SPAN: Final = 7


@dataclass(frozen=True)
class Pair:
    """Two sides (``who`` and ``what``) that mean the kind when both stand in one sentence,
    fewer than ``span`` words apart; about a thing instead when one stands between or beside
    them, unless not ``of_things`` (a beating is a beating, whatever they took); and not when
    the sentence speaks of the kind ``unless``: the Taliban "looking for" a husband are a
    threat, and men who came to the house and took him away took him (``taken`` tells whether
    he is missing)."""

    who: tuple[str, ...]
    what: tuple[str, ...]
    span: int = PAIR_SPAN
    of_things: bool = True
    unless: str = ""


@dataclass(frozen=True)
class KindWords:
    """One kind of danger in one language (see the module docstring)."""

    alone: tuple[str, ...]
    pairs: tuple[Pair, ...]
    calm: tuple[str, ...] = ()


@dataclass(frozen=True)
class DangerWords:
    """One language's words of danger: by kind (``missing``, ``medical``, ``threat``,
    ``taken``)."""

    endings: tuple[str, ...]
    things: tuple[str, ...]
    kinds: dict[str, KindWords]


_CHOICE: Final = re.compile(r"\{([^{}]*)\}")


def _spellings(*patterns: str) -> tuple[str, ...]:
    """Every spelling the ``patterns`` write: ``{a,o}`` is one of its choices, an empty choice
    included ("{gum,gom} shud{,a}" is "gum shud", "gum shuda", "gom shud", "gom shuda")."""
    spelled: list[str] = []
    for pattern in patterns:
        choice = _CHOICE.search(pattern)
        if choice is None:
            spelled.append(pattern)
            continue
        head, tail = pattern[: choice.start()], pattern[choice.end() :]
        spelled += _spellings(*(head + option + tail for option in choice.group(1).split(",")))
    return tuple(spelled)


# English ---------------------------------------------------------------------------------------

_EN_CHILDREN: Final = (
    "son", "daughter", "child", "children", "kid", "baby", "babies", "boy", "girl", "toddler",
    "infant", "little one", "little ones", "grandson", "granddaughter", "grandchild", "twins",
    "nephew", "niece", "bacha",
)  # fmt: skip
_EN_FAMILY: Final = (
    *_EN_CHILDREN, "wife", "husband", "hubby", "mother", "mom", "mum", "mama", "mommy",
    "father", "dad", "papa", "daddy", "parents", "parent", "brother", "sister", "bro", "sis",
    "sibling", "grandmother", "grandma", "grandfather", "grandpa", "granny", "uncle", "aunt",
    "auntie", "cousin", "family", "relative", "fiance", "fiancee", "motherinlaw", "fatherinlaw",
    "brotherinlaw", "sisterinlaw", "year old", "years old", "yr old",
)  # fmt: skip
#: Someone not heard of: family, and the people one waits for beside them.
_EN_AWAITED: Final = (
    *_EN_FAMILY, "colleague", "coworker", "friend", "neighbour", "neighbor", "he", "she", "him",
    "her",
)  # fmt: skip
_EN_PEOPLE: Final = (
    *_EN_FAMILY, "i", "im", "me", "we", "us", "he", "she", "him", "her", "someone", "somebody",
    "man", "woman", "men", "women", "friend", "neighbour", "neighbor", "person", "people",
    "colleague", "old man", "old woman", "lady", "guy", "anyone",
)  # fmt: skip
#: Taken away: by the Taliban, by men, or just "taken" (kernel/danger.py: missing or threat).
_EN_TOOK: Final = (
    "took", "taken", "arrested", "detained", "kidnapped", "abducted", "captured", "grabbed",
    "dragged", "picked up", "picked him up", "picked her up",
)  # fmt: skip
#: Who comes for people: the one side of a threat at home ("Taliban at the door").
_EN_ACTORS: Final = (
    "taliban", "talib", "talibs", "armed", "gun", "guns", "gunman", "gunmen",
    "fighters", "militants", "commander", "strangers", "men", "someone", "somebody", "car",
    "unknown",
)  # fmt: skip

ENGLISH_WORDS: Final = DangerWords(
    endings=("", "s", "es", "ed", "d", "ing", "ly"),
    things=(
        "passport", "ticket", "tazkira", "tazkera", "id", "card", "document", "paper", "visa",
        "phone", "mobile", "bag", "luggage", "suitcase", "backpack", "money", "cash", "wallet",
        "email", "letter", "number", "file", "case number", "sim", "charger", "key", "certificate",
        "form", "application", "photo", "copy", "connection", "signal", "internet", "flight",
        "seat", "way", "place", "turn", "chance", "hope", "job", "laptop", "belongings", "stuff",
        "things", "clothes", "shoes", "list", "appointment", "interview", "ring", "gold", "jewelry",
        "jewellery", "insulin", "medicine", "medicines", "tablets", "pills", "inhaler", "name",
        "documents", "papers", "link", "battery", "screen", "website", "app", "account",
    ),
    kinds={
        "missing": KindWords(
            alone=(
                "lost child", "lost kid", "missing child", "missing person", "unaccompanied",
                "got separated", "gone missing", "went missing", "been missing", "missing since",
                "lost in the crowd", "lost in crowd", "lost contact with", "lost touch with",
                "lost track of", "lost sight of", "nobody knows where", "no one knows where",
                "noone knows where", "dont know where he", "do not know where he",
                "dont know where she", "do not know where she", "dont know where they",
                "do not know where they", "no news from my", "no news of my", "no news about my",
                "not heard from", "havent heard from", "have not heard from",
                "nobody has heard from", "no one has heard from", "hasnt come home",
                "has not come home", "didnt come home", "did not come home", "never came home",
                "never came back", "never returned", "no one has seen", "nobody has seen",
                "noone has seen", "left without him", "left without her", "left without them",
                "still not back", "still hasnt come back", "still not come back",
                "still not returned", "lost him in", "lost her in", "lost them in", "cant find him",
                "let go of the hand", "let go of his hand", "let go of her hand",
                "cant find her", "cant find them", "cannot find him", "cannot find her",
                "cannot find them", "nowhere to be found", "where is he now", "where is she now",
                "where are they now", "cant reach him", "cant reach her", "cant reach them",
                "cannot reach him", "cannot reach her", "cannot reach them", "alive or dead",
                "alive or not", "dead or alive",
            ),
            pairs=(
                Pair(  # someone lost, separated, not to be found
                    who=_EN_FAMILY,
                    what=(
                        "missing", "separated", "disappeared", "vanished", "wandered off",
                        "wandered away", "pulled away", "got pulled", "pushed away", "swept away",
                        "torn away", "split up", "slipped", "fell behind", "unaccounted",
                        "not found", "not been found", "cant find", "cannot find", "can not find",
                        "couldnt find", "could not find", "dont see her", "dont see him",
                        "dont see them", "cant see her", "cant see him", "cant see them",
                        "dont know where", "do not know where", "no idea where",
                        "no information where", "where he is", "where she is", "where they are",
                        "is gone", "was gone", "are gone", "gone since", "not with us",
                        "not with me",
                        "is not with",
                        "dont know which", "do not know which", "where he went", "where she went",
                        # misspelt
                        "missin", "seperated", "separeted", "dissapeared", "disapeared",
                        "disappered",
                    ),
                    span=12,
                ),
                Pair(  # someone not heard of, seen or back since (beside a wound: not responding)
                    who=_EN_AWAITED,
                    what=(
                        "never came back", "didnt come back", "did not come back",
                        "hasnt come back", "has not come back", "not come back", "not returned",
                        "hasnt returned", "has not returned", "never returned", "not come home",
                        "not home yet", "not back yet", "not back", "never came out",
                        "didnt come out", "since then nothing", "since then no", "nobody answers",
                        "no one answers", "no news", "no word", "no info",
                        "no information about him", "no information about her", "no contact",
                        "not answering", "not picking up", "not answering his phone",
                        "not answering her phone", "not picking up his phone",
                        "not picking up her phone", "his phone is off", "her phone is off",
                        "doesnt answer", "does not answer", "no answer", "phone off",
                        "phone is off", "switched off", "turned off", "unreachable", "cant reach",
                        "cannot reach", "cant contact", "cannot contact", "havent seen",
                        "have not seen", "no one has seen", "nobody has seen", "noone has seen",
                        "hasnt been seen", "not seen since", "last seen", "no trace", "no sign",
                        "whereabouts", "heard from", "heard nothing", "nothing since",
                        "not heard anything", "havent heard anything", "anyone seen",
                        "have you seen", "didnt return", "did not return",
                        # not arrived, not replying, nobody says where
                        "not arrived", "hasnt arrived", "has not arrived", "didnt arrive",
                        "did not arrive", "never arrived", "not at home", "not home",
                        "not reply", "no reply", "not replying", "doesnt reply", "didnt reply",
                        "not replied", "heard anything", "nobody tells", "no one tells",
                        "nobody says", "where they took", "where they take", "where do they take",
                        "which plane", "nobody brings", "not brought back",
                    ),
                    span=12,
                    unless="medical",
                ),
                Pair(  # someone looked for, unless those looking are the threat
                    who=_EN_FAMILY,
                    what=(
                        "lost", "got lost", "ran off", "looking for", "searching for", "search for",
                        "searched everywhere", "looked everywhere", "not find", "left behind",
                        "left without", "help me find", "help find", "help us find", "please find",
                        "find him", "find her", "find them", "how to find", "how can we find",
                        "how can i find",
                    ),
                    unless="threat",
                ),
                Pair(  # where someone is, unless armed men ask it
                    who=_EN_FAMILY,
                    what=("where is", "where are", "wheres"),
                    span=3,
                    unless="threat",
                ),
                Pair(  # a child alone
                    who=_EN_CHILDREN,
                    what=(
                        "alone", "on his own", "on her own", "by himself", "by herself",
                        "without parents", "without his parents", "without her parents",
                        "without family", "no parents", "no family", "cant find his",
                        "cant find her", "lost his parents", "lost her parents",
                    ),
                    span=10,
                ),
            ),
            calm=(
                "looking for a flight", "looking for flights", "looking for information",
                "looking for a job", "looking for work", "looking for a house",
                "searching for information", "search for flights", "missing documents",
                "missing document", "missing papers", "missing from", "missed the flight",
                "missed our flight", "miss the flight", "lost cause", "lost hope", "lost my job",
                "where is the", "where are the", "where is your", "alone with", "travel alone",
                "travelling alone", "traveling alone", "fly alone", "flying alone", "go alone",
                "leave alone", "left alone at home", "alone in kabul", "alone in afghanistan",
                "missing school", "missing class", "missing work", "separated into",
                "separate cases",
                # the speaker alone, not a child
                "i go alone", "me alone", "go alone first",
            ),
        ),
        "taken": KindWords(
            alone=(
                "kidnapped", "kidnap", "kidnapping", "kidnaped", "abducted", "abduct",
                "taken by the taliban", "taken by taliban", "taken by talibs", "taken by them",
                "taken by armed", "taken by men", "taken away", "took away", "took him away",
                "took her away", "took them away", "dragged away", "arrested", "detained",
                "in custody",
            ),
            pairs=(
                Pair(who=(*_EN_FAMILY, "him", "her"), what=_EN_TOOK, span=10),
                Pair(
                    who=(
                        "taliban", "talib", "talibs", "men", "gunmen", "armed", "soldiers",
                        "fighters",
                    ),
                    what=_EN_TOOK,
                    span=10,
                ),
            ),
            calm=(
                "took him to", "took her to", "took them to", "took me to", "took us to", "i took",
                "we took", "taken to hospital", "taken to the hospital", "took a photo",
                "taken care", "took over", "taken over", "i picked", "we picked",
                # a place taken, not a person
                "took control", "taken control", "take control", "took power", "took the city",
                "took kabul", "took panjshir", "took the province", "captured kabul", "took out",
                "taken out", "took some out",
                "captured the city", "captured panjshir",
            ),
        ),
        "medical": KindWords(
            alone=(
                # unconscious, fainted, collapsed
                "fainted", "faint", "fainting", "unconscious", "unconcious", "passed out",
                "pass out", "not waking up", "won't wake up", "wont wake up", "doesnt wake up",
                "doesn't wake up", "can't wake", "cant wake", "cannot wake", "collapsed",
                "collapse", "lost consciousness", "not responding", "unresponsive",
                # wounds and bleeding
                "bleeding", "bleeds", "bleed", "bleding", "wounded", "injured", "injury",
                "injuries", "injuried", "shot in", "was shot", "got shot", "been shot", "is shot",
                "stabbed", "shrapnel", "broken leg", "broken arm", "broken bone", "broke his leg",
                "broke her leg", "broke his arm", "broke her arm", "fracture", "fractured",
                "head injury", "trampled", "crushed", "stampede", "losing blood", "lost blood",
                "lot of blood", "skin coming off", "hit by a car", "deep cut", "bad cut",
                "cut on his", "cut on her",
                "hit by a bullet", "bullet in his", "bullet in her", "bullet in the",
                "bullet wound", "got a bullet",
                # birth
                "in labour", "in labor", "labour pain", "labor pain", "contractions", "water broke",
                "waters broke", "water has broken", "giving birth", "give birth", "miscarriage",
                "baby is coming",
                # breath, heart, stroke, fits
                "heart attack", "stroke", "can't breathe", "cant breathe", "cannot breathe",
                "can not breathe", "not breathing", "hard to breathe", "difficulty breathing",
                "trouble breathing", "breathing problem", "short of breath", "asthma attack",
                "cant breath", "cannot breath", "not breath", "seizure", "convulsion", "fits",
                "chest pain", "heart problem", "choking", "choked", "tear gas", "allergic reaction",
                "food poisoning", "overdose", "turning blue", "lips are blue", "snake bite",
                "dog bite", "bitten by", "electric shock", "electrocuted",
                # very sick
                "dying", "critical condition", "high fever", "very high fever", "fever very high",
                "fever is very high", "high temperature", "temperature above", "temperature of 40",
                "bent the wrong way", "ran over him", "ran over her", "run over", "vomiting blood",
                "coughing blood", "heatstroke", "heat stroke", "sunstroke", "sun stroke",
                "dehydrated", "dehydration", "poisoned", "sugar low", "low sugar", "very sick",
                "very ill", "seriously ill", "badly hurt", "badly injured", "not moving",
                "can't move", "cant move", "cannot move",
                # care now
                "ambulance", "ambulence", "first aid", "medical help", "medical emergency",
                "need a doctor", "need doctor", "needs a doctor", "needs doctor", "anyone a doctor",
                "anyone medical", "any doctor here", "need medicine", "needs medicine",
                "need medication", "need insulin", "needs insulin", "need oxygen", "no medicine",
                "out of medicine", "out of insulin",
            ),
            pairs=(
                Pair(  # someone sick, in pain, fallen
                    who=(
                        *_EN_PEOPLE, "head", "leg", "arm", "hand", "foot", "face", "chest",
                        "stomach", "back", "heart", "eye", "eyes",
                    ),
                    what=(
                        "sick", "ill", "fever", "pain", "hurt", "hurting", "vomiting", "vomit",
                        "diarrhea", "diarrhoea", "breath", "breathing", "dizzy", "weak",
                        "not eating", "not drinking", "not eaten", "can't eat", "wound", "bandage",
                        "fell", "fall", "fell down", "accident", "shaking", "trembling", "sweating",
                        "pale", "sleepy", "burned", "burnt", "burns", "broken", "swollen", "poison",
                        "burning", "throwing up", "threw up", "swallowed", "in pain",
                    ),
                    span=10,
                ),
                Pair(  # care needed now
                    who=("need", "needs", "needed", "send", "call", "urgent", "asap", "quickly"),
                    what=(
                        "doctor", "docter", "medic", "nurse", "hospital", "clinic", "medical",
                        "dialysis", "surgery",
                    ),
                ),
                Pair(  # blood running
                    who=("blood",),
                    what=(
                        "a lot", "lots", "so much", "coming", "flowing", "everywhere", "won't stop",
                        "not stopping", "covered", "losing",
                    ),
                ),
                Pair(  # blood pressure, sugar
                    who=("blood pressure", "pressure", "sugar"),
                    what=("very high", "too high", "high", "very low", "too low", "dropped"),
                ),
                Pair(  # medicine run out
                    who=(
                        "insulin", "medicine", "medicines", "medication", "tablets", "pills",
                        "inhaler", "oxygen",
                    ),
                    what=("finished", "ran out", "run out", "no more", "none left", "no"),
                ),
                Pair(who=("water",), what=("broke", "broken"), span=10),  # in labour
            ),
            calm=(
                "sick of", "tired of", "doctor certificate", "doctor's certificate",
                "doctors certificate", "doctor's letter", "doctors letter", "doctor's note",
                "medical certificate", "medical visa", "medical document", "medical record",
                "medical report", "medical check", "medical exam", "medical test", "medical letter",
                "medical paper", "after the stampede", "since the stampede", "injured years ago",
                "wounded years ago", "injured in the war", "fell behind", "shot in the air",
                "fired in the air", "shooting in the air", "sick with a cold", "sick with cold",
                "a little sick", "bit sick", "nothing serious", "sick but", "wounded in the war",
                "medical form", "hospital document", "hospital letter", "hospital staff",
                "hospital worker", "am a doctor", "is a doctor", "was a doctor", "as a doctor",
                "am a nurse", "as nurse", "as a nurse", "work in a hospital",
                "worked in a hospital", "work at a hospital", "worked at the hospital",
                "is the hospital open", "pregnant women", "heart of", "emergency visa",
                "emergency number", "emergency passport", "emergency contact", "emergency line",
                "emergency exit", "in case of emergency", "not an emergency", "no emergency",
                "emergency evacuation", "hit by the news", "fall asleep", "fell asleep",
                "the fall of", "fall of kabul", "kabul fell", "weak signal", "weak connection",
                "heart broken", "heartbroken", "my heart", "our hearts", "breath of",
                "blood pressure medicine", "pressure medicine", "pressure tablets",
                "pressure pills", "blood test", "blood group", "blood type", "medicine in",
                "bring medicine", "carry medicine", "bring insulin", "carry insulin", "insulin on",
                "high school", "high commission", "high blood pressure", "low blood pressure",
                "pain in the neck", "need a doctor's certificate", "need a doctor's letter",
                "need a doctor's note", "battery is dying", "battery dying", "phone is dying",
                "dying to", "old injury", "old wound", "scar",
                "sick and tired", "need doctor s", "need a doctor s", "need doctors certificate",
                "need a doctor letter", "need a doctor note", "need a doctor certificate",
                "need doctor letter", "need doctor note", "need doctor certificate",
                "killed and wounded", "dead and wounded", "dead and injured", "killed and injured",
                "doctor appointment", "doctor s appointment", "doctors appointment", "visa medical",
                "medical for the visa", "medical for visa", "medical checkup", "after tear gas",
                "after the tear gas",
            ),
        ),
        "threat": KindWords(
            alone=(
                "so they dont find", "so they don't find", "so they do not find",
                "so they cannot find", "change houses", "changing houses", "where can i hide",
                "where do i hide", "where to hide", "need to hide", "have to hide",
                "wrote my name", "name on the wall", "have my file", "cannot go home",
                "cant go home", "can't go home", "outside with guns", "with their guns",
                "home addresses", "list of staff", "staff list",
                # threats: to kill, to punish, "we know where you live"
                "death threat", "threatened", "threatend", "threatening", "threaten", "threat",
                "night letter", "shabnama", "shab nama", "letter from the taliban",
                "letter from taliban", "traitor", "infidel", "spy", "spies", "collaborator",
                "will be punished", "or be punished", "or she will disappear",
                "or he will disappear", "or you will disappear", "want to kill", "wants to kill",
                "going to kill", "will kill",
                "kill me", "kill us", "kill you", "kill him", "kill her", "kill my", "killed my",
                "you are dead", "you will die", "execute", "executed", "murder", "behead",
                "cut my head", "cut his head", "cut her head", "cut your head", "cut off",
                "cut off my head", "know where you live", "know where i live", "will find you",
                "will find me", "in danger", "my life is in danger", "life is at risk",
                "life at risk", "lives at risk", "not safe here", "unsafe", "surrender", "summoned",
                "wanted by", "list of the taliban", "on their list", "on the taliban list",
                "blacklist",
                # armed men, a gun pointed
                "armed men", "armed man", "gunmen", "gunman", "men with guns", "man with gun",
                "man with a gun", "men with weapons", "armed taliban", "pointed a gun",
                "pointed guns", "pointed his gun", "pointing guns", "pointing a gun",
                "gun to my head", "gun on my", "gun on me", "gun at me", "gun at my", "gun at us",
                "over our heads",
                # beaten, whipped, tortured, questioned
                "beat me", "beat us", "beat him", "beat her", "beat my", "beat them", "beaten",
                "beating", "whipping", "whipped", "lashed", "hit me", "hit us", "hit my", "slapped",
                "punched", "attacked me", "attacked us", "attacked my", "tortured", "torture",
                "rape", "raped", "harassed", "assaulted", "interrogated", "interrogation",
                # followed, watched, looked for
                "following me", "following us", "following my", "followed me", "followed us",
                "followed my", "follow me", "follows me", "follows us", "follows my", "tailing",
                "chasing me", "chasing us", "chased us", "chased me", "watching our house",
                "watching my house", "watching me", "marked our house", "looking for me",
                "looking for us", "searching for me", "searching for us", "came for me",
                "coming for me", "coming for us", "asking about me", "asking for me",
                "asked about me", "have my photo", "have my picture", "my photo at",
                "asked for me", "by name", "asking for my", "asked for my", "come to check",
                "coming to check", "give himself up", "give yourself up", "give myself up",
                "hand himself over", "turn himself in", "turn yourself in",
                # a girl married by force
                "forced marriage", "force marry", "by force", "forcibly", "forced to marry",
                "marry my daughter", "take my daughter", "take our daughter", "take my sister",
                "as his wife", "they will take", "will take her", "will take him", "will take me",
                "will take us", "come to take", "coming to take", "want me to marry",
                "must marry", "marry a fighter", "force me to marry", "marry his son",
                # at the door, in the house; fled, hiding, cannot go out
                "searching our house", "searched our house", "search our house", "searching houses",
                "searched houses", "searched my home", "searched our home", "house to house",
                "house to house search", "door to door", "knocking on our door",
                "knocking at our door", "banging on our door", "banging on the door", "at our door",
                "at my door", "outside our house", "outside my house", "in front of our house",
                "came to our house", "came to my house", "come to our house", "fled our",
                "fled from", "had to run", "ran from our house", "hiding", "in hiding",
                "cant go outside", "cannot go outside", "cant leave the house",
                "cannot leave the house", "afraid to go out", "scared to go out",
                # shooting at people
                "shooting at us", "shooting at people", "shot at", "fired at us", "firing at us",
                "bullets hitting", "bullet hit",
            ),
            pairs=(
                Pair(  # armed men or strangers at home
                    who=_EN_ACTORS,
                    what=(
                        "door", "house", "home", "our street", "asking where", "asked where",
                        "our gate", "knocking", "knock", "banging", "bang", "surrounded",
                        "came to our", "came for", "coming for", "come for", "searching",
                        "searched", "hunting", "asked about", "asking about",
                        "asked the neighbours", "asked neighbours", "asking neighbours",
                        "asked the neighbors", "asking the neighbours", "will come back",
                        "come back for", "waiting outside", "waits outside", "parked outside",
                        "outside our", "watching",
                    ),
                    span=10,
                    of_things=False,
                    unless="taken",
                ),
                Pair(  # someone beaten, hurt, threatened
                    who=_EN_PEOPLE,
                    what=(
                        "beat", "hit", "kill", "killed", "slapped", "whip", "whipped", "punched",
                        "kicked", "tortured", "attacked", "threatened", "chase", "chased", "shoved",
                    ),
                    of_things=False,
                ),
                Pair(  # shooting near
                    who=(
                        "shooting", "shots", "gunfire", "firing", "gunshots", "bullets", "grenade",
                        "grenades",
                    ),
                    what=(
                        "near", "nearby", "close", "around us", "next to us", "just now",
                        "our house", "our street",
                        "our wall", "at us", "right now", "now", "hitting", "everywhere",
                        "on the ground", "lying", "hear", "hearing", "all night", "outside", "here",
                    ),
                    of_things=False,
                ),
                Pair(  # they know who you are, where you live
                    who=(
                        "we know", "they know", "know that", "we will find", "they will find",
                        "told them", "told the taliban", "told taliban", "told talib",
                    ),
                    what=(
                        "interpreter", "translator", "worked with", "worked for", "army",
                        "americans", "foreigners", "where you live", "where i live",
                        "where we live", "where i am", "where we are", "where you are", "nato",
                    ),
                    of_things=False,
                ),
            ),
            calm=(
                "my late", "late father", "late husband", "late brother",
                "near airport yesterday", "near the airport yesterday", "shots yesterday",
                "hunting gun", "hand in", "were killed in", "how many were killed",
                "how many killed", "killing time", "will not kill", "wont kill", "won't kill",
                "not kill anyone",
                "safe journey", "safe trip", "safe travels", "have a safe", "stay safe",
                "are you safe", "is it safe", "will it be safe", "safe to go", "safe to travel",
                "are we in danger", "will we be in danger", "beat the protesters",
                "the gate was attacked", "attack on the airport", "attack at the airport",
                "attack yesterday", "threat alert", "security threat", "threat of attack",
                "threat level", "door of", "closed the door", "door open", "door is open",
                "doors open", "separate door", "which door", "door on the", "go outside the",
                "outside the airport", "outside the gate", "outside kabul", "outside afghanistan",
                "outside the country", "taliban announced", "taliban said", "taliban government",
                "taliban amnesty", "taliban checkpoint", "taliban let", "taliban allow",
                "kill time", "beat the crowd", "hiding my documents", "hiding documents",
                "hide my documents", "searching for information", "search for flights",
                "searching for flights", "since the shooting", "since the firing",
                "since the gunfire", "after the shooting", "after the firing", "after the gunfire",
                "yesterday's shooting", "shooting yesterday", "firing yesterday",
                "killed in the explosion", "killed in the blast", "killed in the attack",
                "explosion killed", "blast killed", "attack killed", "people were killed",
                "people killed", "hit his head", "hit her head", "hit my head", "hit by",
                "shot in the", "was shot", "got shot", "been shot", "is killing me", "heard they",
                "heard that",
                # English words that read as a Dari form («فیر»-st: shooting)
                "first", "firstly",
                # a place closed, not gunfire close by
                "closed", "is it closed", "fire yesterday", "gunfire yesterday",
                # staying at home, not men at the door; cars searched at a checkpoint
                "searching cars", "searched cars", "searching the cars", "checking cars",
                "we are at home", "we are home", "i am at home", "im at home", "staying home",
                "staying at home", "stay home", "stay at home",
                # sent home from a checkpoint; a threat denied; a document hidden, not a person
                "go home", "told us go home", "told us to go home", "not a threat", "no threat",
                "need to hide my army", "need to hide my certificate", "need to hide my uniform",
                "need to hide my id", "need to hide my card", "need to hide my papers",
                "need to hide my documents", "need to hide my phone",
                # beating people in the news, not someone's own
                "beating people", "beating the people", "beat people", "beating protesters",
                "beating women",
            ),
        ),
    },
)  # fmt: skip

# Dari: Arabic script, then romanized -------------------------------------------------------------

_PRS_CHILDREN: Final = (
    "بچه", "بچیم", "بچم", "بچی", "بچکم", "بچا", "بچه ها", "پسر", "دختر", "طفل", "طفلک", "اطفال",
    "اولاد", "اولادا", "کودک", "کودکان", "نوزاد", "شیرخوار", "پسرک", "دخترک", "نواسه", "برادرزاده",
    "خواهرزاده",
    # romanized
    *_spellings(
        "{bacha,bache,bachem,bacham,bachim,bachaim,bachay,bachaha,bachaye,bachet,bachit}",
        "{pesar,pisar,pasar,pesaram,pisaram}", "{dokhtar,dukhtar,dokhtaram,dukhtaram,dokhtarem}",
        "{tifl,tefl,tiflem,tiflam,tifle,tefle}", "atfal", "{awlad,aulad,awlada,olad,olada}",
        "kudak", "{nawasa,nawasem}", "{baradar,beradar,biradar}zad{a,em,am}",
        "{khwahar,khahar,khwar}zad{a,em,am}", "{sheerkhor,shirkhor}",
    ),
)  # fmt: skip
_PRS_FAMILY: Final = (
    *_PRS_CHILDREN, "خانم", "شوهر", "همسر", "مادر", "پدر", "برادر", "بیادر", "خواهر",
    "مادرکلان", "پدرکلان", "مادر کلان", "پدر کلان", "بی بی", "بی بی جان", "کاکا", "ماما", "خاله",
    "عمه", "فامیل", "خانواده", "اقارب", "خسر", "خشو", "زنم", "آغا", "آبه", "بابا", "خواهرک", "عروس",
    "داماد", "نامزد", "ساله", "ایور", "بابه", "بابه کلان", "خسربره", "یازنه",
    "برار", "دوگانگی", "دوگانه",
    # romanized
    *_spellings(
        "{khanum,khanom,khanim,khanumam,khanumem}", "{shohar,shauhar,shuhar,shawhar}", "hamsar",
        "{madar,madaram,madarem}", "{padar,padaram,padarem,pedar,pedaram}",
        "{baradar,beradar,biradar,bradar,biadar,beadar}", "{khwahar,khahar,khwar,khwaharam}",
        "{famil,fameli,family,famili}", "khanawada", "{kaka,kakayem,kakaim}", "mama", "khala",
        "amma", "{madarkalan,padarkalan}", "{bibi,bibijan,bibi jan}", "zanam", "{aqareb,aqarib}",
        "agha", "baba", "{nomzad,namzad}", "sala", "{khosur,khusur,khosor,khashu,khoshu,khushu}",
        "{ewar,ewor,iwar}", "{bobo,boba}", "{berar,birar,barar,berarem}",
        "{dugangi,dogangi,dogana,dugana}", "{khoshwa,khushwa,khashwa}",
        "{dokhtarak,dukhtarak,pesarak,pisarak,bachak,tiflak}",
        # English words with Dari endings ("brother-am")
        "{brother,sister,son,daughter,husband,wife,mother,father,cousin,uncle,aunt}",
    ),
)  # fmt: skip
_PRS_PEOPLE: Final = (
    *_PRS_FAMILY, "من", "ما", "یکی", "یک نفر", "کسی", "مرد", "زن", "رفیق", "دوست", "همسایه",
    "حالم", "حالش", "خودم", "مردم", "موسفید", "ریش سفید", "پیرمرد", "پیرزن", "آدم", "او",
    "همکار", "حامله",
    # romanized
    "ma", "man", "mara", "mare", "yak nafar", "ye nafar", "kasi", "mard", "zan", "rafiq", "rafeq",
    "dost", "hamsaya", "halam", "halesh", "halish", "khodam", "khudam", "mardum", "mosafid",
    "musafid", "mosufed", "pirmard", "pirzan", "adam", "ou", "hamkar", "hamela", "hamila",
)  # fmt: skip
#: Someone not heard of: family, and the people one waits for beside them.
_PRS_AWAITED: Final = (
    *_PRS_FAMILY, "همکار", "رفیق", "دوست", "همسایه", "او", "hamkar", "rafiq", "rafeq", "dost",
    "hamsaya", "ura",
)  # fmt: skip
#: Taken away: «بردنش», «گرفتن».
_PRS_TOOK: Final = (
    "بردند", "بردن", "بردنش", "برده اند", "گرفتن", "گرفتند", "گرفتنش", "گرفتار شد", "گرفتار شده",
    *_spellings(
        "{griftar,greftar,giriftar,gereftar} {shud,shod,shuda,shoda}",
        "{burdan,bordan,burdand,bordand}", "{burdanesh,bordanesh}",
        "{greftan,gereftan,griftan,giriftan}", "{greftanesh,gereftanesh,griftanesh}",
    ),
)  # fmt: skip
#: Where a wound or a pain is: «پایش شکسته», «دستش درد میکنه».
_PRS_BODY: Final = (
    "پا", "دست", "بازو", "شانه", "کمر", "شکم", "سینه", "گردن", "چشم", "قلب", "سرش", "paya",
    "payesh", "paish", "dast", "bazu", "shana", "kamar", "shekam", "sina", "gardan", "cheshm",
    "qalb", "sarash", "saresh", "pai", "pay", "sar",
)  # fmt: skip

DARI_WORDS: Final = DangerWords(
    endings=(
        "", "م", "ت", "ش", "ام", "ات", "اش", "مان", "تان", "شان", "ها", "های", "هایم", "هایش", "ان",
        "ی", "یم", "یش", "یت", "یست", "ست", "ه", "ای", "اند", "ند", "ن", "ین", "ید", "د", "مه",
        "شه", "ته", "ا", "ایم", "ایش", "یمه",
        # romanized
        "i", "am", "em", "im", "om", "um", "esh", "ash", "ish", "ha", "haya", "hayam", "an", "en",
        "in", "on", "ast", "st", "e", "y", "m", "sh", "ye", "mo", "mu", "et", "at", "eshan", "ma",
        "ama", "ema", "a", "and", "ad", "ed", "id", "aim", "ayem", "aish", "yem", "ima", "aima",
        "yam", "yim", "yesh", "ya", "esha", "sha",
    ),
    things=(
        "پاسپورت", "تذکره", "تکت", "اسناد", "سند", "مدارک", "ویزه", "ویزا", "کارت", "مبایل",
        "موبایل", "تیلفون", "گوشی", "بکس", "پول", "ایمیل", "نامه", "نمبر", "کاغذ", "فورم",
        "سیم کارت", "کلید", "شناسنامه", "جواز", "دوسیه", "فایل", "امید", "نوبت", "لست", "درخواست",
        "سامان", "وسایل", "چمدان", "لپتاپ", "کمپیوتر", "انسولین", "تابلیت", "اسپری",
        # romanized
        "pasport", "passport", "tazkira", "tazkera", "taskira", "tikit", "ticket", "asnad", "sanad",
        "madarek", "visa", "viza", "waiza", "card", "kart", "mobile", "mobail", "telefon",
        "tilifon", "phone", "gushi", "baks", "bag", "pul", "paisa", "email", "nama", "number",
        "namber", "nambar", "kaghaz", "form", "sim", "kilid", "dosia", "dosiya", "file", "omid",
        "umid", "nobat", "list", "application", "saman", "laptop", "insulin", "tablet", "spray",
        "inhaler",
    ),
    kinds={
        "missing": KindWords(
            alone=(
                "طفل تنها", "بچه تنها", "بچه گمشده", "طفل گمشده", "طفل گم شده", "بچه گم شده",
                "کودک گم شده", "لادرک", "لا درک", "مفقود الاثر", "هیچ درکش نیست", "هیچ درکشان نیست",
                "از دستم کش شد", "از دستم کش شدن", "از دست ما کش شد", "از دستم رها شد",
                "از دستم خطا خورد", "از دستم گم شد", "هنوز پس نیامده", "هنوز پس نامده",
                "تا حالا پس نیامده", "تا حالی پس نامده",
                *_spellings(
                    "{tifl,bacha} tanha", "{gumshuda,gum shuda} {bacha,tifl}", "{ladarak,la darak}",
                    "hich {darkesh,darakesh,darkishan} {nest,nist,nes}",
                    "az {dastom,dastam} {kash,raha,khata} {shud,shod,shudan,shodan}",
                    "az {dastem,dast e ma} {kash,raha,khata} {shud,shod,shudan,shodan}",
                    "{hanuz,hanoz,ta hala} pas {namada,nayamada,naamada}",
                    "{dast,dast e} {dokhtarem,bachem,bacham,pesarem} {az dastem,} raha {shud,shod}",
                    "{zinda,zenda} {as,ast,hast} ya na", "{zinda,zenda} ya {murda,morda}",
                ),
                "زنده است یا نه", "زنده اس یا نه", "زنده یا مرده", "چطور پیدایش کنیم",
                "چطور پیدایشان کنیم",
                *_spellings("{chitor,chetor} {paidayesh,pedayesh,paidaish} {konem,konim}"),
            ),
            pairs=(
                Pair(  # someone lost, separated, not to be found
                    who=_PRS_FAMILY,
                    what=(
                        "گم", "گمشده", "غیب", "ناپدید", "مفقود", "لادرک", "پیدا نمیشه",
                        "پیدا نمیشود", "پیدا نمیتان", "پیدا نمیتوان", "پیدا نمیکن",
                        "پیدا کده نمیتان", "پیدا کرده نمیتان", "پیدا کرده نمیتوان",
                        "پیدایش کده نمیتان", "پیدایش کرده نمیتوان", "پیدایش نمیکن",
                        "پیدایشان نمیکن", "پیدا نکد", "پیدا نکرد", "پیدا نشد", "پیدا نشده",
                        "پیدا نشدن", "پیدا نشدند", "پیدایش نکد", "پیدایش نکرد", "جدا شد", "جدا شده",
                        "جدا شدیم", "جدا شدن", "جدا ماند", "جدا افتاد", "کش شد", "کش شدن",
                        "نمیبینمش", "نمیبینیمش", "عقب ماند", "پیدا نیست", "رها شد", "نمیدانم کجاست",
                        "نمیدانیم کجاست", "نمیدانه کجاست", "نمیدانم کجا", "نمیدانیم کجا",
                        "نمیدانه کجا", "نمیفامیم کجا", "نمیفامم کجا",
                        "معلوم نیست کجاست", "کجا بردن", "کجا میبرن", "همرای ما نیست",
                        "همرای ما نیس",
                        "پیش ما نیست", "با ما نیست", "کدام طیاره",
                        "نیافتیم", "نیافتم", "پیدایش نکدیم", "پیدایش نکردیم", "جدا کدن",
                        "جدا کردند", "جدا کردن", "نمیدانم حالی کجاست", "نمیدانم حالا کجاست",
                        "نمیفامم حالی کجاست", "دیگه نبود", "دیگر نبود", "ناپیدا", "پیدا نه شده",
                        "از دست دادم", "از دست دادیم",
                        *_spellings(
                            "{gum,gom,ghum}", "gumshuda", "{ghaib,ghayeb,ghayb,gheib}", "napadid",
                            "{mafqud,mafqod}", "{ladarak,ladarka}",
                            "{paida,payda,peyda,pyda} {namitan,nametan,nemitan,namitawan}",
                            "{paida,payda,peyda,pyda} {namitun,namesh,namish,nemesh,namishaw}",
                            "{paida,payda,peyda,pyda} {nameshaw,namekon,namekun,nashud}",
                            "{paida,payda,peyda,pyda} {nashod,nakad,nakard,nakadim,nakardim}",
                            "{paida,payda,paidayesh,paidaish} {karda,kada,kerda} {namitan,nametan}",
                            "{paida,payda} {karda,kada,kerda} {nemitan,namitawan}",
                            "{paidayesh,paidaish} {karda,kada,kerda} {nemitan,namitawan}",
                            "{paidayesh,paidash,paidaish} {namekon,namekun,nakad,nakard}",
                            "{joda,juda,jeda,jida} {shud,shod,shuda,shoda}",
                            "{joda,juda,jeda,jida} {shudim,shudem,shodim,shudan,mand}",
                            "{kash,raha} {shud,shod,shudan}",
                            "{namebinamesh,namebinemesh,namebinimesh}", "paida {nis,nist,nest}",
                            "{aqab,aghab} mand",
                            "{namedanom,namedanam,namedanem} {kuja,koja,kujast,kojast}",
                            "{namedanim,namidanam,namidanim,namedana} {kuja,koja,kujast,kojast}",
                            "{kuja,koja} {burdan,bordan,burdanesh,bordanesh,mebaran,mebaranesh}",
                            "{peda,pida} {namesha,nemesha,nameshe,nashud,nashuda,nashod,nist,nest}",
                            "{peda,pida} {namitan,nametan,nemitan,namekonem,nakadem,nakadim}",
                            "{dega,} {paida,payda} nashuda",
                            "{hamrai,hamray,ba} ma {nest,nist,nes}",
                            "{nayaftem,nayaftim,nayaftam,nayaftom}",
                            "{joda,juda,jeda,jida} {kadan,kardan,kadand,kardand}",
                            "{namedanom,namedanam,namedanem,namidanam,namefamem,namefamom}"
                            " {hala,hali,alan} {kuja,koja,kujast,kojast,kujas,kojas}",
                            "{dega,digar,dige} {nabud,nabod}", "{napaida,napeda,napayda}",
                            "{paida,peda,payda} na {shuda,shud,shoda,shod}",
                            "az dast {dadom,dadam,dadem,dadim}",
                            "{lawdarak,lahdarak,la darak}",
                        ),
                    ),
                    span=12,
                ),
                Pair(  # someone not heard of, seen or back since (beside a wound: not responding)
                    who=_PRS_AWAITED,
                    what=(
                        "نیامده", "نامده", "نامد", "نیامد", "پس نیامد", "برنگشته", "برنگشت",
                        "خبر نداریم", "خبر ندارم", "خبری نداریم", "خبری نیست", "خبر نیست", "بی خبر",
                        "بیخبر", "هیچ خبر", "درکش نیست", "درک نداریم", "هیچ معلومات", "تماس نداره",
                        "تماس ندارد", "تماس نمیگیره", "هیچ تماس", "جواب نمیته", "جواب نمیده",
                        "جواب نمیدهد", "خاموش", "کسی ندیده", "هیچکس ندیده", "هیچ اثر", "اثری نیست",
                        "تماس گرفته نمیتان", "تماس گرفته نمیشه", "ره دیده", "اطلاع نداریم",
                        "اطلاعی نداریم", "هیچ اطلاع", "نمیفهمیم کجا", "نمیفامیم کجا", "بیرون نشد",
                        "تماس ما قطع", "تماس قطع", "تیلفون خوده جواب", "تیلفونشه جواب",
                        "تیلفون ره جواب", "را دیده", "کس ندیده", "ندیده", "ندیده شان", "ندیدیمش",
                        "ندیدمش", "آخرین بار", "نرسیده", "نرسید", "خانه نیست", "خانه هم نیست",
                        "خانه نیامده", "جواب نمیتن", "جواب نمیدن", "جواب نمیدهند", "جواب نداده",
                        "تیلفونشه نمیگیره", "تیلفون نمیگیره", "تیلفونش خاموش", "تیلفونش بند",
                        "موبایلش خاموش", "کسی نمیگه", "هیچکس نمیگه", "هیچ کس نمیگه",
                        "هیچ کس نمیدانه", "هیچکس نمیدانه", "نمیگه کجا", "نمیفامه کجا",
                        "نمیفامم کجا", "پس نیاورده", "پس نیاورد", "خبر ازش نداریم",
                        "ازش خبر نداریم",
                        "تیلفون نکده", "تیلفون نکرده", "زنگ نزده", "رسیده نمیتان",
                        *_spellings(
                            "{nayamada,nayamade,namada,namade,namad,nayamad,naamada,naamad}",
                            "pas {namad,nayamad,naamad}", "{barnagashta,barnagasht}",
                            "{nadida,nadeda}", "khabar {nadarim,nadarem,nadaram,nadarom}",
                            "{hich,hech} khabar", "khabar {nest,nist,nes}", "{bekhabar,be khabar}",
                            "{darkesh,darakesh} {nest,nist,nes}", "darak {nadarim,nadarem}",
                            "{hich,hech} {malumat,maloomat}",
                            "{contact,tamas} {nadara,nadare,nadarad,namegira}",
                            "hich {contact,tamas}", "jawab {namete,namede,namedeh,namedehad}",
                            "khamosh", "{kas,kasi,hichkas,hech kas} {nadida,nadeda,nadida eshan}",
                            "{nadidomesh,nadidemesh,nadidimesh}", "{akhirin,akherin} bar",
                            "hich {asar,asari}", "asari {nest,nist}",
                            "{etela,ettela,itila} {nadarem,nadarim}",
                            "{namefamem,namefahmem,namifahmim} {kuja,koja}",
                            "berun {nashud,nashudan}", "{tamas,contact} {e,} ma {qata,qat}",
                            "{telefonesha,telefon e khoda} jawab",
                            "{tamas,contact} {grefta,gerefta} {namitan,nametan,namesha}", "ra dida",
                            "{narasida,narasid,naresida}",
                            "{khana,khanash,khanesh} {ham,} {nest,nist,nes}",
                            "jawab {nadada,nadade,nadad,nametan,namedan}",
                            "{telefonesh,telefunesh,tilifonesh,mobilesh} {khamosh,off,band}",
                            "{telefon,zang} {nakada,nakarda,nazada}",
                            "{kas,kasi,hichkas} {namega,namegoya}",
                            "{kase,kasi} bardar {nemekona,namekona}",
                            "pas na {amada,amad,omada,omad,amade}",
                        ),
                    ),
                    span=12,
                    unless="medical",
                ),
                Pair(  # someone looked for, unless those looking are the threat
                    who=_PRS_FAMILY,
                    what=(
                        "پالیدم", "پالیدیم", "میپالیم", "می پالیم", "هر طرف پالید", "هر جا پالید",
                        "دنبالش میگردیم", "پشتش میگردیم", "میگردیم", "می گردیم", "گشتیم",
                        "چطور پیدایش کنیم", "چطور پیدا کنیم", "چطور پیدایشان کنیم",
                        *_spellings(
                            "{palidom,palidam,palidim,palidem}",
                            "{mepalim,mepalem,me palim,me palem,har taraf palid}",
                            "{megardim,megardem,migardim}", "gashtim",
                            "{chitor,chetor} {peda,paida} {konem,konim,kunem}",
                        ),
                    ),
                    unless="threat",
                ),
                Pair(
                    who=_PRS_FAMILY,
                    what=(
                        "کجاست", "کجاس", "کجا است", "کجا اس", "کجا هست",
                        *_spellings("{kujast,kojast,kujas,kojas}", "{kuja,koja} {ast,as,hast}"),
                    ),
                    span=3,
                    unless="threat",
                ),
                Pair(  # a child alone
                    who=(
                        *_PRS_CHILDREN, "بچه خورد", "دختر خورد", "پسر خورد",
                        *_spellings("{bacha,dokhtar,dukhtar,pesar} {khord,khurd}"),
                    ),
                    what=(
                        "تنها", "تنهاست", "بی سرپرست", "بی کس", "بدون فامیل", "بدون پدر و مادر",
                        "فامیلش نیست", "فامیلش اینجا نیست", "پدر و مادرش نیست",
                        *_spellings(
                            "{tanha,tanhast}", "{be,bi} {sarparast,kas}",
                            "{bedun,bidun} {famil,family}",
                            "{familyesh,familesh,famil esh} {nest,nist,inja nest,inja nist}",
                            "padar o madaresh {nest,nist}",
                        ),
                    ),
                    span=10,
                ),
            ),
            calm=(
                "تنها سفر", "تنها برود", "تنها بروم", "تنها رفته", "دنبال پرواز", "دنبال معلومات",
                "دنبال ویزه", "دنبال کار", "کجاست دروازه", "دروازه کجاست", "دفتر کجاست",
                "میدان هوایی کجاست", "کابل تنها", "تنها با دو", "تنها با سه", "تنها با اولاد",
                "تنها با اطفال", "تنها با بچه",
                "خودم تنها", "تنها خودم", "من تنها", "خود تنها", "دیده میتانم", "دیده میتوانم",
                "ورنه گم", "وگرنه گم", "تنها تذکره", "فقط تذکره",
                "دیده میتانیم",
                *_spellings(
                    "tanha {safar,bora,borah,rafta}",
                    # a mother alone with her children, not a child alone
                    "tanha {ba,hamrai} {do,se,chahar,char,awlad,atfal,bachaha,bachaim}",
                    "{donbal,dunbal} {e,} {parwaz,kar,malumat}",
                    "{kujast,kuja as} darwaza", "darwaza {kujast,kuja as}",
                    "daftar {kujast,kuja as}", "kabul tanha",
                    "{khodem,khodam,khudam,khudem,man} tanha", "tanha {khodem,khodam,khudam}",
                    "{dida,deda} {metanom,metanam,metanem,metanim}", "{warna,wagarna} {gum,gom}",
                    "{tanha,faqat} {tazkira,tazkera}",
                ),
            ),
        ),
        "taken": KindWords(
            alone=(
                "اختطاف", "ربودند", "ربوده", "بازداشت", "دستگیر", "گرفتار کردند", "گرفتار کدن",
                "زندانی کردند", "زندانی کدن", "طالبان بردند", "طالبا بردن", "بردند طالبان",
                *_spellings(
                    "{ekhtetaf,ikhtetaf,ikhtitaf,ekhtitaf}", "{rabudand,rabuda}", "bazdasht",
                    "dastgir", "{griftar,greftar,giriftar} {kadan,kardan}",
                    "zindani {kadan,kardan}", "{taliban,taliba} {burdan,bordan}",
                ),
            ),
            pairs=(
                Pair(who=_PRS_FAMILY, what=_PRS_TOOK, span=10),
                Pair(
                    who=(
                        "طالبان", "طالبا", "طالب", "مسلح", "تفنگدار", "مردا", "آدما", "آدمای",
                        "چند نفر",
                        *_spellings(
                            "{taliban,taliba,taleban,talib}", "{mosalah,musallah,tofangdar}",
                            "{marda,adama,adamay}", "chand nafar",
                        ),
                    ),
                    what=_PRS_TOOK,
                    span=10,
                ),
            ),
            calm=(
                "بردنش اجازه", "بردن اجازه", "بردن شان اجازه", "آتش گرفت",
                "پنجشیر را گرفتن", "پنجشیر ره گرفتن", "کابل را گرفتن", "کابل ره گرفتن",
                "ولایت را گرفتن", "ولایت ها را گرفتن", "شهر را گرفتن", "کنترول را گرفتن",
                "کنترول ره گرفتن", "قدرت را گرفتن", "قدرت ره گرفتن",
                *_spellings(
                    "{burdan,bordan}{,esh} {ejaza,ijaza}",
                    "{atash,atesh} {gereft,greft,grefta,gerefta}",  # caught fire
                    "{panjshir,panjsher,kabul,welayat,wilayat,shahr,kontrol,control,qodrat}"
                    " {ra,re,} {gereftan,greftan,giriftan}",
                ),
            ),
        ),
        "medical": KindWords(
            alone=(
                "آبش پاره", "آب خواهرم پاره", "آب زنم پاره", "آب خانمم پاره", "مرمی به پایش",
                "مرمی به پای", "مرمی به دستش", "مرمی به سرش",
                # unconscious, fainted
                "بیهوش", "بی هوش", "بیهوشی", "ضعف کرد", "ضعف کده", "ضعف کرده", "غش کرد", "غش کده",
                "غش کد",
                "غش کرده", "بیدار نمیشه", "بیدار نمیشود", "بیدار نمیشد", "به هوش نمیایه",
                "به هوش نمی آید", "هوش نمیایه", "تکان نمیخوره", "تکان نمیخورد", "حرکت نمیکنه",
                "حرکت نمیکند",
                # wounds and bleeding
                "زخمی", "زخم", "خونریزی", "خون ریزی", "خون میره", "خون می ره", "خون میرود",
                "خون میایه", "خون میاد", "خون می آید", "خون میاید", "مرمی خورده", "مرمی خورد",
                "تیر خورده", "تیر خورد", "گلوله خورده", "چاقو خورده", "چاقو زدند", "پارچه مرمی",
                "پارچه بم", "زیر پا شد", "زیر پای مردم", "زیر پا ماند", "لگدمال", "سوختگی",
                # birth
                "درد زایمان", "زایمان", "دردش گرفته", "درد ولادت", "وقت ولادت", "ولادتش",
                # breath, heart
                "سکته", "سکته قلبی", "حمله قلبی", "نفس کشیده نمیتان", "نفس کشیده نمیتوان",
                "نفس گرفته نمیتان", "نفس نمیکشه", "نفس نمیکشد", "نفسش بند", "نفس تنگی", "نفسش تنگ",
                "تنگی نفس",
                # very sick
                "حالش خراب", "حالش خیلی خراب", "حالش بسیار خراب", "حالش بد", "حالش خیلی بد",
                "حالم خراب", "حالم بد", "در حال مرگ", "جان میته", "جان میدهد", "جان می دهد",
                "میمیره", "می میره", "میمیرد", "می میرد", "تب بلند", "تب شدید", "تب زیاد",
                "استفراغ خون", "شوک", "قندش پایین", "شکرش پایین", "گاز اشک آور", "مرگی گرفته",
                "مرگی کرد", "مرگی کده", "حمله مرگی", "قورت کده", "مسموم", "مار گزیده", "سگ گزیده",
                "برق گرفته", "گرمی زده", "آفتاب زده", "گرمازدگی", "گرما زدگی", "حساسیت شدید",
                "پارچه خورده", "پارچه خورد", "درد شروع", "دردش شروع", "خون میبینه", "خون میبیند",
                "کف از دهن", "گپ زده نمیتان", "رویش کج", "زایید", "راه رفته نمیتان",
                # care now
                "امبولانس", "آمبولانس", "کمک های اولیه", "کمک اولیه", "حالت اضطراری",
                "کمک صحی فوری", "عاجل داکتر", "داکتر عاجل", "داکتر فوری", "فوری داکتر", "زود داکتر",
                "کسی داکتر", "کس داکتر", "داکتر میخواهیم", "داکتر میخایم",
                *_spellings(
                    "{behosh,be hosh,bihosh,bi hosh,behush,be hush}",
                    "{zaf,zaaf,za'f} {kad,kard,karda,kada}", "{ghash,ghas} {kad,kard,karda,kada}",
                    "{bedar,bidar,bedaar} {namesha,nameshe,nameshawad,namishe,namisha}",
                    "ba hosh {nameya,namiaya,nameyaya}", "takan {namekhora,namikhora,namekhura}",
                    "harakat {namekona,namekuna,namikona,namekonad}", "{zakhmi,zakhm}",
                    "{khunrezi,khunrizi,khun rezi,khun rizi}",
                    "{khun,khon} {mera,meraw,mere,meya,meyaya,miyaya,miaya,meyad,ziad,ziyad,zyad}",
                    "{marmi,tir,goloula,golula} {khorda,khord,khurda}",
                    "{chaqu,chaqo} {khorda,zadan}", "zer e {pa,pai} {shud,mand,mardum}",
                    "{zer pa,zer pai} {shud,mand}", "dard e {zaiman,zayman,welladat,wiladat}",
                    "{zaiman,zayman}", "{dardesh,dardish} {grefta,gerefta,girifta}",
                    "{waqt,wakht} e {welladat,wiladat,weladat}{,esh}", "{sakta,sekta}",
                    "{sakta,sekta} {kada,karda,kad,kard}", "{hamla,sakta} {e,} {qalbi,qalb}",
                    "gaz {e,} ashk {awar,aawar}", "margi {grefta,kad,kada}", "{garmi,aftab} zada",
                    "{masmum,masmoom}", "{mar,sag} {gazida,gazeda}", "barq {grefta,gerefta}",
                    "nafas {kashida,gerefta,grefta} {namitana,nametana,namitanad,namitawanad}",
                    "nafas {namekasha,namikasha,namekashad}", "{nafasesh,nafasish} {band,tang}",
                    "nafas tangi", "tangi nafas", "{parcha,parchah} {khorda,khord}",
                    "{dard,dardesh} {shuru,shoro}", "{khun,khon} {mebina,mebinad}",
                    "{kafk,kaf} az {dahanesh,dahan}", "{mirgi,mergi}", "{zayid,zaid}",
                    "{gap,harf} zada {namitana,nametana,nemetana}", "{ruyesh,royesh} kaj",
                    "{namitana,nametana,nemetana} {raah,rah}",
                    "{raah,rah} rafta {namitana,nametana}",
                    "{zir,zer} {e,} {pa,pai} {shud,mand}", "nafas {kashida,gerefta} nemetana",
                    "nafas {nemekasha,nemikasha}", "khun band {nemesha,namesha}",
                    "{halesh,halish,halam} {kharab,bad,besyar kharab,khaili kharab}",
                    "dar hal {e,} marg", "jan {meta,medehad,medeh}", "{memira,memera,memirad}",
                    "tab {e,} {baland,boland,shadid,ziad}", "{estefragh,istifragh} {e,} khun",
                    "shok", "{ambulans,ambulance,amblans}", "komak {e,} {awalia,awaliya}",
                    "{ajel,fawri,fori,zud} {daktar,doctor,doktar}",
                    "{daktar,doctor} {ajel,fawri,fori}", "{kas,kasi} {daktar,doctor}",
                    "{daktar,doctor} {mekhayem,mekhaim,mekhahim}",
                ),
            ),
            pairs=(
                Pair(  # someone sick, in pain, fallen
                    who=(*_PRS_PEOPLE, *_PRS_BODY),
                    what=(
                        "مریض", "مریضی", "بیمار", "ناجور", "ناجوره", "جور نیست", "تب", "درد",
                        "استفراغ", "قی", "اسهال", "ضعیف", "سست", "خواب آلود", "بی حال", "بیحال",
                        "افتاد", "افتیده", "افتاده", "سرچرخی", "لرزه", "عرق", "شکسته", "سوخته",
                        "چیزی نمیخوره", "هیچ چیز نمیخوره", "رنگش زرد", "عفونت", "زخم", "تصادف",
                        "از درد", "حادثه", "پندیده", "ورم", "کفیده", "چشمایش بسته", "چشمش بسته",
                        "خون",
                        *_spellings(
                            "{mariz,mareez,marizi}", "bimar", "{najor,najora}", "jor {nest,nist}",
                            "{tab,taba}", "dard", "{estefragh,istifragh}", "qai",
                            "{eshal,ishal,ishaal}", "{zaif,zaef,zayif}", "{sust,sost}",
                            "{khaw,khab} {alud,alod}", "{be hal,bihal,behal}",
                            "{aftad,oftad,aftid,aftida,oftida,aftada}", "sar {charkhi,charkh}",
                            "{larza,lerza}", "araq", "{shikasta,shekasta}", "{sokhta,sukhta}",
                            "chizi {namekhora,namikhora}", "{rangesh,rangish} zard",
                            "{ufunat,ofunat}", "{tasadof,tasaduf}", "{hadesa,hadisa}",
                            "{shikast,shekast}", "{kafid,kafida,kafeda}", "{pundida,pondida,warm}",
                            "{cheshmayesh,cheshmesh} basta",
                        ),
                    ),
                    span=10,
                ),
                Pair(  # care needed now
                    who=(
                        "کار داریم", "کار دارم", "کار داره", "کار است", "کار اس", "ضرورت", "لازم",
                        "روان کنین", "روان کنید", "بفرستین", "بفرستید", "عاجل", "فوری",
                        *_spellings(
                            "kar {darem,darim,daram,darom,dara,ast,as}", "{zarurat,zaroorat}",
                            "lazem", "{rawan,rawaan} {konen,konin,konid,kunen,kunin}",
                            "{befrestin,befresten,bifrestin}", "{ajel,fawri,fori}",
                        ),
                    ),
                    what=(
                        "داکتر", "دکتر", "شفاخانه", "دوا", "کلینیک", "کمک صحی", "دیالیز", "انسولین",
                        "اکسیجن", "جراحی", "عملیات",
                        *_spellings(
                            "{daktar,doktar,dacter,doctor}", "{shifakhana,shafakhana}", "dawa",
                            "{klinik,clinic}", "{dializ,dialysis}", "insulin",
                        ),
                    ),
                ),
                Pair(  # blood running
                    who=("خون", "khun", "khon"),
                    what=(
                        "میره", "میرود", "می ره", "میایه", "میاد", "می آید", "میاید", "زیاد",
                        "بند نمیشه", "بند نمیشود", "جاری", "روان",
                        *_spellings(
                            "{mera,meraw,mere,meya,meyaya,miyaya,miaya,meyad}", "{ziad,ziyad,zyad}",
                            "band {namesha,nameshe}", "jari",
                        ),
                    ),
                ),
                Pair(  # blood pressure, sugar
                    who=(
                        "فشار", "فشار خون", "قند", "شکر",
                        *_spellings("{fishar,feshar}", "qand", "shakar"),
                    ),
                    what=(
                        "بالا رفته", "بالا رفت", "خیلی بالا", "بسیار بالا", "پایین آمده",
                        "پایین رفته",
                        "پایین افتاده",
                        *_spellings(
                            "bala {raft,rafta,rafte}", "{besyar,khaili,khele} bala",
                            "{payin,paein} {amada,rafta}",
                        ),
                    ),
                ),
                Pair(  # medicine run out
                    who=(
                        "انسولین", "دوا", "دوای", "تابلیت", "گولی", "اسپری", "اکسیجن",
                        *_spellings(
                            "{insulin,ensulin}", "{dawa,dawai}", "{tablet,tabletaish}",
                            "{spray,asprey}", "{oxygen,aksijan}",
                        ),
                    ),
                    what=(
                        "خلاص", "تمام شده", "ختم", "نیست", "نداره", "نداریم",
                        *_spellings(
                            "khalas", "tamam shuda", "khatm", "{nest,nist}",
                            "{nadara,nadarem,nadarim}",
                        ),
                    ),
                ),
                Pair(  # in labour: her water broke
                    who=(
                        "آبش", "آبم", "آب خانم", "آب زن", "آب همسر",
                        *_spellings("{abesh,abish,abam}", "ab e {khanum,khanom,zan,hamsar}"),
                    ),
                    what=(
                        "رفت", "رفته", "ریخت", "ریخته", "پاره",
                        *_spellings("{raft,rafta}", "{rekht,rikht}{,a}"),
                    ),
                    span=10,
                ),
            ),
            calm=(
                "تصدیق داکتر", "تصدیق صحی", "سند صحی", "اسناد صحی", "ویزه صحی", "ویزه طبی",
                "فشار خون داره", "فشار خون دارد", "فشار خون دارن", "بعد از گاز اشک آور",
                "به درد ما خورد", "به درد خورد", "بدرد خورد", "به دردم خورد",
                "مریض قلبی است", "مریض قلبی اس", "سقوط کابل", "کابل سقوط", "کشته و زخمی",
                "کشته ها و زخمی ها", "کشته و زخمی ها",
                *_spellings(
                    "{feshar,fishar} {e,} {khun,khoon} {dara,darad,daran}",
                    "bad az gas {e,} {ashkawar,ashk awar}", "{mariz,marize} {e,} qalbi {as,ast}",
                ),
                "اسناد شفاخانه", "کارمند شفاخانه", "داکتر هستم", "داکتر استم", "داکتر بودم",
                "داکتر است", "داکتر هست", "من داکتر", "در شفاخانه کار", "کارمند صحی", "انتظار مریض",
                "مریض شدم از", "مریض شدیم از", "مریض است ولی", "مریض اس ولی", "دلم", "زن حامله",
                "زنان حامله", "مرمی خورده بود", "تیر خورده بود", "زخمی شده بود", "تصدیق معلولیت",
                "سالها پیش زخمی", "قلب ما", "جور هستیم", "جور استیم", "تصدیق تولد", "درد سر",
                "دوای فشار", "دوای شکر", "دوای قند", "تابلیت فشار", "فشار مردم", "فشار بلند",
                "دست دوم", "دستی",
                "زخم کهنه", "داغ زخم", "تب داشت", "خوب شده", "جور شده",
                *_spellings(
                    "{tasdiq e,tasdiqe,tasdiq} {daktar,doctor,sehi,tawalod,tawalud}",
                    "{sanad e,sanade,sanad} sehi", "{zakhmi,zakhm} {shuda,shoda} bud",
                    "{daktar,doctor} {hastam,astam,astom,budam,budom,as,ast,hast}",
                    "man {daktar,doctor}", "dar {shifakhana,shafakhana} kar", "karmand {e,} sehi",
                    "intezar {mariz,bimar}", "mariz {ast,as} {wali,magar}", "{dilam,delam}",
                    "jor {hastim,astim,astem}",
                    "{dawai,dawa,dawaye} {e,} {feshar,fishar,shakar,qand}",
                    "{dasti,dast e dovom}", "{feshar,fishar} {e,} {baland,boland}",
                    "{zakhm,zakhme} {e,} {kohna,kuhna}", "tab dasht", "{khub,jor} {shuda,shoda}",
                    "{gum,gom} {shuda,shoda} bud", "pas amad",
                ),
            ),
        ),
        "threat": KindWords(
            alone=(
                "پیدایت میکنیم", "پیدایت می کنیم", "کجا پت شوم", "کجا پنهان شوم", "پت شوم",
                "پت استیم", "پنهان شدیم", "خانه بدل میکنیم", "هر شب خانه", "هر شب جای",
                "نامم را به دیوال", "نام مرا به دیوال", "نامم را نوشتن", "دوسیه‌ام پیش",
                "سراغش را میگیرن", "سراغم را میگیرن", "لست طالبان", "لیست طالبان", "دنبال ما استن",
                "دنبالم استن", "دروازه را میشکنند", "دروازه را میشکنن", "دروازه ره میشکنن",
                *_spellings(
                    "darwaza {ra,re} {meshkanan,meshkanand,meshkanen}",
                    "{paidat,paydat} {mekonem,mekonim}", "{khana,khane} {pali,palee}",
                    "{latt,lat} {kadan,kardan,kadand}", "{dunbal,donbal} e ma",
                    "{sorogh,soragh,surogh} {em,esh} ra {megiran,megirand}",
                    "{list,lest} e {taliba,taliban}", "{har,hara} shab ja badal",
                    "{shoharet,shoharit} kuja",
                ),
                # threats: to kill, to punish, "we know where you live"
                "تهدید", "تهدیدم", "تهدید به مرگ", "تهدید کردند", "تهدید کدن", "تهدید میکنن",
                "شب نامه", "شبنامه", "خط طالبان", "نامه طالبان", "خاین", "خائن", "غدار", "جاسوس",
                "کافر", "جزا میبینین", "جزا میبینید", "جزا میدیم", "جزا میدهیم", "سزا میدیم",
                "میکشن", "می کشن", "میکشند", "می کشند", "بکشند", "بکشن", "میکشیمت", "میکشیم",
                "میکشیمش", "میکشنت", "کشته میشی", "کشته میشوی", "کشته میشین", "به قتل", "اعدام",
                "سرته میبر", "سرت ره میبر", "سرشه میبر", "سرش ره میبر", "سر میبرن", "باز میاییم",
                "دوباره میاییم", "باز میایم", "میاییم سراغ", "سراغت", "میدانیم کجا زندگی",
                "امنیت ندارم", "امنیت نداریم", "در خطر", "ده خطر", "جانم در خطر", "جان ما در خطر",
                "خطر جانی", "تسلیم نکنی", "تسلیم نکنه", "خوده تسلیم", "خود را تسلیم",
                "به زور میبرن", "به زور میبرنش", "نام مره گرفته", "از مه پرسان", "از من پرسان",
                "به طالب میتم", "به طالبا میتن", "به جنگجو", "قفل استم", "قایم شدیم", "قایم استیم",
                "جای خوده بدل", "تیراندازی نزدیک",
                *_spellings(
                    "taslim {nakonom,nakonam,nakoni,nakona,nakoned}", "khodem ra taslim",
                    "{ba,be} zor {mebaran,mebaranesh,mebarand}", "az man {pursan,porsan}",
                    "{pursan,porsan} {mekard,mekad,mekona,mekonan} az",
                    "{taq taq,taqtaq,tak tak} {mekona,mekonan,mekunan}", "darwaza ra {taq,tak}",
                    "{ma ra,mara} {pal,pali} {mekonan,mekunan}",
                    "{ja,jai} ra badal {mekonem,mekonim}",
                    "{ba,be} {talib,taliba} {metam,metan,betan}", "{qulf,qufl} {astom,astam}",
                ),
                *_spellings(
                    "{tahdid,tehdid}", "{tahdidam,tahdidom}", "{tahdid,tehdid} ba marg",
                    "{tahdid,tehdid} {kadan,kardan,mekonan,mekunan}", "{shabnama,shab nama}",
                    "{khain,khaen,ghadar,jasus,jasoos}", "kafer",
                    "jaza {mebinen,mebinin,mebinid,medem,medehem}",
                    "{mekoshan,mekushan,mekushand,mekoshand}",
                    "{mekoshem,mekushem,mekoshemet,mekushemet,mekoshanet}",
                    "{bokoshan,bukushan,bokoshand}", "{koshta,kushta} {meshi,mishi,meshawi,meshen}",
                    "ba qatl", "{edam,iedam}",
                    "{sareta,sarta,sarat ra,saresha,saresh ra} {meburem,meborem,meboran,meburan}",
                    "{baz,dobara,bas} {meyayem,meyaim,miayim,meyam}", "{soraghet,suraghet}",
                    "{medanem,medanim} {kuja,koja} {zendagi,zindagi}",
                    "{amniat,amniyat,amnyat} {nadaram,nadarim,nadarem}", "{dar,da} khatar",
                    "{janam,jan e ma} {dar,da} khatar", "khatar {e,} jani",
                ),
                # armed men, a gun pointed
                "مسلح", "افراد مسلح", "آدمای مسلح", "تفنگدار", "تفنگ ره سر", "تفنگ را سر",
                "تفنگ ره بالای", "تفنگ را بالای", "تفنگ ره طرف", "قنداق",
                *_spellings(
                    "{mosalah,musallah,mosallah,musalah,mosalla}", "{tofangdar,tufangdar}{,a}",
                    "{tofang,tufang} ra {sar,bala,balai,taraf}", "{qondagh,qundagh,qondaq}",
                ),
                # beaten, whipped, tortured, questioned
                "لت و کوب", "لت کدن", "لت کردند", "لتش کدن", "لتم کدن", "مرا زدند", "مره زدن",
                "مره هم زدن", "مارا زدند", "زدنش", "سیلی", "قمچین", "شلاق", "شکنجه", "تجاوز",
                "بازجویی", "مرا بگیرن", "مره بگیرن",
                *_spellings(
                    "lat o kob", "lat u kob", "{lat,latam,latesh,latish} {kadan,kardan}",
                    "{mara,mare,ma ra,mare ham,mara ham} {zadan,zadand}", "zadanesh", "sili",
                    "{qamchin,qamchi}", "shalaq", "{shikanja,shekanja}", "{tajawoz,tajawuz}",
                    "{bazjoi,bazjui}", "{mara,mare} {begiran,begirand}",
                ),
                # followed, watched, looked for
                "تعقیب", "تعقیبم", "پشتم میایه", "پشتم میاین", "پشت ما میایه", "پشت موتر", "دنبالم",
                "دنبال ما", "سراغم", "سراغ ما", "پشتم میگردن", "پشت ما میگردن", "مرا می پالن",
                "عکسم پیش", "عکس مرا", "زیر نظر",
                *_spellings(
                    "{taqib,taqeeb}", "{pushtem,poshtem,pushtam} {meya,meyan,megardan}",
                    "{pusht,posht} e {motar,motor}", "{donbalam,dunbalam,donbale ma,dunbal ma}",
                    "{soraghem,suraghem,soragh ma}", "{aksem,aksam} {pesh,pish}",
                    "{zer,zir} {e,} nazar",
                ),
                # a girl married by force
                "به زور نکاح", "به زور عروسی", "نکاح اجباری", "ازدواج اجباری", "عروسی اجباری",
                "به زور میگیر", "به زور میبر", "دختر ما ره میبر", "دخترمه میبر",
                *_spellings(
                    "ba zor {nekah,nikah,arusi,arosi}", "{nekah,nikah,arusi} {e,} {ejbari,ijbari}",
                    "ba zor {megirom,megiram,mebarom}",
                ),
                # at the door, in the house; fled, hiding, cannot go out
                "خانه تلاشی", "تلاشی خانه", "تلاشی میکنن", "تلاشی کدن", "تلاشی کردند",
                "خانه به خانه", "خانه ما آمدند", "خانه ما امدن", "دروازه ره میکوبن",
                "دروازه را میکوبند", "دروازه ره میزنن", "دروازه را میزنند", "دروازه ره تک تک",
                "تک تک میکن", "میکوبن", "میکوبند", "دروازه ره شکست", "دروازه را شکست", "شکستاندن",
                "فرار کدیم", "فرار کردیم", "پت شده", "پت شدیم", "پت استیم", "پت استم", "پت هستیم",
                "پنهان شدیم", "پنهان هستیم", "پنهان استیم", "از خانه بیرون شده نمیتان",
                "بیرون شده نمیتان", "بیرون رفته نمیتان",
                *_spellings(
                    "{talashi khana,khana talashi}", "talashi {mekonan,mekunan,kadan,kardan}",
                    "khana ba khana", "{khana,khanai,khanaye} ma {amadan,omadan}",
                    "darwaza ra {mekoban,mekuban,mezanan,takatak}", "tak tak {mekona,mekonan}",
                    "{mekoban,mekuban}", "{shikastandan,shekastandan}",
                    "firar {kadem,kadim,kardim}",
                    "{pat,pet,pinhan,penhan} {shuda,shudim,shudem,astim,astem,astom,hastim}",
                    "berun {shuda,rafta} {namitanom,namitanam,nametanam,namitanem}",
                ),
                # shooting
                "فیر کردند", "فیر کدن", "فیر میکنن", "فیر می کنن", "ډز ډز",
                "پنهان استیم", "پنهان است", "پت است", "پت استیم", "پشت موتر ما", "پشت ما میایه",
                "ورنه گم میشه", "ورنه گم میشود", "وگرنه گم میشه",
                "دنبال ما میایه",
                *_spellings("{fir,fayer,fayr} {kadan,kardan,mekonan,mekunan}", "daz daz"),
                *_spellings(
                    "{penhan,pinhan,pet,pit} {as,ast,astom,astem,astim,hastem,shudem,shodem}",
                    "{posht,pusht} {e,} {ma,motar e ma,motor e ma} {maya,meaya,meyaya,mayan}",
                    "{donbal,dunbal} {e,} ma {maya,meaya,mekonan}",
                    "{warna,wagarna} {gum,gom} {mesha,meshe,meshawa}",
                ),
            ),
            pairs=(
                Pair(  # armed men or strangers at home, asking, watching
                    who=(
                        "طالبان", "طالبا", "طالب", "طالبها", "مسلح", "تفنگ", "سلاح", "مردها",
                        "مردا", "مردای", "آدما", "آدمای", "چند نفر", "یک نفر", "موتر",
                        "قوماندان", "یک کس", "یک مرد", "موترسایکل", "کلاشینکوف", "کلشینکوف",
                        *_spellings(
                            "{taliban,taliba,taleban,talib,taleba}", "{tofang,tufang}", "silah",
                            "{mardha,marda}", "{adama,adamay}", "chand nafar",
                            "{motar,motor}", "{qumandan,qomandan}", "{yak,ye,yek} {kas,nafar,mard}",
                            "{motorsaikel,motorsaykel,motarsaikel}",
                            "{kalashinkov,kalashnikov,klashinkov}",
                        ),
                    ),
                    what=(
                        "خانه ما", "خانیم", "دروازه ما", "دم دروازه", "پشت دروازه", "در خانه",
                        "آمدن", "آمدند", "امدن", "میاین", "تلاشی", "محاصره", "بیرون خانه",
                        "پیش خانه", "دم خانه", "پرسان", "ایستاد", "میگردن", "میپالن", "میپایه",
                        "میپاین", "عکس میگیره", "خانه مره", "آمد", "آمده", "پرسیدن",
                        *_spellings(
                            "{khana,khanai,khanaye} ma", "darwaza {e,} ma", "dam {e,} darwaza",
                            "{posht,pusht} {e,} darwaza", "{amadan,omadan,amadand,meyan}",
                            "talashi", "{muhasira,mohasira}", "berun {e,} khana", "pesh {e,} khana",
                            "{pursan,porsan}", "{istad,estad}", "{megardan,mepalan}",
                            "{peshe,pushte,dame} khana", "{aks,akse} megira", "charkh mezana",
                            "{posht,pusht,dam,pesh} {e,} dar", "{amad,amada}",
                            "{pursidan,porsidan}",
                        ),
                    ),
                    span=10,
                    of_things=False,
                    unless="taken",
                ),
                Pair(  # someone beaten, killed
                    who=_PRS_PEOPLE,
                    what=(
                        "زدن", "زدند", "میزنن", "میزنند", "میزنه", "میزند", "لت", "کشتن", "کشتند",
                        "شکنجه", "تهدید",
                        *_spellings(
                            "{zadan,zadand,mezanan,mezanand,mezana}", "lat", "{koshtan,kushtan}",
                            "{shikanja,shekanja}",
                        ),
                    ),
                    of_things=False,
                ),
                Pair(  # shooting near
                    who=(
                        "فیر", "مرمی", "گلوله", "شلیک", "تیراندازی", "تیر اندازی",
                        *_spellings(
                            "{fir,fayer,fayr}", "marmi", "{golula,goloula}", "tir {andazi,andaze}",
                        ),
                    ),
                    what=(
                        "نزدیک", "همی حالی", "همین حالا", "همین حالی", "خانه ما", "دیوال", "میخوره",
                        "سر ما", "طرف ما", "بالای ما", "کوچه ما", "اینجا", "میشه", "زمین",
                        *_spellings(
                            "{nazdik,nezdik}", "{hamin,hami} {hala,hali,hala}", "{khana,khanai} ma",
                            "{dewal,diwal}", "{mekhora,mikhora}", "{sar,taraf,balai} {e,} ma",
                            "{kocha,kuche} {e,} ma", "inja", "{mesha,misha}", "zamin",
                        ),
                    ),
                    of_things=False,
                ),
                Pair(  # they know who you are, where you live
                    who=(
                        "میدانیم", "میدانن", "میدانند", "پیدایت میکنیم", "پیدایت میکنن", "میفامیم",
                        "میفامن", "میفهمیم", "برشان گفته", "بریشان گفته", "برایشان گفته",
                        *_spellings(
                            "{medanem,medanim,medanan,midanim}",
                            "{mefamem,mefamim,mefahmem,mefahmim,mefaman}",
                            "{barishan,barayshan,barshan} {gofta,gufta}",
                            "{paidayet,paidait} {mekonem,mekonan}",
                        ),
                    ),
                    what=(
                        "ترجمان", "کار میکدی", "کار میکردی", "اردو", "امریکایی", "خارجی",
                        "کجا زندگی", "کجا استی", "کجا استم", "کجا هستی",
                        *_spellings(
                            "{tarjuman,tarjoman}", "kar {mekadi,mekardi}", "urdu",
                            "{amrikai,amrikayi}", "khareji",
                            "{kuja,koja} {zendagi,zindagi,asti,astom,astam,hasti}",
                        ),
                    ),
                    of_things=False,
                ),
            ),
            calm=(
                "بکس ها را تلاشی میکنن", "بکسا را تلاشی میکنن", "تلاشی نمیکنن", "هم تلاشی میکنن",
                *_spellings(
                    "{bag,bags,baks} {ha,} {ra,} {talashi,talaashi}"
                    " {mekonan,mekunan,mekona,mekonand}",
                    "{talashi,talaashi} {namikonan,namekonan,nemekonan}",
                ),
                "بکس‌ها را تلاشی", "بکسا را تلاشی", "محافظای مسلح", "محافظین مسلح",
                "نزدیک میدان فیر", "پت کنم یا",
                *_spellings(
                    "{bag,bags,baks} {ha,} {ra,} {talashi,talaashi}",
                    "{talashi,talaashi} e {posta,poste}",
                    "{muhafiz,muhafizai,askar hai} {musalah,musallah}",
                    "{pet,pat} kardan e {dollar,dalar}",
                ),
                # sent home from a checkpoint; a threat denied
                "خانه بروید", "خانه برین", "تهدید نیست",
                *_spellings("khana {berin,berid,burin}", "{tahdid,tahdeed} {nist,nest}"),
                "سفر بخیر", "در امان", "امن است", "امن اس", "امن هست", "امنیت میدان",
                "تهدید امنیتی", "هشدار امنیتی", "خطر حمله", "حمله دیروز", "دروازه میدان",
                "دروازه ابی", "دروازه شمالی", "دروازه شرقی", "دروازه دفتر", "خانه نشین",
                "در خانه بمانید", "طالبان اعلان", "طالبان گفتند", "عفو طالبان", "حکومت طالبان",
                "پوسته طالبان", "پوسته های طالبان", "پوسته تلاشی", "پوسته های تلاشی", "زنگ زد",
                "زنگ بزن", "زنگ میزن", "زنگ زدن",
                "حرف زدن", "حرف میزن", "گپ زدن", "گپ میزن", "قدم زدن", "چیغ میزن", "چیغ زد",
                "معترضین ره لت کد", "معترضین را لت کرد", "از وقتی که فیر", "وقتی که فیر",
                "بعد از فیر", "فیر دیروز", "دیروز فیر", "فیر شنید", "صدای فیر شنید", "مرمی خورده",
                "مرمی خورد", "تیر خورده", "گلوله خورده", "انتظار میکشیم", "هیچ مسئله", "هیچ مشکل",
                *_spellings(
                    "safar {bakhair,ba khair,bakhayr}", "{aman,amn} {ast,as,hast}",
                    "amnyat {e,} maidan", "hamla {dirooz,diroz}",
                    "darwaza {e,} {maidan,abbey,abi,daftar}", "{taliban,taliba} {elan,goftan}",
                    "{afw,afu} {e,} taliban", "{hukumat,hokumat} {e,} taliban",
                    "{posta,posta ha} {e,} taliban",
                    "{posta,posta ha} {e,} talashi",
                    "{edama,idama}",  # continues, not «اعدام» (executed)
                    "zang {zad,zadan,bezan,bezanom,bezanam,mezana,mezanom,mezanam}",
                    "{gap,harf} {zadan,mezana,mezanom}", "{chigh,cheegh} {mezana,mezanan,zad}",
                    "{az waqti,waqti} ke {fir,fayer}", "bad az {fir,fayer}",
                    "{marmi,tir,golula} {khorda,khord}", "{sada e,} {fir,fayer} {shenid,shunid}",
                    # waiting, not killing; no problem, not armed men
                    "{intezar,entezar} {mekashem,mekashim,mekashan,mekasha,mekashid}",
                    "{hich,hech} {masala,masla,masale,moshkel}",
                ),
            ),
        ),
    },
)  # fmt: skip

# Pashto: Arabic script, then romanized -----------------------------------------------------------

_PS_CHILDREN: Final = (
    "زوی", "زوى", "زوئ", "زامن", "لور", "لوڼې", "لوڼه", "ماشوم", "ماشومان", "ماشومه", "ماشومانو",
    "کوچنی", "کوچنۍ", "کوچني", "هلک", "هلکان", "نجلۍ", "نجونې", "بچی", "بچیان", "اولاد", "لمسی",
    "لمسۍ", "وراره", "وریره", "وریرې", "خوریی", "خوریه", "خورزه",
    # romanized
    *_spellings(
        "{zoy,zoe,zwe,zoi,zooy}", "{zamen,zaamen,zaman}", "{lur,loor,lor}", "{lune,loone,lunra}",
        "{mashum,mashuma,mashuman,mashumano,mashooman}", "{kuchnay,kuchnai,kuchni,kochnay}",
        "{halak,halakan}", "{njelai,njlai,njeli,njalai,njinai}", "{bachi,bachyan}", "awlad",
        "{lmasai,lmasay}", "{wrara,wrera,wrere,wrarha}", "{khwaryi,khoryi,khorai,khorza}",
    ),
)  # fmt: skip
_PS_FAMILY: Final = (
    *_PS_CHILDREN, "ښځه", "ښځې", "مېړه", "میړه", "میرمن", "مور", "پلار", "ورور", "وروڼه",
    "وروڼو", "خور", "خویندې", "نیا", "نیکه", "انا", "بابا", "کاکا", "تره", "ترور", "ماما", "خاله",
    "کورنۍ", "خپلوان", "خپلوانو", "کلن", "کلنه", "تربور", "خواښې", "خواښی", "ورندار", "ورېندار",
    "خسر", "لېور", "یور",
    "غبرګوني", "غبرګولي", "اوښی",
    # romanized
    *_spellings(
        "{khaza,khaze,khazza,khazha,khadza}", "{merra,mera,mere,mayra,merha}", "merman", "mor",
        "plar",
        "{wror,wrur,wrora,wrona,wruna}", "khor", "{khwende,khwenday,khwinde}",
        "{nya,niya,nika,nikka}", "ana", "{tra,tror}", "{kurnai,kornai,korni,kor wala,kor wale}",
        "khpalwan{,o}", "{kalan,kalana}", "merah", "{tarbur,tarbor}", "{khwakhe,khwakhi,khwashi}",
        "{wrendar,wrandar}", "skhar", "{lewar,yor}", "{ghbargoni,ghbargoli}",
    ),
)  # fmt: skip
_PS_PEOPLE: Final = (
    *_PS_FAMILY, "زه", "مونږ", "موږ", "هغه", "یو کس", "یو سړی", "یوه ښځه", "سړی", "سړي",
    "ملګری", "ملګري", "ګاونډی", "حال", "حالت", "خلک", "سپین ږیری", "سپین سری", "یو څوک",
    # romanized
    "za", "ze", "munga", "mung", "mozh", "hagha", "yaw kas", "saray", "sari", "malgaray", "malgari",
    "gawanday", "khalak", "spin giray", "spin gire", "yaw tsok", "امیندواره", "hamila", "hamela",
)  # fmt: skip
#: Someone not heard of: family, and the people one waits for beside them.
_PS_AWAITED: Final = (
    *_PS_FAMILY, "همکار", "ملګری", "ملګري", "ګاونډی", "hamkar", "malgaray", "malgari", "gawanday",
)  # fmt: skip
#: Taken away: «یې بوتلو», «ونیول».
_PS_TOOK: Final = (
    "بوتلل", "بوتلو", "بوتلی", "بوتله", "یوړ", "یووړ", "یوړه", "یووړه", "یوړل", "یووړل", "ونیو",
    "ونیول", "ونیوه", "نیولی", "بوت", "واخیست", "واخیستل", "ودروله", "ودرول", "ودراوه",
    *_spellings(
        "{wakhist,wakhistal,wakhista}", "{bewalay,bewale,botlalay}",
        "{botlal,botlay,botlo,botla,botlu}", "{yowur,yawur,yowor,yawor,yowra,yawral,yowral}",
        "{wuniwa,woniwa,wonyo,wuniwal,woniwal,wniwal,niwalay,niwalai}",
    ),
)  # fmt: skip
#: Where a wound or a pain is: «سر یې مات دی», «کیڼ لاس یې درد کوي».
_PS_BODY: Final = (
    "سر یې", "پښه", "پښې", "لاس", "مخ", "اوږه", "سینه", "ګېډه", "زړه", "sar ye", "pkha", "pkhe",
    "pxa", "makh", "ogha", "sina", "geda", "zra", "سر مې", "ګوتې", "sar me", "gote",
)  # fmt: skip

PASHTO_WORDS: Final = DangerWords(
    endings=(
        "", "ان", "انو", "ه", "و", "ی", "ې", "ۍ", "ونه", "ونو", "ګان", "ګانو", "مې", "مو", "یې",
        "دې", "ل", "لو",
        # romanized
        "an", "ano", "a", "o", "i", "u", "ona", "una", "ay", "ai", "me", "mo", "ye", "wo", "am",
    ),
    things=(
        "پاسپورټ", "پاسپورت", "تذکره", "ټکټ", "ټیکټ", "تکت", "اسناد", "سند", "ویزه", "کارټ", "کارت",
        "موبایل", "مبایل", "ټیلیفون", "تلیفون", "ټېلفون", "ټیلفون", "بکس", "پیسې", "ایمیل", "شمېره",
        "کاغذ", "کاغذونه", "فورم", "سیم", "کیلي", "دوسیه", "فایل", "هیله", "نوبت", "څوکۍ",
        "غوښتنلیک", "لست", "لپټاپ", "سامان", "انسولین", "درمل", "سپری", "تذکرې", "ویزې",
        # romanized
        "pasport", "passport", "tazkira", "tazkera", "tikat", "ticket", "tiket", "asnad", "sanad",
        "viza", "visa", "waiza", "kart", "card", "mobile", "mobail", "telefon", "tilifon", "phone",
        "baks", "bag", "pese", "paisay", "email", "shmera", "kaghaz", "form", "sim", "kili",
        "dosia", "file", "hila", "nobat", "tsawkai", "application", "list", "laptop", "saman",
        "spray", "tazkire",
    ),
    kinds={
        "missing": KindWords(
            alone=(
                "اوس نه ښکاري", "نوره یې نه وینم", "نوره نه وینم",
                *_spellings("os na {khkari,shkari}", "{nora,nura} {ye,} na {winam,wenam}"),
                "ورک ماشوم", "ماشوم یوازې", "یوازې ماشوم", "لادرکه", "لادرک", "هېڅ درک یې نشته",
                "هیڅ درک یې نشته", "ژوندی دی که نه", "ژوندی ده که نه", "ژوندی که مړ",
                "له لاسه راڅخه ووت", "له لاسه راڅخه ووتل", "له لاسه مې ووت",
                "له لاسه مې ووتل", "له لاسه ووت", "له لاسه ووتل", "تر اوسه نه دی راغلی",
                "لاس مې پرېښود", "لاس مې یې پرېښود", "لاس مې ترې خلاص شو",
                "تر اوسه نه ده راغلې", "تر اوسه نه دي راغلي",
                *_spellings(
                    "{wrak,wruk} mashum", "mashum {yawaze,yawazi}", "{ladraka,la darka,ladarka}",
                    "{hich,heets,hech} {darak,drak} ye {nishta,nshta,nesta}",
                    "la lasa {,rana,me} {watal,wawat,wawatal,watalo,wawata}",
                    "tar {osa,osah} na {de,da,di} {raghalay,raghlay,raghali,raghle}",
                    "las me {prekhod,prekhowd,prexod,preshod}",
                    "{jwandai,jwanday,zhwanday,zhwandai} {de,da} ka na",
                ),
            ),
            pairs=(
                Pair(  # someone lost, separated, not to be found
                    who=_PS_FAMILY,
                    what=(
                        "ورک", "لادرکه", "پیدا نه شو", "پیدا نشو", "نه پیدا کیږي", "نه پیدا کوم",
                        "نه پیدا کوو", "نه یې پیدا کوو", "پیدا کولی نشو", "پیدا کولای نه شو",
                        "پیدا یې نه کړو", "نه مو موند", "ونه موند", "ونه مونده", "نشي موندلی",
                        "نشم موندلی", "نه مومو", "نه یې مومو", "جلا شو", "جلا شوه", "جلا شوي",
                        "جلا شول", "بېل شو", "بېله شوه", "بېل شوي", "بیل شو", "له لاسه",
                        "نه یې وینم", "نه یې وینو", "شاته پاتې شوه", "شاته پاتې شو",
                        "نه پوهېږو چې چېرته", "نه پوهېږو چېرته", "نه پوهېږم چېرته",
                        "نه پوهېږي چې چېرته", "هیڅوک نه پوهېږي", "نه پوهېږو چې چرته",
                        "نه پوهېږي چې چرته", "نه وايي چې چرته", "نه وايي چې چېرته", "چېرته یې یوړ",
                        "چېرته یې بوتلو",
                        "چېرته یې بوت", "ورکه ده", "ورک دی", "ورکه شوه", "ورک شو", "بېله شوه",
                        "نه دی پیدا شوی", "نه ده پیدا شوې", "اوس نشته",
                        "نه موندل کېږي", "نه موندل کیږي", "جلا کړ", "جلا کړل", "جلا یې کړ",
                        "بیا نه وه", "بیا نه و", "نه پوهېږم اوس چېرته",
                        *_spellings(
                            "{wrak,wruk,warak,wurk,wrok}", "{wrake,wruke,wraki}",
                            "{ladraka,ladarka}", "{paida,peyda,pyda} {na shu,nashu,na shwa}",
                            "{paida,peyda,pyda} {nashwa,na shwal,na kegi,na keji}",
                            "na {paida,peyda} {kegi,keji,kawm,kawam,kawu,kawo}",
                            "na ye {paida,peyda} {kawu,kawo}",
                            "{paida,peyda} {kawalay,kawli,kawalai} na {shu,shwa}",
                            "{na shi,nashi,na sham,nasham} {mundalay,moondalay,mondalay,mundali}",
                            "{wana,wa na} {mund,munda}", "na mo {mund,munda}",
                            "{jala,bel,bil} {shu,sho,shwa,shwo,shwi,shwal,shwu}", "la lasa",
                            "na ye {winam,winu}", "{shata,} pate {shwa,shu}",
                            "na {ye,} {mumum,momum,mumu,momu}",  # we do not find her
                            "na {pohegu,pohegam} {che,} {chiri,cherta,chirta,charta}",
                            "na {pohegi,pohigu,pohizhu} {che,} {chiri,cheri,cherta,chirta,charta}",
                            "{hechok,hichok,hetsok} na {pohegi,pohigi}",
                            "{chiri,cherta} ye {yowur,yawor,yowra,botlo,botlay,bewalay}",
                            "{wraka,wrak} {da,de,shwa,shu}", "{bela,bel} {shwa,shu,shwe}",
                            "na {de,da} {paida,peyda} {shawe,shaway,shwe,shawi}",
                            "{os,oos} {nishta,nesta}",
                            "na {mondal,mundal,moondal} {kegi,keji}",
                            "{jala,bel} {ye,} {kro,kr,kral}", "{bya,bia} na {wa,wo}",
                            "na {pohegam,pohegu} os {chiri,cherta,chirta,charta}",
                        ),
                    ),
                    span=12,
                ),
                Pair(  # someone not heard of, seen or back since (beside a wound: not responding)
                    who=_PS_AWAITED,
                    what=(
                        "نه دی راغلی", "نه ده راغلې", "نه دي راغلي", "رانغی", "رانغله", "رانغلل",
                        "بېرته نه دی راغلی", "بیرته رانغی", "نه دی راستون", "خبر نه لرو",
                        "خبر نه لرم", "هېڅ خبر", "خبر نشته", "درک یې نشته", "هېڅ درک", "درک نشته",
                        "پته نشته", "پته یې نشته", "هیڅ معلومات", "اړیکه نشته", "هیڅ اړیکه",
                        "تماس نشته", "مبایل یې بند", "ټیلیفون یې بند", "ځواب نه ورکوي",
                        "ځواب نه راکوي", "زنګ نه اخلي", "هیچا نه دی لیدلی", "هیچا نه دي لیدلي",
                        "هیچا نه ده لیدلې", "ونه لیده", "چا لیدلی", "هیڅ نښه", "نښه نشته",
                        "اړیکه نه کیږي", "اړیکه ورسره نه", "معلومات نه لرو", "پته نه لګي",
                        "پته یې نه لګي", "بهر نه شول", "بهر نه شو", "را نه وتل", "اړیکه پرې شوه",
                        "اړیکه مو پرې شوه", "اړیکه قطع", "ونه لید", "وروستی ځل", "خبر یې نشته",
                        "هیچ خبر", "تلیفون یې بند", "موبایل یې بند", "نه پورته کوي", "ونه رسید",
                        "نه دی رسیدلی", "چا نه ده لیدلې", "چا نه دی لیدلی", "هم نشته",
                        "کور کې نشته",
                        *_spellings(
                            "na {de,di,da,day} {raghalay,raghlay,raghali,raghle,raghli}",
                            "{nade,nadey,naday,nadi,nada} {raghalay,raghlay,raghali,raghle,raghli}",
                            "{ranaghay,ranaghe,ranaghla,ranaghlal}",
                            "berta na de {raghalay,raghlay}", "na de {rastun,raston}",
                            "khabar na {laro,laru,laram}", "{hich,heets,hech} khabar",
                            "khabar {nishta,nesta}", "{darak,drak} ye {nishta,nshta}",
                            "{hich,hech} {darak,drak}", "{pata,pat} ye {nishta,nesta}",
                            "{hich,hech} {malumat,maloomat}",
                            "{hich,hech} {contact,areeka,arika,tamas}",
                            "{contact,areeka,tamas} {nishta,nesta}",
                            "{mobile,telephone,telefon} ye {band,off}", "{hich,hech} zang",
                            "{zawab,dzawab,jawab} na {warkawi,rakawi}",
                            "{hecha,hicha} na {de,di,da} {lidalay,lidali,lidale}",
                            "{wana,wa na} {lida,lid}", "{wrustay,wrusti} zal",
                            "cha {lidalay,lidali}", "{malumat,maloomat} na {laru,laro}",
                            "{pata,pata ye} na lagi", "bahar na {shwal,shu}",
                            "{areeka,arika} {mo,} pre shwa", "{hich,hech} nakha",
                            "{areeka,arika,contact} {warsara,} na kegi", "khabar ye {nishta,nesta}",
                            "khabar na {yu,yo}", "na porta kawi", "{wana,wa na} {rased,rasid}",
                            "na {de,da,di,day} {rasedalay,rasidalay,rasedali,rasidali}",
                            "{hech,hich} cha na {de,da}",
                            "{ra na,rana} {ghay,ghla,ghlal,ghle}", "{hum,ham} {nishta,nesta}",
                            "{pata,pat} {nishta,nesta}",
                        ),
                    ),
                    span=12,
                    unless="medical",
                ),
                Pair(  # someone looked for, unless those looking are the threat
                    who=_PS_FAMILY,
                    what=(
                        "ولټول", "ولټاوه", "ولټوله", "لټوو", "لټوم", "پسې ګرځو", "پسې ګرځم",
                        "څنګه پیدا کړو", "څنګه یې پیدا کړو",
                        *_spellings(
                            "{wlatawal,wlatawa,latawu,latawo,latawam,latawum}",
                            "pase {garzu,garzo,garzam}",
                            "{tsanga,sanga,tsenga} {paida,peyda} {kru,kro}",
                        ),
                    ),
                    unless="threat",
                ),
                Pair(
                    who=_PS_FAMILY,
                    what=(
                        "چېرته دی", "چېرته ده", "چېرته دي", "چیرته دی", "چیرته ده", "چرته دی",
                        "چرته ده", "چرته دي",
                        *_spellings("{chiri,cherta,chirta,charta} {de,da,di}"),
                    ),
                    span=3,
                    unless="threat",
                ),
                Pair(  # a child alone
                    who=_PS_CHILDREN,
                    what=(
                        "یوازې", "یواځې", "یوازې پاتې", "کورنۍ یې نشته", "کورنۍ یې دلته نشته",
                        "مور او پلار یې نشته", "خپله کورنۍ", "بې سرپرسته", "بې کسه",
                        *_spellings(
                            "{yawazi,yawaze,yawadze,yawazay}",
                            "{kornai,kurnai,kor wala,kor wale} ye {nishta,dalta nishta}",
                            "khpal {kor,kornai,kurnai}", "be {sarparasta,kasa}",
                            "mor aw plar ye {nishta,nesta}",
                        ),
                    ),
                    span=10,
                ),
            ),
            calm=(
                "پاسپورټ مې ورک", "ټکټ مې ورک", "یوازې سفر", "یوازې ولاړ", "یوازې تللی",
                "الوتنه لټوو", "کار لټوو", "کار لټوي", "چېرته ده دروازه", "هوايي ډګر چېرته",
                "کابل کې یوازې",
                "زه یوازې", "یوازې زه", "یوازې تذکره", "یوازې تذکرې",
                *_spellings(
                    "{yawaze,yawazi} {safar,tlalay}",
                    "{alwatana,kar,flight} {latawo,latawu,latawi}", "{cherta,chiri} da darwaza",
                    "kabul ke {yawaze,yawazi}",
                    "za {yawaze,yawazi}", "{yawaze,yawazi} za",
                    "{yawaze,yawazi,yawazay} {tazkira,tazkire}",
                ),
            ),
        ),
        "taken": KindWords(
            alone=(
                "وتښتاوه", "وتښتول", "تښتول", "تښتوو", "تښتوي", "تښتولی", "اختطاف", "طالبانو ونیو",
                "طالبانو یوړ", "طالبانو یووړ", "طالبانو بوتلو", "بندي کړ", "بندي یې کړ",
                *_spellings(
                    "{wotakhtawa,wutakhtawa,otakhtawa}",
                    "{tukhtawal,tkhatawal,takhtawal,tukhtawalay}",
                    "{tkhatawu,tukhtawu,takhtawu,tkhatawi,tukhtawi,takhtawi}",
                    "talibano {wuniwa,woniwa,yawur,yowur,botlo}", "bandi {kar,ye kar}",
                ),
            ),
            pairs=(
                Pair(who=_PS_FAMILY, what=_PS_TOOK, span=10),
                Pair(
                    who=(
                        "طالبان", "طالبانو", "طالب", "وسله وال", "وسله والو", "کسانو", "څو کسانو",
                        *_spellings(
                            "{taliban,talibano,talib}", "wasla {wal,walo}", "{kasano,tso kasano}",
                        ),
                    ),
                    what=_PS_TOOK,
                    span=10,
                ),
            ),
            calm=(
                "ګولۍ یې ونیوله", "وړل یې اجازه", "مرګي نیولی", "برق نیولی", "ناروغي نیولی",
                "wral ye ijaza", "margi niwalay", "سینه یې نیولې", "sina ye niwale", "اور واخیست",
                "پنجشیر ونیو", "پنجشیر یې ونیو", "کابل ونیو", "کابل یې ونیو", "ولایت ونیو",
                "ولایتونه ونیول", "ښار ونیو", "واک ونیو", "واک یې ونیو", "کنټرول ونیو",
                *_spellings(
                    "{panjshir,kabul,welayat,khar,wak,kontrol,control} {ye,} {wonewo,woniwa,wuniwa}"
                ),
                *_spellings("{ur,or,awor} {wakhist,wakhest,wakhista,niwalay}"),  # caught fire
            ),
        ),
        "medical": KindWords(
            alone=(
                "پښه یې ماته", "لاس یې مات", "ګولۍ لګېدلې", "ګولۍ ولګېده", "په ټېل ټېل کې لاندې",
                *_spellings(
                    "{pkha,pxa,pakha} {ye,} mata", "{goli,golai,golay} {lagedali,lagedale,lageda}",
                    "{dakter,daktar,doctor} pakar {dy,de,day}", "tel tel ke lande",
                ),
                # unconscious
                "بېهوښ", "بې هوښه", "بیهوښه", "بې هوښ", "بېهوښه", "بې سده", "بېسده", "نه راویښېږي",
                "نه ویښېږي", "نه خوځېږي", "نه خوځیږي",
                # wounds and bleeding
                "ټپي", "ټپیان", "زخمي", "وینه بهیږي", "وینه ترې بهیږي", "وینه ځي", "وینه راځي",
                "مرمۍ لګېدلې", "مرمۍ ولګېده", "مرمۍ خوړلې", "ګولۍ لګېدلې", "ګولۍ ولګېده",
                "ګولۍ ورلګېده", "ډز پرې شوی", "تر پښو لاندې", "لاندې شو", "سوځېدلی", "سوځېدلي",
                "وسوځېد", "چاقو", "چړه",
                # birth
                "د زېږون درد", "زېږون", "زیږون", "ولادت", "دردونه شروع", "دردونه یې شروع",
                # breath, heart
                "د زړه حمله", "زړه حمله", "سکته", "مرګي", "د مرګي حمله", "اوښکې بهوونکی ګاز",
                "مسموم", "زهري شوی", "ګرمي وهلی", "ګرمي وهلې", "لمر وهلی", "لمر وهلې", "مار چیچلی",
                "سپي چیچلی", "برق ونیو", "برق نیولی", "ساه نه شي اخیستلای", "ساه نشي اخیستلی",
                "ساه نه شي اخیستلی", "ساه نه اخلي", "ساه یې بندیږي", "ساه یې بنده", "ساه لنډۍ",
                "سا لنډۍ",
                # very sick
                "حال یې خراب", "حال یې ډېر خراب", "حالت یې خراب", "مړ کیږي", "مړ کېږي", "مړه کیږي",
                "سخته تبه", "لوړه تبه", "وینه کانګې",
                "ساه نشي اخیستلای", "ساه نه شي اخیستلای", "ډز خوړلی", "ډز یې خوړلی", "لو وهلی",
                "لو وهلې",
                "ګولۍ خوړلې", "ګولۍ یې خوړلې", "ټپ یې", "بې اوبي", "متيازې نه کوي",
                "متیازې نه کوي",
                # care now
                "امبولانس", "لومړنۍ مرسته", "بیړنۍ درملنه", "ژر ډاکټر", "څوک ډاکټر",
                *_spellings(
                    "{behosh,behokh,behox,be hosh,be hokh,be hox}{,a}", "be sada",
                    "na {raweshegi,rawishegi,wishegi,weshegi}", "na {khwadegi,khwazegi,khozegi}",
                    "{tapi,tapee,tappi,tapiyan}", "zakhmi",
                    "{wina,weena} {,tre} {bahegi,bahigi,ze,zi,razi}",
                    "{marmai,golai,golay} {lagedali,lagedale,wlagheda,wlageda,warlageda}",
                    "daz pre {shaway,shawai}", "tar {pkho,pxo,psho} lande", "lande shu",
                    "{swazedalay,swazedali,wsozed,wsozeda}", "{chaqu,chara}",
                    "{zezhun,zezhoon,zegun,zegon,zezun}", "{dardona,dardune} {,ye} shuru",
                    "{da,} zra hamla", "{sakta,sekta}",
                    "{sa,saa,sah} na {shi,shay} {akhistalay,akhistalai,akhistali}",
                    "{sa,saa} na akhli", "{sa,saa} ye {bandegi,banda}", "{sa,saa} {landai,landay}",
                    "{hal,haal,halat} ye {der,dera,} kharab", "{mar,mra} kegi",
                    "{sakhta,lwara,lwar} taba", "wina kange", "{ambulans,ambulance}",
                    "lomrani mrasta", "{zhar,zar} {daktar,doctor}", "{tsok,sok} {daktar,doctor}",
                    "{garmi,lmar} {wahalay,wahali,wahale}", "{mar,spi} {chichalay,chichali}",
                    "margi {niwalay,niwale,lari}", "da margi hamla", "barq {wuniwa,niwalay}",
                    "{daz,golai,golay} {ye,} {khwaralay,khwarale,khorale,khwaralai}",
                    "tap ye", "{be,bi} {obi,obe}", "{mutiaze,mutyaze,metyaze} na kawi",
                    "{lu,loo} {wahalay,wahali,wahale}",
                ),
            ),
            pairs=(
                Pair(  # someone sick, in pain, fallen
                    who=(*_PS_PEOPLE, *_PS_BODY),
                    what=(
                        "ناروغ", "ناروغه", "ناروغي", "بیمار", "ناجوړ", "ناجوړه", "رنځور",
                        "روغ نه دی", "تبه", "درد", "کانګې", "اسهال", "کمزوری", "کمزورې", "سست",
                        "خوبولی", "نه خوري", "ولوېد", "ولویده", "لوېدلی", "رپېږي", "خولې خولې",
                        "مات شو", "مات دی", "مات شوی", "مات شوه", "ماته شوه", "ماته شوې", "ټپ",
                        "چرک", "زخم", "حادثه", "پېښه", "راولوېد", "ټوخي", "ټوخی", "پړسېدلې",
                        "پړسېدلی", "اوبه نه", "نه څښي", "خبرې نه شي", "چکر", "ساه یې ګرانه",
                        "رنګ یې زیړ",
                        *_spellings(
                            "{narogh,naroogh,naroga,naroogha,naroghi}", "bimar", "{najor,najora}",
                            "{ranzur,ranzor}", "rogh na de", "{taba,tabe}", "dard", "{kange,kangi}",
                            "{ishal,eshal}", "{kamzoray,kamzori,kamzore}", "sust",
                            "{khobolay,khobolai}", "na {khori,khwri}",
                            "{wolwed,wlwed,wolweda,wlweda,lwedalay}", "{rapegi,rapigi}",
                            "khwale khwale", "mat {shu,de,shaway,shawai}", "mata {shwa,shwe}",
                            "{ralwed,ralweda}", "{tokhi,tukhi}", "{parsedali,parsedale}",
                            "{swazeda,swazali,swazale,swazedale}", "{qay,qai} {wakre,kawi}",
                            "rang ye {zyar,zhyar}", "oba na", "khabare na shi", "chakar",
                        ),
                    ),
                    span=10,
                ),
                Pair(  # care needed now
                    who=(
                        "اړتیا", "ضرورت", "پکار", "راولېږئ", "راولیږئ", "راوغواړئ", "ژر", "بیړنۍ",
                        *_spellings(
                            "{artia,artya,arteya}", "zarurat", "pakar", "{ralegai,ralegi,rawlegai}",
                            "zhar",
                        ),
                    ),
                    what=(
                        "ډاکټر", "ډاکتر", "داکتر", "روغتون", "امبولانس", "درمل", "دوا", "نرس",
                        "کلینیک", "ډیالیز", "انسولین", "عملیات", "جراحي",
                        *_spellings(
                            "{daktar,doktar,doctor,doctora}", "{roghtun,roghtoon}", "{darmal,dawa}",
                            "{klinik,clinic}", "nurse",
                        ),
                    ),
                ),
                Pair(  # blood running
                    who=("وینه", "وینې", "wina", "wine"),
                    what=(
                        "بهیږي", "بهېږي", "ځي", "راځي", "ډېره", "نه درېږي", "روانه", "روان",
                        *_spellings(
                            "{bahegi,bahigi}", "{razi,ze,zi}", "{dera,der}",
                            "na {daregi,darezhi,darizhi}", "{rawana,rawan}",
                        ),
                    ),
                ),
                Pair(  # blood pressure, sugar
                    who=("فشار", "شکر", *_spellings("{fishar,feshar}", "shakar")),
                    what=(
                        "لوړ شو", "لوړ شوی", "ډېر لوړ", "ټیټ شو", "ټیټ شوی",
                        *_spellings(
                            "{lwar,lwara,tit} {shu,shaway,shwe}", "{der,dera} {lwar,tit}",
                        ),
                    ),
                ),
                Pair(  # medicine run out
                    who=(
                        "انسولین", "ګولۍ", "درمل", "دوا", "سپری", "اکسیجن",
                        *_spellings(
                            "insulin", "{golai,golay,goli}", "{darmal,dawa}", "spray", "oxygen",
                        ),
                    ),
                    what=(
                        "خلاص", "خلاصې", "ختم", "نشته", "نه لري",
                        *_spellings("{khlas,khlase,khalas}", "khatm", "{nishta,nesta}", "na lari"),
                    ),
                ),
                Pair(  # in labour: her water broke
                    who=("اوبه", "oba", "obe", "obo"),
                    what=("ماتې", "ماتی", "مات", *_spellings("{mate,mati,mat}")),
                    span=10,
                ),
            ),
            calm=(
                "د ډاکټر تصدیق", "روغتیايي سند", "روغتیايي اسناد", "زه ډاکټر یم", "ډاکټر وم",
                "ډاکټره ده", "په روغتون کې کار", "په روغتون کې نرس", "امیندوارې ښځې", "زړونه",
                "د زیږون تصدیق", "زیږون تصدیق", "ناروغ دی خو", "ناروغه ده خو", "د روغتون د اسنادو",
                "طبي ویزه", "طبي ویزې", "د وینې فشار دوا", "د فشار دوا", "لاسي بکس", "زړه مې ډک",
                "لوړ فشار", "ټیټ فشار", "مخکې ټپي", "د زړه ناروغي لري", "د زېږون سند",
                "کابل ولوېد", "کابل سقوط", "مړه او ټپیان", "وژل شوي او ټپیان", "زېږون کاغذ",
                "د زېږون کاغذ",
                "زېږون سند",
                *_spellings(
                    "da {daktar,doctor} tasdiq", "za {daktar,doctor} yam", "{daktar,doctor} wam",
                    "{daktara,doctora} da", "pa roghtun ke {kar,nurse}", "zrune",
                    "da {zegun,zezhun} tasdiq", "{narogh de,naroogha da,naroga da} kho",
                    "da roghtun da asnado", "{tebi,tibbi} {viza,visa}", "da wine fishar dawa",
                    "lasi baks", "{lwar,tit} fishar", "da zra {naroghi,narogi} lari",
                    "kabul {wolwed,olwed,wlwed}", "{mri,mre} aw {tapiyan,tapian}",
                    "{zegun,zezhun,zegon} {kaghaz,sanad}",
                ),
            ),
        ),
        "threat": KindWords(
            alone=(
                "پیدا به دې کړو", "پیدا به دې کړو", "چېرته پټ شم", "پټ شم", "کور بدلوو",
                "هره شپه کور", "طالبان دروازه کې", "طالبان په دروازه", "زما دوسیه",
                "د امریکا غلام", "دروازه ماتوي", "دروازه مو ماتوي", "شپنامه",
                "زموږ دروازې ته راغلل", "زموږ دروازې ته راغلي",
                *_spellings(
                    "{darwaza,darwaze} {mo,} {matawi,matawee}", "{shpanama,shpa nama}",
                    "{zmong,zmung} {darwaze,darwazi} ta {raghli,raghlal}",
                ),
                *_spellings(
                    "paida ba de {kru,kro}", "{cherta,chirta} pat sham", "kor {badlawu,badalawu}",
                    "{hara,har} {shpa,shpe} kor", "da {amrika,amrica} {ghulam,ghulaam}",
                ),
                # threats: to kill, to punish, "we will come to you"
                "ګواښ", "ګواښونه", "ګواښ کوي", "ګواښ یې کړی", "د مرګ ګواښ", "وژني", "ووژني", "وژنو",
                "وژنو دې", "دې وژنو", "مو وژني", "مړ به مو کړي", "مړه به مو کړي", "مړ به دې کړو",
                "سر به دې پرې کړو", "سر دې پرې کوو", "سر به یې پرې", "سر یې پرې", "سر دې پرې",
                "اعدام", "شبنامه", "شب نامه", "د طالبانو لیک", "غدار", "غداران", "جاسوس", "کافر",
                "سزا به", "سزا درکوو", "سزا ورکوو", "بیا به راشو", "بیا راځو", "درځو",
                "موږ به درشو", "مونږ به درشو", "ما به ونیسي", "ما ونیسي", "امنیت نه لرو",
                "امنیت نه لرم", "خوندي نه یو", "خوندي نه یم", "په خطر کې", "خطر کې",
                "ژوند مې په خطر", "ژوند په خطر",
                *_spellings(
                    "{gwash,gwakh,gwax}", "da marg {gwash,gwakh,gwax}",
                    "{wazhni,wajni,wojni,wuwazhni,wazhno,wajno,wojno}", "mar ba mo kri",
                    "mar ba de kru", "sar ba de pre kru", "sar ba ye pre", "{edam,iedam}",
                    "{shabnama,shab nama}", "{ghadar,ghadaran,ghaddar,jasus}", "kafir", "saza ba",
                    "saza {darkawu,warkawu}", "bia ba {rashu,rasho}", "{darzu,darzo}",
                    "{mung,munga} ba {darshu,darsho}", "ma {ba,} {wanisi,wunisi}",
                    "amniat na {laro,laru,laram}", "khwandi na {yu,yam}", "pa khatar {ke,ki}",
                    "khatar {ke,ki}", "zhwand {me,} pa khatar",
                ),
                # armed men, a gun pointed
                "وسله وال", "وسلوال", "وسله والو", "ټوپکوال", "قنداغ", "ټوپک یې راته ونیو",
                "طالبان راغلل", "طالبان راغلي",
                *_spellings(
                    "{wasla wal,waslawal,wasla waal,wasla walo}", "{topakwal,topakwal sari}",
                    "{qundagh,qondagh}", "taliban {raghlal,raghli}",
                ),
                # beaten, slapped, whipped, tortured
                "ووهلم", "ووهلو", "ووهل شو", "وهل شوی", "وهل یې", "وهلی", "څپېړه", "څپیړه", "قمچین",
                "په څپېړو", "په لغتو", "لغتې",
                "شکنجه", "زور زیاتی", "زورزیاتی", "تاوتریخوالی",
                *_spellings(
                    "{wowahalam,wuwahalam,wowahalo,wuwahalo}", "{wahalay,wahalai} {shaway,shu}",
                    "{tsapera,tsaperra,chapera}", "{qamchin,qamchino}", "{shkanja,shikanja}",
                    "zor {ziatay,ziati}",
                    "pa {tsaperu,chaperu,laghato,laghatu}",
                ),
                # followed, watched, looked for
                "پسې راځي", "پسې ګرځي", "پسې دي", "پسې راغلي", "پسې ګرځې", "زما عکس",
                "تر نظر لاندې", "څاري", "پسې راروان", "راپسې", "ستا پسې", "درپسې", "زما پوښتنه",
                "دروازه یې ماتوي", "نښه یې ولګوله", "نشان ولګاوه", "نشاني کړه", "حساب کوو",
                "درته ګورو", "به یوسو", "تسلیم نه", "دهمکي", "لیکونه راغلي", "لیک راغلی",
                *_spellings(
                    "pase {rarawan,gerzi,gerzai}", "{rapase,darpase}", "sta pase",
                    "{zama,zma} {pukhtana,pushtana}", "darwaza ye {matawi,matawu}",
                    "{hisab,hesab} kawu", "darta {goru,gwaru}", "ba {yosu,yusu}",
                    "taslim {nasham,na sham,na kar,na kri}", "{dhamki,damki,dhamkai}",
                    "{taqib,taaqib,ta aqib} {me,} kawi", "lik {raghlay,raghli}",
                    "saza {wini,winu}", "{wazhnu,wajnu}", "bahar ra wuza", "war wahi",
                    "zay badlawu",
                ),
                *_spellings(
                    "pase {razi,garzi,garzai,di,raghli}", "{zama,zma} aks", "tar nazar lande",
                ),
                # a girl married by force
                "په زور", "په زور واده", "په زوره واده", "لور به مو",
                *_spellings("pa zor", "pa zor{,a} wada"),
                # at the door, in the house; fled, hiding, cannot go out
                "تلاشي", "کور تلاشي", "کورونه تلاشي", "کور په کور", "دروازه ټکوي", "دروازه ټکوو",
                "دروازه وهي", "دروازه یې ماته", "دروازه ماته", "وتښتېدو", "وتښتېدل", "پټ یو",
                "پټ یم", "پټ شوي یو", "پټ شوی یم", "پټ پاتې", "پټ شوو", "له کوره نشم وتلی",
                "له کوره نه شم وتلی", "له کوره نشو وتلی", "بهر نشم وتلی", "بهر نه شم وتلی",
                *_spellings(
                    "{talashi,talaashi}", "kor pa kor", "darwaza {takawi,takawu,wahi}",
                    "darwaza {ye,} {mata,mat} {kra,kar}", "{watakhtedu,watakhtedal}",
                    "pat {yu,yam,shwi yu,pate,shwu}",
                    "la kora {na sham,nasham,nashu} {watalay,watalai,watli}",
                    "bahar {na sham,nasham} {watalay,watalai}",
                ),
                # shooting
                "ډزې یې وکړې", "ډزې کوي", "ډزې کیږي", "ډزې کېږي",
                *_spellings("{dazi,daze,dze} {kegi,keji,kawi}", "{dazi,daze} ye {wakre,wakri}"),
            ),
            pairs=(
                Pair(  # armed men or strangers at home
                    who=(
                        "طالبان", "طالب", "طالبانو", "وسله", "ټوپک", "ټوپکونه", "کسان",
                        "څو کسان", "یو څوک", "موټر", "یو موټر",
                        *_spellings(
                            "{taliban,talib,talibano}", "{wasla,topak,topakuna}", "kasan",
                            "tso kasan", "yaw {tsok,sok}", "{motor,motar,yaw motor}",
                            "yaw saray", "{kalashinkov,kalashnikov,klashinkov}",
                        ),
                    ),
                    what=(
                        "کور", "کور ته", "زموږ کور", "زمونږ کور", "د کور مخې ته", "دروازې", "دننه",
                        "ننوتل", "راغلل", "راغلي", "راځي", "محاصره", "ټکوي", "مخې ته ولاړ",
                        "ولاړ دي", "ولاړ وي", "پوښتنه",
                        *_spellings(
                            "kor", "kor ta", "{zmung,zmoong,zmuzh,zmozh} kor", "da kor makhe ta",
                            "{danana,nanawatal}", "darwaze", "{raghlal,raghli,razi}", "muhasira",
                            "takawi", "makhe ta walar", "walar {di,wi}", "{pukhtana,pushtana}",
                            "war", "{zmung,zmuzh} war",
                        ),
                    ),
                    span=10,
                    of_things=False,
                    unless="taken",
                ),
                Pair(  # someone beaten, killed
                    who=_PS_PEOPLE,
                    what=(
                        "ووهه", "ووهل", "وهل", "وهلی", "وهي", "ووژل", "وژل", "شکنجه", "واهه",
                        "وواهه", "ووهله",
                        *_spellings(
                            "{wowaho,wowaha,wuwaha,wowahal,wuwahal,wahal,wahi}",
                            "{wowazhal,wazhal,wowajal}", "{shkanja,shikanja}",
                        ),
                    ),
                    of_things=False,
                ),
                Pair(  # shooting near
                    who=(
                        "ډزې", "ډز", "ډزو", "ګولۍ", "مرمۍ",
                        *_spellings("{dazi,daze,dze,daz}", "{golai,golay,marmai}"),
                    ),
                    what=(
                        "نږدې", "همدا اوس", "کیږي", "کېږي", "زموږ کور", "کور ته", "دیوال", "لګي",
                        "راباندې", "پر موږ", "په موږ", "دلته", "هر ځای", "ځمکه", "پراته",
                        *_spellings(
                            "{nizde,nezhde,nazhde,nizhde}", "hamda os", "{kegi,keji}",
                            "{zmung,zmuzh} kor", "kor ta", "{dewal,diwal}", "lagi",
                            "{rabande,rabandi}", "{par,pa} {mung,muzh}", "dalta", "har zay",
                            "zmaka", "prata",
                        ),
                    ),
                    of_things=False,
                ),
                Pair(  # they know who you are, where you live
                    who=(
                        "پوهیږو", "پوهېږو", "پوهیږي", "پوهېږي",
                        *_spellings("{pohegu,pohigu,pohegi,pohigi}"),
                    ),
                    what=(
                        "ژباړن", "ژباړونکی", "کار کاوه", "اردو", "امریکایانو", "بهرنیانو",
                        "چېرته اوسې", "چېرته اوسېږې", "چېرته یې", "چېرته یم", "چېرته یو",
                        *_spellings(
                            "{zhbaran,zhbaronkay}", "kar kawa", "urdu", "{amrikayano,bahranyano}",
                            "{chiri,cherta} {osi,osege,ye,yam,yu}",
                        ),
                    ),
                    of_things=False,
                ),
            ),
            calm=(
                "هلته هم تلاشي کوي", "موټرونه تلاشي کوي", "بکسونه تلاشي کوي",
                *_spellings(
                    "{bag,bags} talashi {kawi,kawee}", "halta {hum,ham} talashi {kawi,kawee}",
                ),
                "بکسونه تلاشي", "وسله وال ساتونکي", "هیڅوک به نه وژني", "په پوسته کې", "پټ کړم که",
                *_spellings(
                    "{bag,bags,bagona} talashi", "{wasla wal,waslawal} {satunki,satunkee}",
                    "{hich,hech} {sok,tsok} ba na {wazhni,wajni}", "pat kram ke",
                ),
                # sent home from a checkpoint; a threat denied
                "کور ته لاړ شئ", "کور ته ولاړ شئ", "ګواښ نه دی",
                *_spellings("kor ta {lar,walar} {shai,shey,sha}", "{gwakh,ghwakh} na de"),
                "سفر مو په خیر", "خوندي سفر", "ایا خوندي", "خوندي ده", "خوندي دي", "خوندي یو",
                "امنیتي خبرداری", "امنیتي ګواښ", "د هوايي ډګر دروازه", "د ابي دروازه",
                "شمالي دروازه", "ختیځه دروازه", "دروازه خلاصه", "دروازه بنده", "جلا دروازه",
                "طالبانو اعلان", "طالبانو وویل", "د طالبانو عفوه", "د طالبانو حکومت",
                "د طالبانو پوسته", "په کور کې پاتې شئ", "تلاشي پوسته", "تلاشۍ پوسته", "تلاشۍ پوستې",
                "تلاشي پوستې", "تلاشۍ پوستو", "ډز خوړلی", "ډز یې خوړلی", "ګولۍ خوړلې", "زنګ ووه",
                "زنګ وه", "زنګ ووهئ",
                "ګولۍ خلاصې", "ګولۍ یې خلاصې", "چې ډزې وشوې", "ډزې وشوې", "پرون ډزې", "ټېل وهل",
                "ټېله وهل", "ټېل وهي", "نه پوهیږو", "نه پوهېږو", "نه پوهیږي", "نه پوهېږي",
                "د ډزو وروسته", "له ډزو وروسته", "ګرمي وهلی", "لمر وهلی", "چیغې وهي", "ګولۍ لګېدلې",
                "ګولۍ ولګېده", "مرمۍ لګېدلې", "مرمۍ ولګېده", "ګولۍ ورلګېده",
                "زنګ وواهه", "زنګ ووهه", "ګرمي وواهه", "لمر وواهه", "زنګ وهلی", "زنګ وهلې",
                "زنګ وهلي", "زنګ نه دی وهلی", "زنګ یې نه دی وهلی", "لو وهلی", "لو وهلې",
                "ښار ته ننوتل", "کابل ته ننوتل",
                *_spellings(
                    "safar mo pa {khair,kheir}", "khwandi {safar,da,di,yu}",
                    "darwaza {khlasa,banda}", "da abbey darwaza", "jala darwaza",
                    "talibano {elan,wowayal}", "da talibano {afwa,hukumat,posta}",
                    "{talashi,talaashi} {posta,poste,posto}",
                    "zang {ye,} {na de,} {wahalay,wahali,wahale}",
                    "{lu,loo} {wahalay,wahali,wahale}",
                    "{khar,kabul} ta {nanawatal,nanawatali}",
                    "{daz,golai,golay} {ye,} {khwaralay,khwarale,khorale,khwaralai}",
                    "zang {wawaham,wahi,wawaha,wuwaha,wawahai}", "golai ye khlase",
                    "tel {wahal,wahi}", "{garmi,lmar} {wahalay,wahali,wahale}",
                    "{cheghe,chighe} wahi", "na {pohegu,pohigu,pohegi,pohigi}",
                    "{dazi,daze} {wshwe,wshwi,washwe}",
                    "{golai,golay,marmai} {lagedali,lagedale,wlagheda,wlageda,warlageda}",
                    "{hich,hech} {masala,masla,masale}",  # no problem, not armed men
                ),
            ),
        ),
    },
)  # fmt: skip

DANGER_WORDS: Final[dict[str, DangerWords]] = {
    ENGLISH: ENGLISH_WORDS,
    DARI: DARI_WORDS,
    PASHTO: PASHTO_WORDS,
}

#: Words that make a sentence a report of what others saw or said (a video, the news on TV, a
#: rumour): news of threats, not one's own.
REPORTS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "video", "videos", "clip", "tv", "television", "facebook", "radio", "youtube", "twitter",
        "rumour", "rumor", "on the news", "in the news", "press conference", "spokesman",
    ),
    DARI: (
        "ویدیو", "ویدیوی", "ویدئو", "کلیپ", "تلویزیون", "فیسبوک", "رادیو", "یوتیوب", "شایعه",
        "اخبار", "کنفرانس خبری", "سخنگوی", "video", "clip", "telewizion", "tv", "facebook",
        "radio", "shaya", "shaiya", "press conference", "sokhangoy",
    ),
    PASHTO: (
        "ویډیو", "ویډیوګانې", "کلیپ", "تلویزیون", "ټلویزیون", "فیسبوک", "راډیو", "اوازه",
        "خبرونو", "ویاند", "خبري کنفرانس", "video", "clip", "tv", "facebook", "radio", "awaza",
        "press conference", "wayand",
    ),
}  # fmt: skip

#: Words that say the danger is over or long past (now fine, found, last year, nobody hurt): a
#: message with one asks about something else, and neither a wound nor a loss in it is read as
#: one now; a threat still is.
RESOLVED: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "now fine", "is fine now", "are fine now", "now ok", "now okay", "is ok now",
        "all good now", "recovered", "has healed", "is healed", "last year", "years ago",
        "as a child", "when i was a child", "nobody was hurt", "no one was hurt",
        "but he came back", "but she came back", "but they came back",
        "nobody was injured", "no one was injured", "nobody injured", "no one injured",
        "was missing but", "were missing but", "brought him back to us", "brought her back to us",
        "brought them back to us", "we are all together now", "we are together now",
    ),
    DARI: (
        "خوب شده", "جور شده", "صحت یاب", "سال گذشته", "پارسال", "چند سال پیش", "وقتی بچه بودم",
        "در کودکی", "کسی زخمی نشد", "هیچ کس زخمی نشد", "ولی پس آمد", "مگر پس آمد",
        "ولی پیدا شد", "مگر پیدا شد", "پس آوردش", "همه یکجا هستیم",
        *_spellings(
            "{khub,khob,jor} {shuda,shoda}", "{parsal,par sal}", "sal {e,} {gozashta,guzashta}",
            "{lekin,wale,magar} {shab,} pas {amad,omad}",
            "{hich kas,hichkas,kasi} zakhmi {nashud,nashuda}",
            "{wale,magar} {peda,paida} {shod,shud}", "pas {award,award,awardesh}",
            "hama yakja {hastem,hastim}",
        ),
    ),
    PASHTO: (
        "اوس روغ", "روغ دی", "روغ شو", "روغه ده", "جوړ دی", "جوړ شو", "جوړه ده", "تېر کال",
        "پروسږکال", "یو کال مخکې", "په ماشومتوب", "بېرته راغی", "بېرته راغله", "پیدا شوه",
        "هیڅوک ټپي نه", "هیچا ته زیان نه", "خو پیدا شو", "بېرته راوست", "ټول یو ځای یو",
        *_spellings(
            "{os,oos} {jor,rogh}", "{jor,rogh} {de,da,shu,shway,shaway}", "{tera,teer,tir} kal",
            "yaw kal {makhke,makhki}", "{bertha,berta} {raghay,raghla}", "paida {shwa,shu}",
            "{hech,hich} {sok,tsok} {zakhmi,tapi} na", "kho {paida,peda} {sho,shu}",
            "{berta,bertha} {rawost,rawrost}", "{tol,tul} {yo,yaw} {zay,zai} {yu,yo}",
        ),
    ),
}  # fmt: skip

#: Words that make a sentence what others say or announce, or a question whether news is true
#: or a place calm now, or about a form's words ("is it true", "or is it calm now", "someone
#: said", "everyone is forgiven", "in the form"): read as a report of threats, not one's own,
#: unless a threat still on (:data:`STILL_THREAT`) stands in the same sentence.
HEARSAY: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "is it true", "is that true", "if true", "if its true", "if it is true", "or just rumour",
        "or just a rumour", "or just rumor", "or is it calm", "or calm", "has it calmed",
        "calmed down", "or is it quiet", "or quiet", "or still", "someone said", "somebody said",
        "people say", "people are saying", "everyone is forgiven", "all are forgiven",
        "forgiven", "general amnesty", "in the form", "on the form", "in the application",
    ),
    DARI: (
        "راست است", "راست اس", "راست هست", "یا گپ مردم", "یا آرام شده", "یا آرام است",
        "یا ارام شده", "یا هنوز", "کسی گفت", "کسی گفته", "مردم میگن", "مردم میگویند",
        "بخشیده شدند", "بخشیده شده", "عفو عمومی",
        "در فورم", "چه معنی", "چی معنی", "معنی دارد",
        *_spellings(
            "rast {as,ast,hast}", "ya {aram,arom} {shuda,as,ast}", "ya {hanoz,hanuz}",
            "{kasi,kase} {goft,gofta}", "mardom {megan,meguyan}",
            "{bakhshida,bakhshide} {shudan,shodan,shuda}",
            "{afw,afu} {e,} {umumi,omumi}", "da form",
            "{chi,che} {maana,mana,mani} {dara,darad}",
        ),
    ),
    PASHTO: (
        "رښتیا ده", "رښتیا دي", "رښتیا دی", "که یوازې اوازې", "اورېدلي چې", "اوریدلي چې",
        "که آرام شوی", "که ارام شوی", "که لا هم", "څوک وایي", "خلک وایي", "بښل شوي",
        "بخښل شوي", "عمومي بښنه", "په فورم کې", "څه معنی",
        *_spellings(
            "{rikhtya,rishtya,rekhtia,rikhtia} {da,di,de}", "{awredali,awrideli} che",
            "ka {aram,arom} {shaway,shawi}", "ka la", "{tsok,sok} wayi", "{khalk,khalak} wayi",
            "{bakhal,bakhshal} shawi",
            "{umumi,omumi} {bakhana,bakhkhana,bakhshana}", "pa form ke",
            "{tsa,sa} {mana,maana} lari",
        ),
    ),
}  # fmt: skip

#: Words that say the armed men came and went and did no harm, let people go or pass, that
#: everyone is fine ("asked some questions and left", "let us pass", «رها کردند», «او لاړل»,
#: "tol kha yu"): a message with one speaks of no threat now, unless a threat still on
#: (:data:`STILL_THREAT`) or harm done (:data:`HARM`) stands in it too. Someone taken is a
#: threat still.
GONE: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "and left", "then left", "and went away", "they left", "let us go", "let us pass",
        "let us through", "let me go", "let me pass", "let them go", "gave it back",
        "gave them back", "gave back", "with no problem", "without any problem",
        "without problem", "no problems", "everyone ok", "everyone is ok", "everyone okay",
        "everyone is fine", "everyone here is fine", "everyone fine", "all fine", "all ok",
        "we are all safe", "we are fine", "we are ok", "nothing happened", "polite",
        "respectful",
    ),
    DARI: (
        "و رفتند", "بعد رفتند", "رها کردند", "رها کرد", "رهایم کردند", "اجازه دادند",
        "همه خوب هستند", "همه خوب استن", "همه خوب است", "همه خوب هستیم", "کسی آسیب ندید",
        "هیچ کس آسیب ندید", "عادی بود", "مشکلی نبود", "بدون کدام مشکل", "بدون مشکل",
        "پس دادند", "با احترام", "با ادب",
        *_spellings(
            "wa {raftan,raftand}", "{rahayi,rahai,raha} {kadan,kardan,kardand,kard,kad}",
            "{ejaza,ijaza} {dadan,dadand}", "hama {khub,khob} {as,ast,hastan,hastem,astan}",
            "{kasi,hich kas} {asib,aseeb} {nadid,nadida}", "adi {bud,bod}",
            "{bidun,bedun,bedon} {kudam,kodam,} {moshkel,mushkil,mushkel}",
            "pas {dadan,dadand}", "ba {ehtiram,ihtiram,adab}",
        ),
    ),
    PASHTO: (
        "او لاړل", "بیا لاړل", "پرېښودو", "پرېښودل", "پریښودو", "پریښودل", "ټول ښه یو",
        "ټول ښه دي", "ټول روغ یو", "هیچا ته زیان ونه رسید", "هیچا ته زیان نه دی رسیدلی",
        "بې له کومې ستونزې", "بېرته یې راکړ", "با ادبه", "په درناوي",
        *_spellings(
            "aw lar {shu,shwal,sho}", "{tol,tul} {kha,khe,rogh} {yu,di,yo}",
            "{hecha,hicha} ta {zyan,ziyan} {wana,na} {rasid,rased}",
            "be la {kome,kumi} {stunze,stonze}", "{berta,bertha} ye {rakar,rakra}",
            "ba {adaba,adab}", "{prekhodo,prekhodu,preshodo,prekhodal}",
        ),
    ),
}  # fmt: skip

#: Words that keep a threat a threat though the men left, the news is asked about or it was
#: weeks ago: a threat to come ("will come back", "again tonight", «برمیگردیم», «بیا راځو»),
#: someone still hunted, held or hiding, a plea for help.
STILL_THREAT: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "will come back", "come back", "coming back", "will return", "come again",
        "coming again", "again tonight", "back tonight", "come tonight", "coming tonight",
        "tonight they", "next time", "will kill", "will take", "they will", "said they will",
        "looking for", "searching for", "asking for him", "asking for her", "still outside",
        "still there", "still looking", "hiding", "holding", "wont let", "won't let",
        "dont let", "not let", "didnt let", "did not let", "help us", "help me", "please help",
        "plz help", "pls help",
    ),
    DARI: (
        "دوباره میایم", "دوباره میاییم", "دوباره میاین", "دوباره میایند", "پس میایم",
        "پس میاییم", "پس میاین", "برمیگردیم", "برمیگردند", "امشب میایم", "امشب میاین",
        "دنبال", "میپالند", "میپالن", "سراغ", "پت استیم", "پت هستیم", "پنهان", "میکشیم",
        "میکشن", "کمک کنید", "کمک کنین",
        *_spellings(
            "{dobara,dubara} {meyayem,meyan,miayem,meyaim}", "pas {meyayem,meyan,miayem,meyaim}",
            "{barmegardem,barmegardan}", "{dunbal,donbal}", "{mepalan,mepalen}",
            "{pet,pat} {astem,hastem}", "komak {konen,konin,konid}",
        ),
    ),
    PASHTO: (
        "بیا راځو", "بیا راځي", "بېرته راځو", "بېرته راځي", "بیا به راشو", "پسې ګرځي",
        "پسې ګرځو", "لټوي", "پټ یو", "پټ شوی", "مرسته وکړئ", "مرسته وکړه",
        *_spellings(
            "{bya,bia} {razu,razi}", "{berta,bertha} {razu,razi}", "pase {gardzi,garzi}",
            "latawi", "pat {yu,shaway}", "mrasta {wakrai,wakra}",
        ),
    ),
}  # fmt: skip

#: Words that say harm was done (beaten, threatened, a night letter left): the men who did it
#: and left are no men who came and went (:data:`GONE`), nor is it weeks past (:data:`PAST`).
#: A rumour of a beating (:data:`HEARSAY`) is still a rumour.
HARM: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "beat", "beaten", "beating", "whipped", "tortured", "threatened", "night letter",
        "shot at", "left a", "left us a", "left the",
    ),
    DARI: (
        "لت و کوب", "لت کردند", "لت کدن", "تهدید کردند", "تهدید کدن", "تهدیدم کردند",
        "تهدید میکنن", "شبنامه", "شب نامه",
        *_spellings(
            "{latt,lat} {kadan,kardan}", "{tahdid,tahdeed} {kadan,kardan,mekonan}",
            "{shabnama,shab nama}",
        ),
    ),
    PASHTO: (
        "وهلی", "ووهل", "ګواښ یې کړی", "ګواښ یې وکړ", "ګواښ کوي", "شپنامه", "شبنامه",
        *_spellings(
            "{wahalay,wowahal}", "{gwakh,ghwakh} {ye karay,ye wakar,kawi}",
            "{shpanama,shabnama}",
        ),
    ),
}  # fmt: skip

#: Words that put a clause weeks or months before now ("last week", «ماه پیش», «تېره میاشت»):
#: the threat it tells of is past, unless a threat still on (:data:`STILL_THREAT`) or harm done
#: (:data:`HARM`) stands in the message. A wound or a loss in it still counts (kernel/danger.py).
PAST: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "last week", "last month", "weeks ago", "months ago", "a week ago", "a month ago",
        "the week before", "the month before",
    ),
    DARI: (
        "هفته گذشته", "هفته پیش", "ماه گذشته", "ماه پیش", "چند هفته پیش", "چند ماه پیش",
        *_spellings(
            "hafta {e,} {gozashta,guzashta,pesh}", "mah {e,} {gozashta,guzashta,pesh}",
            "chand {hafta,mah} pesh",
        ),
    ),
    PASHTO: (
        "تېره اونۍ", "تېره میاشت", "څو اونۍ مخکې", "څو میاشتې مخکې", "یوه میاشت مخکې",
        *_spellings(
            "{tera,teera} {owanai,owanay,wanai,miasht,myasht}",
            "{tso,so} {owanai,miashte,myashte} {makhke,makhki}",
            "{yawa,yaw} {miasht,myasht} {makhke,makhki}",
        ),
    ),
}  # fmt: skip

#: Words that make a clause a question wherever they stand, for the answer that follows the help
#: ("lost my son at the gate, when is the next flight?").
QUESTION_WORDS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("when", "where", "which", "what", "how"),
    DARI: (
        "آیا", "ایا", "کی", "کدام", "کجا", "چطور", "چند", "چه وقت", "aya", "kay", "kai", "kudam",
        "kodam", "kuja", "koja", "chitor", "chetor", "chand",
    ),
    PASHTO: (
        "ایا", "آیا", "کله", "چېرته", "چیرته", "کوم", "کومه", "څنګه", "څه وخت", "kala", "kalla",
        "cherta", "chirta", "kum", "kuma", "tsanga", "tsa wakht",
    ),
}  # fmt: skip
#: Words that make a clause a question when it begins with them ("is the gate open").
QUESTION_OPENERS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("is", "are", "can", "could", "do", "does", "will", "should", "any"),
    DARI: ("آیا", "ایا", "aya"),
    PASHTO: ("ایا", "آیا"),
}

refuse_gaps(
    gaps(DANGER_WORDS, "kernel/lang/danger_words.py DANGER_WORDS")
    + gaps(REPORTS, "kernel/lang/danger_words.py REPORTS")
    + gaps(RESOLVED, "kernel/lang/danger_words.py RESOLVED")
    + gaps(HEARSAY, "kernel/lang/danger_words.py HEARSAY")
    + gaps(GONE, "kernel/lang/danger_words.py GONE")
    + gaps(STILL_THREAT, "kernel/lang/danger_words.py STILL_THREAT")
    + gaps(HARM, "kernel/lang/danger_words.py HARM")
    + gaps(PAST, "kernel/lang/danger_words.py PAST")
    + gaps(QUESTION_WORDS, "kernel/lang/danger_words.py QUESTION_WORDS")
    + gaps(QUESTION_OPENERS, "kernel/lang/danger_words.py QUESTION_OPENERS")
)
