"""The words around the help a person in danger gets first (actions/chat/danger.py).

The lines themselves (who answers, the number, the hours) come from the content database; these
are the headings, the few things to do now, and the one line about the urgent case. SMS forms
(``sms_…``) put the number first and fit, with the case line, in three SMS.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry

TEXTS: Final[dict[str, Entry]] = {
    # Headings, one per kind of danger, before its lines.
    "title_missing": {
        "en": "A child or a relative lost or missing — call now:",
        "prs": "طفل یا یکی از اعضای فامیل گم شده — همین حالا زنگ بزنید:",
        "ps": "ماشوم یا کوم خپلوان مو ورک دی — همدا اوس زنګ ووهئ:",
    },
    "title_medical": {
        "en": "Someone wounded or very sick — call now:",
        "prs": "کسی زخمی یا سخت مریض است — همین حالا زنگ بزنید:",
        "ps": "څوک ټپي یا سخت ناروغ دی — همدا اوس زنګ ووهئ:",
    },
    "title_threat": {
        "en": "If you are threatened or in danger — call now:",
        "prs": "اگر تهدید شده‌اید یا در خطر هستید — همین حالا زنگ بزنید:",
        "ps": "که ګواښل شوي یاست یا په خطر کې یاست — همدا اوس زنګ ووهئ:",
    },
    # What to do now, after the lines.
    "advice_missing": {
        "en": "Stay where you agreed to meet, or where you last saw them. Tell the line the "
        "child's name, age and clothes. Write your phone number on each child's arm.",
        "prs": "در جایی که با هم وعده کرده بودید، یا جایی که او را آخرین بار دیدید، بمانید. وقتی "
        "زنگ زدید، نام، سن و لباس طفل را بگویید. نمبر تیلفون خود را بالای بازوی هر طفل بنویسید.",
        "ps": "په هغه ځای کې پاتې شئ چې هلته مو د سره لیدو وعده کړې وه، یا چېرته چې مو وروستی ځل "
        "ولید. کله چې زنګ ووهئ، د ماشوم نوم، عمر او جامې ووایاست. د خپل ټیلیفون شمېره د هر "
        "ماشوم پر مټ ولیکئ.",
    },
    "advice_medical": {
        "en": "Press hard on a bleeding wound with a clean cloth. Lay someone who fainted on "
        "their side in the shade; give water only once they are awake.",
        "prs": "اگر زخم خونریزی دارد، با یک تکهٔ پاک بالای آن محکم فشار بدهید. کسی را که بیهوش "
        "شده، به پهلو در سایه بخوابانید؛ فقط وقتی به هوش آمد، برایش آب بدهید.",
        "ps": "هغه ټپ چې وینه ترې بهېږي، په پاک ټوکر ټینګ کېکاږئ. هغه څوک چې بې هوښه شوی، په "
        "سیوري کې په اړخ وڅملوئ؛ یوازې هغه وخت اوبه ورکړئ چې په هوښ راشي.",
    },
    "advice_threat": {
        "en": "If you can, go to a safe place and stay with people you trust. Keep your "
        "documents and phone out of sight, and delete messages that could put you at risk.",
        "prs": "اگر می‌توانید، به یک جای امن بروید و پیش کسانی بمانید که به آن‌ها اعتماد دارید. "
        "اسناد و مبایل خود را پنهان نگه دارید و پیام‌هایی را که شما را به خطر می‌اندازند، پاک کنید.",
        "ps": "که کولای شئ، یو خوندي ځای ته ولاړ شئ او له هغو کسانو سره پاتې شئ چې باور پرې "
        "لرئ. خپل اسناد او موبایل پټ وساتئ، او هغه پیغامونه پاک کړئ چې تاسو په خطر کې اچوي.",
    },
    "comma": {"en": ", ", "prs": "، ", "ps": "، "},
    # When a line answers, beside it.
    "day_and_night": {"en": "day and night", "prs": "شبانه‌روزی", "ps": "د شپې او ورځې"},
    "open_until": {
        "en": "answers now, until {closes}",
        "prs": "همین حالا جواب می‌دهد، تا {closes}",
        "ps": "همدا اوس ځواب ورکوي، تر {closes} پورې",
    },
    "opens_at": {
        "en": "closed now, answers from {opens}",
        "prs": "فعلاً بسته است، از {opens} جواب می‌دهد",
        "ps": "اوس تړلې ده، له {opens} څخه ځواب ورکوي",
    },
    # No line of the kind answers at this hour: said before the best there is.
    "none_now": {
        "en": "No line for this answers at this hour. The best we have:",
        "prs": "در این ساعت هیچ خطی برای این کار جواب نمی‌دهد. بهترین چیزی که داریم:",
        "ps": "په دې وخت کې د دې لپاره هېڅ کرښه ځواب نه ورکوي. تر ټولو ښه چې یې لرو:",
    },
    "none_known": {
        "en": "We have no checked number for this yet. Ask the people around you for help and "
        "go to the nearest place where there are guards or medics.",
        "prs": "هنوز برای این کار نمبر تاییدشده نداریم. از مردم اطراف خود کمک بخواهید و به "
        "نزدیک‌ترین جایی بروید که محافظ یا کارمند صحی دارد.",
        "ps": "د دې لپاره لا تایید شوې شمېره نه لرو. له شاوخوا خلکو مرسته وغواړئ او تر ټولو نږدې "
        "هغه ځای ته ولاړ شئ چې ساتونکي یا روغتیايي کارکوونکي پکې وي.",
    },
    "hotline": {
        "en": "Emergency line: {hotline}",
        "prs": "خط عاجل: {hotline}",
        "ps": "بیړنۍ کرښه: {hotline}",
    },
    # The urgent case, in one line.
    "case_soon": {
        "en": "A caseworker sees urgent cases first: yours is in the queue, usually answered "
        "within {wait} minutes in this chat. Write “cancel” to withdraw it.",
        "prs": "کارمندان اول قضیه‌های عاجل را می‌بینند: قضیهٔ شما در نوبت است و معمولاً تا "
        "{wait} دقیقه در همین چت جواب می‌گیرد. برای پس گرفتن آن «لغو» بنویسید.",
        "ps": "کارکوونکي لومړی بیړنۍ قضیې ګوري: ستاسو قضیه په نوبت کې ده او معمولاً په {wait} "
        "دقیقو کې په همدې چټ کې ځواب درکوي. د بېرته اخیستلو لپاره «لغوه» ولیکئ.",
    },
    "case_later": {
        "en": "A caseworker sees urgent cases first: yours is in the queue for {opens} Kabul "
        "time, when they start. Until then, call the number above. Write “cancel” to withdraw it.",
        "prs": "کارمندان اول قضیه‌های عاجل را می‌بینند: قضیهٔ شما در نوبت است و کارمندان به وقت "
        "کابل از {opens} کار را شروع می‌کنند. تا آن وقت به نمبر بالا زنگ بزنید. برای پس "
        "گرفتن آن «لغو» بنویسید.",
        "ps": "کارکوونکي لومړی بیړنۍ قضیې ګوري: ستاسو قضیه په نوبت کې ده او کارکوونکي د کابل په "
        "وخت {opens} کار پیلوي. تر هغه وخته پورته شمېرې ته زنګ ووهئ. د بېرته اخیستلو لپاره "
        "«لغوه» ولیکئ.",
    },
    "case_marked": {
        "en": "Your case is now marked urgent: a caseworker sees it first.",
        "prs": "قضیهٔ شما حالا عاجل نشانی شد: کارمند آن را اول می‌بیند.",
        "ps": "ستاسو قضیه اوس بیړنۍ په نښه شوه: کارکوونکی به یې لومړی ګوري.",
    },
    "case_none": {
        "en": "No caseworker can take this in the chat right now: please call the number above.",
        "prs": "همین حالا هیچ کارمندی در چت به این رسیدگی کرده نمی‌تواند: لطفاً به نمبر بالا "
        "زنگ بزنید.",
        "ps": "همدا اوس هېڅ کارکوونکی په چټ کې ځواب نه شي درکولای: مهرباني وکړئ پورته شمېرې ته "
        "زنګ ووهئ.",
    },
    # SMS: the number first, a few words of what to do, the case in a few words. English stays
    # in the GSM alphabet (no dashes or curly quotes), so that three SMS hold 459 characters.
    "sms_missing": {
        "en": "lost family. Stay where you agreed; give the child's name and clothes.",
        "prs": "فامیل گم‌شده. در جای وعده بمانید؛ نام و لباس طفل را بگویید.",
        "ps": "ورک خپلوان. په ټاکلي ځای کې پاتې شئ؛ د ماشوم نوم او جامې ووایاست.",
    },
    "sms_medical": {
        "en": "wounded or sick. Press on a bleeding wound; lay a fainted person on their side.",
        "prs": "زخمی یا مریض. بالای زخم خونی فشار بدهید؛ بیهوش را به پهلو بخوابانید.",
        "ps": "ټپي یا ناروغ. ټپ ټینګ کېکاږئ چې وینه ودرېږي؛ بې هوښه په اړخ وڅملوئ.",
    },
    "sms_threat": {
        "en": "threat. Go somewhere safe, with people you trust.",
        "prs": "تهدید. به جای امن، پیش افراد مورد اعتماد بروید.",
        "ps": "ګواښ. خوندي ځای ته، له باوري کسانو سره، ولاړ شئ.",
    },
    "sms_none": {
        "en": "No checked number for this yet: ask people near you for help.",
        "prs": "هنوز نمبر تاییدشده نداریم: از مردم اطراف خود کمک بخواهید.",
        "ps": "لا تایید شوې شمېره نه لرو: له شاوخوا خلکو مرسته وغواړئ.",
    },
    "sms_case_soon": {
        "en": "Urgent case opened: a caseworker answers here in about {wait} min. To cancel: "
        "write cancel",
        "prs": "قضیهٔ عاجل باز شد: کارمند حدود {wait} دقیقه بعد همین‌جا جواب می‌دهد. لغو: «لغو»",
        "ps": "بیړنۍ قضیه پرانیستل شوه: کارکوونکی شاوخوا {wait} دقیقې وروسته دلته ځواب درکوي. "
        "لغوه: «لغوه»",
    },
    "sms_case_later": {
        "en": "Urgent case opened: a caseworker sees it first at {opens}. To cancel: write cancel",
        "prs": "قضیهٔ عاجل باز شد: کارمند از {opens} اول آن را می‌بیند. لغو: «لغو»",
        "ps": "بیړنۍ قضیه پرانیستل شوه: کارکوونکی یې {opens} لومړی ګوري. لغوه: «لغوه»",
    },
    "sms_case_marked": {
        "en": "Your case is marked urgent.",
        "prs": "قضیهٔ شما عاجل نشانی شد.",
        "ps": "ستاسو قضیه بیړنۍ په نښه شوه.",
    },
    "sms_case_none": {
        "en": "No caseworker now: call the number.",
        "prs": "همین حالا کارمند نیست: به نمبر زنگ بزنید.",
        "ps": "اوس کارکوونکی نشته: شمېرې ته زنګ ووهئ.",
    },
}
