"""The editors' console's own words: its pages, buttons and notices, and the names it gives
record kinds (``kind.*``) and fields (``field.*``).

Aid workers are often Afghan staff: the interface speaks their language, right to left for
Dari and Pashto. The content itself stays in the three languages the editor is editing,
whatever the interface language; these are only the console's labels. A field without a
``field.*`` entry shows its name.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry, group

TEXTS: Final[dict[str, Entry]] = {
    "title": {"en": "Editors' console", "prs": "صفحهٔ ایدیتوران", "ps": "د اېډیټرانو مېز"},
    "home": {"en": "What needs me now", "prs": "کارهای فوری", "ps": "بیړني کارونه"},
    "records": {"en": "All records", "prs": "همه معلومات", "ps": "ټول معلومات"},
    "sign_in": {"en": "Sign in", "prs": "ورود", "ps": "ننوتل"},
    "sign_out": {"en": "Sign out", "prs": "خروج", "ps": "وتل"},
    "signed_in_as": {"en": "Signed in as", "prs": "وارد شده:", "ps": "ننوتی:"},
    "code_or_token": {
        "en": "Sign-in code or editor token",
        "prs": "کد ورود یا توکن ایدیتور",
        "ps": "د ننوتو کوډ یا د اېډیټر ټوکن",
    },
    "sign_in_help": {
        "en": "Ask an administrator for a sign-in link. A code works once.",
        "prs": "از مدیر سیستم لینک ورود بخواهید. هر کد تنها یک بار کار می‌کند.",
        "ps": "له مدیر څخه د ننوتو لینک وغواړئ. هر کوډ یوازې یو ځل کار کوي.",
    },
    "sign_in_refused": {
        "en": "This code or token does not work: it is wrong, used already or expired.",
        "prs": "این کد یا توکن کار نمی‌کند: اشتباه است، قبلاً استفاده شده یا وقتش گذشته.",
        "ps": "دا کوډ یا ټوکن کار نه کوي: ناسم دی، مخکې کارول شوی یا یې وخت تېر شوی.",
    },
    "too_many_tries": {
        "en": "Too many failed sign-ins from here. Try again in {minutes} min.",
        "prs": "از اینجا چند بار ورود ناکام شد. پس از {minutes} دقیقه دوباره کوشش کنید.",
        "ps": "له دې ځایه ډېر ناکام ننوتل وشول. {minutes} دقیقې وروسته بیا هڅه وکړئ.",
    },
    "signed_out": {
        "en": "You are signed out.",
        "prs": "از سیستم خارج شدید.",
        "ps": "تاسو ووتلئ.",
    },
    "form_expired": {
        "en": "This form is not valid any more (it lacks its security code or is from an "
        "earlier sign-in). Nothing was changed: open the page again and retry.",
        "prs": "این فورم دیگر معتبر نیست (کد امنیتی ندارد یا از ورود قبلی است). هیچ چیزی "
        "تغییر نکرد: صفحه را دوباره باز کنید و کوشش کنید.",
        "ps": "دا فورم نور اعتبار نه لري (امنیتي کوډ نه لري یا د پخواني ننوتو دی). هېڅ شی "
        "بدل نه شو: پاڼه بیا پرانیزئ او بیا هڅه وکړئ.",
    },
    "form_unreadable": {
        "en": "This form could not be read: a file name with a line break in it, perhaps. "
        "Nothing was changed: rename the file and send it again.",
        "prs": "این فورم خوانده نشد؛ شاید در نام فایل یک سطر نو باشد. هیچ چیزی تغییر نکرد: "
        "نام فایل را عوض کنید و دوباره بفرستید.",
        "ps": "دا فورم ونه لوستل شو؛ ښايي د فایل په نوم کې نوې کرښه وي. هېڅ شی بدل نه شو: "
        "د فایل نوم بدل کړئ او بیا یې ولېږئ.",
    },
    #: Gates whose note says the airport is closed while it is not (actions/consistency.py).
    "contradicting": {
        "en": "Gates that say the airport is closed",
        "prs": "دروازه‌هایی که می‌گویند میدان هوایی بسته است",
        "ps": "هغه دروازې چې وايي هوايي ډګر بند دی",
    },
    "contradicting_why": {
        "en": "Its note says “{note}”, but {airport} is {state}. Change the gate's state and note.",
        "prs": "یادداشت آن می‌گوید «{note}»، ولی {airport} {state} است. وضعیت و یادداشت "
        "دروازه را تغییر دهید.",
        "ps": "یادښت یې وايي «{note}»، خو {airport} {state} دی. د دروازې حالت او یادښت بدل کړئ.",
    },
    "stale": {
        "en": "Past their freshness limit",
        "prs": "وقت بررسی‌شان گذشته",
        "ps": "د کتنې وخت یې تېر شوی",
    },
    "soon_stale": {
        "en": "About to pass it",
        "prs": "به‌زودی باید بررسی شوند",
        "ps": "ژر باید وکتل شي",
    },
    "expired": {
        "en": "Expired: shown as out of date",
        "prs": "اعتبارشان ختم شده: کهنه نشان داده می‌شوند",
        "ps": "اعتبار یې پای ته رسېدلی: زاړه ښودل کېږي",
    },
    "missing_translations": {
        "en": "Texts missing a translation",
        "prs": "متن‌های بدون ترجمه",
        "ps": "بې ژباړې متنونه",
    },
    "failed_alerts": {
        "en": "Alerts that failed",
        "prs": "پیام‌های خبری که نرسید",
        "ps": "خبرتیاوې چې ونه رسېدې",
    },
    "nothing_needed": {
        "en": "Nothing needs you now.",
        "prs": "فعلاً کار فوری نیست.",
        "ps": "اوس کوم کار تاسو ته اړتیا نه لري.",
    },
    "checked_ago": {
        "en": "last checked {ago}, limit {limit}",
        "prs": "آخرین بررسی {ago}، حد {limit}",
        "ps": "وروستۍ کتنه {ago}، حد {limit}",
    },
    "over_by": {
        "en": "{time} past the limit",
        "prs": "{time} از حد گذشته",
        "ps": "{time} له حد تېر",
    },
    "left": {"en": "{time} left", "prs": "{time} مانده", "ps": "{time} پاتې"},
    "expired_ago": {
        "en": "expired {time} ago",
        "prs": "{time} پیش ختم شد",
        "ps": "{time} مخکې پای ته ورسېد",
    },
    "recent_alerts": {
        "en": "Alerts of the last 24 hours",
        "prs": "پیام‌های خبری ۲۴ ساعت گذشته",
        "ps": "د تېرو ۲۴ ساعتونو خبرتیاوې",
    },
    # What became of a change's alerts (actions/admin/console/alert_outcomes.py), joined by
    # cases' "sep"; the reasons are the caseworkers' words (cases.py provider_*, undelivered_*).
    "alert_total": {"en": "Subscribers: {n}", "prs": "مشترکین: {n}", "ps": "ګډون‌وال: {n}"},
    "alert_waiting": {
        "en": "{n} waiting to be sent",
        "prs": "{n} در انتظار فرستادن",
        "ps": "{n} د لېږلو په تمه",
    },
    "alert_sent": {
        "en": "{n} sent, no report yet",
        "prs": "{n} فرستاده شد، هنوز خبری نیامده",
        "ps": "{n} ولېږل شوې، لا خبر نه دی راغلی",
    },
    "alert_delivered": {"en": "{n} delivered", "prs": "{n} رسید", "ps": "{n} ورسېدې"},
    "alert_read": {"en": "{n} read", "prs": "{n} خوانده شد", "ps": "{n} ولوستل شوې"},
    "alert_failed": {"en": "{n} failed", "prs": "{n} نرسید", "ps": "{n} ونه رسېدې"},
    "alert_not_sent": {
        "en": "{n} not sent (unsubscribed, or a newer alert replaced it)",
        "prs": "{n} فرستاده نشد (اشتراک لغو شد، یا پیام خبری تازه‌تر جای آن را گرفت)",
        "ps": "{n} ونه لېږل شوې (ګډون لغوه شو، یا نوې خبرتیا یې ځای ونیو)",
    },
    "alert_failed_why": {
        "en": "failed: {reason} ({n})",
        "prs": "نرسید: {reason} ({n})",
        "ps": "ونه رسېدې: {reason} ({n})",
    },
    "checked_button": {
        "en": "Checked, still true",
        "prs": "بررسی شد، هنوز درست است",
        "ps": "وکتل شو، لا سم دی",
    },
    "checked_done": {
        "en": "Marked as checked: {record}. Nobody was alerted.",
        "prs": "بررسی‌شده ثبت شد: {record}. به کسی پیام خبری فرستاده نشد.",
        "ps": "کتل شوی ثبت شو: {record}. هېچا ته خبرتیا ونه لېږل شوه.",
    },
    "edit": {"en": "Edit", "prs": "ویرایش", "ps": "سمول"},
    "new": {"en": "New", "prs": "جدید", "ps": "نوی"},
    "key": {"en": "Key", "prs": "کلید", "ps": "کیلي"},
    "open": {"en": "Open", "prs": "باز کردن", "ps": "پرانیستل"},
    "note": {
        "en": "Why (shown in the history)",
        "prs": "چرا (در تاریخچه دیده می‌شود)",
        "ps": "ولې (په تاریخچه کې ښکاري)",
    },
    "verified_now": {
        "en": "empty: checked now",
        "prs": "خالی: همین حالا بررسی شد",
        "ps": "تش: همدا اوس وکتل شو",
    },
    "kabul_time": {"en": "Kabul time", "prs": "به وقت کابل", "ps": "د کابل په وخت"},
    "allow_missing": {
        "en": "Publish even if a translation is missing (readers get another language meanwhile)",
        "prs": "نشر شود حتی اگر ترجمه‌ای کم باشد (خوانندگان فعلاً زبان دیگری می‌بینند)",
        "ps": "خپور شي که څه هم ژباړه نشته (لوستونکي تر هغه بله ژبه ویني)",
    },
    "same_texts": {
        "en": "The languages I did not change still say the same",
        "prs": "زبان‌هایی که تغییر ندادم هنوز همان را می‌گویند",
        "ps": "هغه ژبې چې ما بدلې نه کړې لا هماغه وايي",
    },
    "close_gates": {
        "en": "Close the gates too: {gates}",
        "prs": "دروازه‌ها را هم ببندید: {gates}",
        "ps": "دروازې هم وتړئ: {gates}",
    },
    "confirm_unchanged": {
        "en": "I checked: the {text} I did not change still holds for the new {state}",
        "prs": "بررسی کردم: {text} تغییرنکرده برای {state} جدید هنوز درست است",
        "ps": "ما وکتل: هغه {text} چې ما بدل نه کړ د نوي {state} لپاره لا سم دی",
    },
    "unchanged_flag": {
        "en": "The {state} changed, the {text} in {language_name} did not.",
        "prs": "{state} تغییر کرد، {text} به {language_name} تغییر نکرد.",
        "ps": "{state} بدل شو، {text} په {language_name} بدل نه شو.",
    },
    "not_changed_text": {
        "en": "{language_name}: not changed. Change it too, or tick “{same}”.",
        "prs": "{language_name}: تغییر نکرده. آن را هم تغییر دهید، یا «{same}» را نشانی کنید.",
        "ps": "{language_name}: نه دی بدل شوی. هغه هم بدل کړئ، یا «{same}» په نښه کړئ.",
    },
    "missing_text": {
        "en": "{language_name}: missing. Write it, or tick “{allow}”.",
        "prs": "{language_name}: خالی است. آن را بنویسید، یا «{allow}» را نشانی کنید.",
        "ps": "{language_name}: تش دی. ویې لیکئ، یا «{allow}» په نښه کړئ.",
    },
    "answer_to": {
        "en": "The answer to the question:",
        "prs": "جواب این سوال:",
        "ps": "د دې پوښتنې ځواب:",
    },
    "question_gate": {
        "en": "is {gate} open?",
        "prs": "آیا {gate} باز است؟",
        "ps": "{gate} خلاصه ده؟",
    },
    "whole_page": {
        "en": "The whole answer about the airport, every gate",
        "prs": "جواب کامل دربارهٔ میدان هوایی، همه دروازه‌ها",
        "ps": "د هوايي ډګر په اړه بشپړ ځواب، ټولې دروازې",
    },
    "sms_as_sent": {
        "en": "SMS, as sent: {n} segments",
        "prs": "SMS، همان‌طور که فرستاده می‌شود: {n} بخش",
        "ps": "اس‌ام‌اس، لکه څنګه چې لېږل کېږي: {n} برخې",
    },
    "marked_changed": {
        "en": "Highlighted: what reads differently after this change.",
        "prs": "نشانی‌شده: آنچه بعد از این تغییر طور دیگری خوانده می‌شود.",
        "ps": "نښه شوي: هغه څه چې له دې بدلون وروسته بل ډول لوستل کېږي.",
    },
    "reads_the_same": {
        "en": "This answer reads as before: nothing changed in this language.",
        "prs": "این جواب مثل قبل است: در این زبان چیزی تغییر نکرد.",
        "ps": "دا ځواب لکه پخوا دی: په دې ژبه کې هېڅ بدل نه شو.",
    },
    "not_listed": {
        "en": "{n} more, not listed: the oldest checks come first.",
        "prs": "{n} مورد دیگر فهرست نشده: قدیمی‌ترین بررسی‌ها اول آمده‌اند.",
        "ps": "{n} نور په لړ کې نه دي: زړې کتنې لومړی راغلي.",
    },
    "data": {"en": "Export and import", "prs": "صادر و وارد کردن", "ps": "صادرول او واردول"},
    "export": {"en": "Export", "prs": "صادر کردن", "ps": "صادرول"},
    "export_link": {
        "en": "Download every current record as a content file (YAML)",
        "prs": "همه معلومات فعلی را به شکل فایل محتوا (YAML) دانلود کنید",
        "ps": "ټول اوسني معلومات د منځپانګې د فایل (YAML) په توګه ښکته کړئ",
    },
    "import": {"en": "Import", "prs": "وارد کردن", "ps": "واردول"},
    "import_help": {
        "en": "All or nothing: a wrong line changes nothing and is named.",
        "prs": "همه یا هیچ: یک سطر اشتباه هیچ چیزی را تغییر نمی‌دهد و نامش گفته می‌شود.",
        "ps": "ټول یا هېڅ: یوه ناسمه کرښه هېڅ شی نه بدلوي او نوم یې اخیستل کېږي.",
    },
    "content_file": {"en": "Content file", "prs": "فایل محتوا", "ps": "د منځپانګې فایل"},
    "replace": {
        "en": "The file is the whole data set: withdraw current records it leaves out",
        "prs": "این فایل همه معلومات است: معلومات فعلی که در آن نیست پس گرفته شود",
        "ps": "دا فایل ټول معلومات دي: هغه اوسني معلومات چې پکې نشته بېرته واخیستل شي",
    },
    "count": {"en": "{n} records", "prs": "{n} مورد", "ps": "{n} توکي"},
    "search": {"en": "Find by key", "prs": "جستجو با کلید", "ps": "د کیلي له مخې لټون"},
    "find": {"en": "Find", "prs": "جستجو", "ps": "لټون"},
    "more_not_shown": {
        "en": "Only the first {n} are listed; find one by its key.",
        "prs": "تنها {n} مورد اول نشان داده شده؛ با کلید جستجو کنید.",
        "ps": "یوازې لومړي {n} ښودل شوي؛ د کیلي له مخې یې ولټوئ.",
    },
    "alert_topic": {
        "en": "Alert: {topic} {record}, {ago}",
        "prs": "پیام خبری: {topic} {record}، {ago}",
        "ps": "خبرتیا: {topic} {record}، {ago}",
    },
    "preview": {"en": "Preview", "prs": "پیش‌نمایش", "ps": "مخکتنه"},
    "publish": {"en": "Publish", "prs": "نشر", "ps": "خپرول"},
    "preview_title": {
        "en": "The answer as people will see it",
        "prs": "جواب، همان‌طور که مردم می‌بینند",
        "ps": "ځواب، لکه خلک یې چې ویني",
    },
    "chat": {"en": "Chat", "prs": "چت", "ps": "چټ"},
    "sms_segments": {
        "en": "SMS: {n} segments",
        "prs": "SMS: {n} بخش",
        "ps": "اس‌ام‌اس: {n} برخې",
    },
    "sms_cut": {
        "en": "SMS replies over 3 segments are cut; the rest comes on MORE.",
        "prs": "جواب‌های SMS بیش از ۳ بخش کوتاه می‌شوند؛ بقیه با MORE می‌آید.",
        "ps": "له ۳ برخو اوږده اس‌ام‌اس ځوابونه لنډېږي؛ پاتې یې په MORE راځي.",
    },
    "will_alert": {
        "en": "Publishing alerts {n} subscribers.",
        "prs": "نشر این تغییر به {n} مشترک پیام خبری می‌فرستد.",
        "ps": "خپرول به {n} ګډونوالو ته خبرتیا ولېږي.",
    },
    "no_preview": {
        "en": "No answer shows this record on its own; answers that cite it will change.",
        "prs": "هیچ جوابی این را به تنهایی نشان نمی‌دهد؛ جواب‌هایی که از آن یاد می‌کنند تغییر می‌کنند.",
        "ps": "هېڅ ځواب دا یوازې نه ښيي؛ هغه ځوابونه چې یادوي یې بدلېږي.",
    },
    "nothing_changed": {
        "en": "Nothing changed: the record already says this.",
        "prs": "هیچ چیزی تغییر نکرد: همین حالا همین را می‌گوید.",
        "ps": "هېڅ بدلون نه شو: همدا اوس همدا وايي.",
    },
    "published": {
        "en": "Published: {record}. {n} subscribers will be alerted.",
        "prs": "نشر شد: {record}. به {n} مشترک پیام خبری فرستاده می‌شود.",
        "ps": "خپور شو: {record}. {n} ګډونوالو ته به خبرتیا ولېږل شي.",
    },
    "changed_by": {
        "en": "Changed by {who} {ago}: your save was not applied. Compare, then publish again "
        "to replace their version with yours.",
        "prs": "{who} این را {ago} تغییر داد: ذخیرهٔ شما انجام نشد. مقایسه کنید، بعد اگر "
        "می‌خواهید نسخهٔ خود را دوباره نشر کنید.",
        "ps": "{who} دا {ago} بدل کړ: ستاسو بدلون خوندي نه شو. پرتله یې کړئ، بیا که غواړئ "
        "خپله بڼه بیا خپره کړئ.",
    },
    "their_version": {
        "en": "Their version (now)",
        "prs": "نسخهٔ آن‌ها (اکنون)",
        "ps": "د هغوی بڼه (اوس)",
    },
    "your_version": {"en": "Your version", "prs": "نسخهٔ شما", "ps": "ستاسو بڼه"},
    "fix_fields": {
        "en": "Nothing was published: fix the field marked below.",
        "prs": "چیزی نشر نشد: خانهٔ نشانی‌شده را درست کنید.",
        "ps": "هېڅ خپور نه شو: نښه شوې خانه سمه کړئ.",
    },
    "withdraw": {"en": "Withdraw", "prs": "پس گرفتن", "ps": "بېرته اخیستل"},
    "withdraw_help": {
        "en": "Answers stop showing it. It stays in the history and can be rolled back.",
        "prs": "جواب‌ها دیگر آن را نشان نمی‌دهند. در تاریخچه می‌ماند و می‌شود برگرداند.",
        "ps": "ځوابونه به یې نور نه ښيي. په تاریخچه کې پاتې کېږي او بېرته راګرځېدای شي.",
    },
    "withdrawn": {
        "en": "Withdrawn: {record}.",
        "prs": "پس گرفته شد: {record}.",
        "ps": "بېرته واخیستل شو: {record}.",
    },
    "is_withdrawn": {"en": "withdrawn", "prs": "پس گرفته شده", "ps": "بېرته اخیستل شوی"},
    "history": {"en": "History", "prs": "تاریخچه", "ps": "تاریخچه"},
    "rollback": {"en": "Undo this change", "prs": "لغو این تغییر", "ps": "دا بدلون بېرته کول"},
    "rolled_back": {
        "en": "Undone: {record}.",
        "prs": "لغو شد: {record}.",
        "ps": "بېرته وګرځول شو: {record}.",
    },
    #: Undoing an airport's closure puts back the gates closed with it (actions/publishing.py).
    "rolled_back_gates": {
        "en": "Gates put back with it: {gates}.",
        "prs": "دروازه‌هایی که همراه آن به حالت قبلی برگشتند: {gates}.",
        "ps": "هغه دروازې چې ورسره پخواني حالت ته وګرځېدې: {gates}.",
    },
    #: ... except a gate changed since: its later change may be a closure of its own.
    "rollback_left": {
        "en": "Not put back, because they changed since: {gates}. Check that each still holds.",
        "prs": "به حالت قبلی برنگشتند، چون بعداً تغییر کرده‌اند: {gates}. بررسی کنید که هر "
        "کدام هنوز درست است.",
        "ps": "پخواني حالت ته ونه ګرځول شوې، ځکه وروسته بدلې شوې دي: {gates}. وګورئ چې هره "
        "یوه لا سمه ده.",
    },
    "before": {"en": "before", "prs": "قبل", "ps": "مخکې"},
    "after": {"en": "after", "prs": "بعد", "ps": "وروسته"},
    "no_history": {"en": "No changes yet.", "prs": "هنوز تغییری نیست.", "ps": "لا هېڅ بدلون نشته."},
    "no_page": {
        "en": "There is no such page.",
        "prs": "چنین صفحه‌ای وجود ندارد.",
        "ps": "داسې پاڼه نشته.",
    },
    "not_found": {
        "en": "There is no such record.",
        "prs": "چنین معلوماتی وجود ندارد.",
        "ps": "داسې معلومات نشته.",
    },
    "minutes": {"en": "{n} min", "prs": "{n} دقیقه", "ps": "{n} دقیقې"},
    "hours": {"en": "{n} h", "prs": "{n} ساعت", "ps": "{n} ساعته"},
    "days": {"en": "{n} days", "prs": "{n} روز", "ps": "{n} ورځې"},
    "language": {"en": "Language", "prs": "زبان", "ps": "ژبه"},
    "skip": {"en": "Skip to content", "prs": "رفتن به محتوا", "ps": "منځپانګې ته تګ"},
    # "Claims people ask about" (actions/admin/console/claims.py): rumours nobody checked yet.
    "claims_asked": {
        "en": "Rumours people ask about",
        "prs": "شایعه‌هایی که مردم می‌پرسند",
        "ps": "هغه اوازې چې خلک یې پوښتي",
    },
    "claims_asked_help": {
        "en": "Rumours people asked about that no rumour record answers yet, most people first. "
        "Shown only once at least {n} different people asked (one phone number, Telegram chat or "
        "web chat address counts once, however many conversations it opens), on two channels or "
        "over six hours at least. Numbers, phone numbers, e-mails, web addresses and names are "
        "replaced before storing; a text is shown only when two people or more wrote it alike. "
        "Write a verdict: those who asked to be told get it once, in their language. Hide as "
        "spam: the group, and what joins it later, stays off this page.",
        "prs": "شایعه‌هایی که مردم در باره‌شان پرسیده‌اند و هنوز جواب ندارند، اول آن که بیشتر "
        "مردم پرسیده‌اند. تنها وقتی نشان داده می‌شود که دست کم {n} نفر مختلف آن را پرسیده باشند "
        "(یک نمبر تیلفون، یک چت تلگرام یا یک آدرس ویب‌چت، با هر تعداد گفتگو، یک نفر حساب "
        "می‌شود)، از دو کانال یا در طول دست کم شش ساعت. عددها، نمبرهای تیلفون، ایمیل‌ها، "
        "آدرس‌های ویب و نام‌ها پیش از ذخیره پاک می‌شوند؛ یک متن تنها وقتی نشان داده می‌شود که "
        "دو نفر یا بیشتر آن را یکسان نوشته باشند. نتیجهٔ بررسی را بنویسید: کسانی که خواسته "
        "بودند خبر شوند، یک بار به زبان خود آن را می‌گیرند. به حیث اسپم پنهان کنید: این گروه و "
        "آنچه بعداً به آن اضافه شود، دیگر در این صفحه دیده نمی‌شود.",
        "ps": "هغه اوازې چې خلکو یې پوښتنه کړې او تر اوسه ځواب نه لري، لومړی هغه چې ډېرو خلکو "
        "پوښتلې. یوازې هغه وخت ښودل کېږي چې لږ تر لږه {n} بېلابېلو کسانو پوښتلې وي (یوه د "
        "ټیلیفون شمېره، یو ټیلیګرام چټ یا د وېب چټ یوه پته، که هر څومره خبرې اترې پرانیزي، یو "
        "کس شمېرل کېږي)، له دوو چینلونو یا لږ تر لږه د شپږو ساعتونو په اوږدو کې. شمېرې، د "
        "ټیلیفون شمېرې، ایمیلونه، د وېب پتې او نومونه له ساتلو مخکې لرې کېږي؛ یو متن یوازې هغه "
        "وخت ښودل کېږي چې دوو یا ډېرو کسانو یو شان لیکلی وي. د کتنې پایله ولیکئ: هغوی چې غوښتل "
        "خبر شي، یو ځل به یې په خپله ژبه ترلاسه کړي. د سپام په توګه یې پټ کړئ: دا ډله، او هر "
        "څه چې وروسته ورسره یو ځای شي، نور به په دې پاڼه کې نه ښکاري.",
    },
    "no_claims_asked": {
        "en": "No rumour without an answer was asked by {n} or more people, on two channels or "
        "over six hours.",
        "prs": "هیچ شایعهٔ بی‌جوابی را {n} نفر یا بیشتر، از دو کانال یا در طول شش ساعت، نپرسیده‌اند.",
        "ps": "هېڅ بې ځوابه اوازه {n} یا ډېرو کسانو، له دوو چینلونو یا د شپږو ساعتونو په اوږدو "
        "کې، نه ده پوښتلې.",
    },
    "group_asked_by": {
        "en": "{people} people asked, {times} times",
        "prs": "{people} نفر پرسیده‌اند، {times} بار",
        "ps": "{people} کسانو پوښتلي، {times} ځله",
    },
    "texts_alike": {
        "en": "Written alike by several people",
        "prs": "متن‌هایی که چند نفر یکسان نوشته‌اند",
        "ps": "هغه متنونه چې څو کسانو یو شان لیکلي",
    },
    "no_text_alike": {
        "en": "No two people wrote it alike: no text is shown, as one person's words may name "
        "someone.",
        "prs": "هیچ دو نفری آن را یکسان ننوشته‌اند: متنی نشان داده نمی‌شود، چون نوشتهٔ یک نفر "
        "ممکن است نام کسی را داشته باشد.",
        "ps": "هېڅو دوو کسانو یې یو شان نه دي لیکلي: هېڅ متن نه ښودل کېږي، ځکه د یو کس په لیکنه "
        "کې کېدای شي د چا نوم وي.",
    },
    "hide_as_spam": {
        "en": "Hide as spam",
        "prs": "به حیث اسپم پنهان کنید",
        "ps": "د سپام په توګه یې پټ کړئ",
    },
    "hidden_groups": {
        "en": "Hidden as spam",
        "prs": "پنهان‌شده به حیث اسپم",
        "ps": "د سپام په توګه پټ شوي",
    },
    "hidden_groups_help": {
        "en": "Groups an editor hid. What people ask later in the same words joins them and "
        "stays hidden. Show one again if it was hidden by mistake.",
        "prs": "گروه‌هایی که یک ایدیتور پنهان کرده است. آنچه مردم بعداً با همین کلمه‌ها بپرسند، "
        "به آن‌ها اضافه می‌شود و پنهان می‌ماند. اگر یکی به اشتباه پنهان شده، دوباره نشانش دهید.",
        "ps": "هغه ډلې چې یو اېډیټر پټې کړې دي. هر څه چې خلک وروسته په همدې ټکو پوښتي، ورسره یو "
        "ځای کېږي او پټ پاتې کېږي. که یوه په تېروتنه پټه شوې وي، بېرته یې وښایئ.",
    },
    "hidden_by": {
        "en": "Hidden by {editor}, {when} (Kabul time)",
        "prs": "پنهان‌شده توسط {editor}، {when} (به وقت کابل)",
        "ps": "{editor} پټه کړې، {when} (د کابل په وخت)",
    },
    "show_again": {"en": "Show again", "prs": "دوباره نشان دهید", "ps": "بېرته یې وښایئ"},
    "hidden_as_spam": {
        "en": "Hidden as spam. What people ask later in this group stays hidden too.",
        "prs": "به حیث اسپم پنهان شد. آنچه مردم بعداً در همین گروه بپرسند نیز پنهان می‌ماند.",
        "ps": "د سپام په توګه پټ شو. هر څه چې خلک وروسته په دې ډله کې پوښتي، هم پټ پاتې کېږي.",
    },
    "shown_again": {
        "en": "Shown again: the group is on its page while enough people ask it.",
        "prs": "دوباره نشان داده شد: تا وقتی که به اندازهٔ کافی مردم آن را بپرسند، گروه در "
        "صفحه‌اش است.",
        "ps": "بېرته وښودل شوه: تر هغه چې کافي خلک یې پوښتي، ډله په خپله پاڼه کې ده.",
    },
    "group_gone": {
        "en": "Nothing changed: nothing waits for an answer in this group any more.",
        "prs": "هیچ چیزی تغییر نکرد: در این گروه دیگر چیزی منتظر جواب نیست.",
        "ps": "هېڅ شی بدل نه شو: په دې ډله کې نور هېڅ شی ځواب ته په تمه نه دی.",
    },
    "claims_asked_languages": {"en": "Languages:", "prs": "زبان‌ها:", "ps": "ژبې:"},
    "claims_asked_channels": {"en": "Channels:", "prs": "کانال‌ها:", "ps": "چینلونه:"},
    "claims_asked_when": {
        "en": "First asked {first}, last {last} (Kabul time)",
        "prs": "اولین بار {first}، آخرین بار {last} (به وقت کابل)",
        "ps": "لومړی ځل {first}، وروستی ځل {last} (د کابل په وخت)",
    },
    "write_verdict": {
        "en": "Write a verdict",
        "prs": "نتیجهٔ بررسی را بنویسید",
        "ps": "د کتنې پایله ولیکئ",
    },
    "from_group": {
        "en": "Started from a rumour {n} people asked about. Publishing links their asks to this "
        "record and tells, once, those who asked to be told.",
        "prs": "از شایعه‌ای شروع شده که {n} نفر در باره‌اش پرسیده‌اند. با نشر، پرسش‌های شان به "
        "این معلومات وصل می‌شود و به کسانی که خواسته بودند خبر شوند، یک بار خبر داده می‌شود.",
        "ps": "له هغې اوازې پیل شوی چې {n} کسانو یې پوښتنه کړې. په خپرولو سره د هغوی پوښتنې له "
        "دې معلوماتو سره تړل کېږي او هغوی ته چې غوښتل خبر شي، یو ځل ویل کېږي.",
    },
    # "What people ask" (actions/admin/console/questions.py): questions nobody answered yet,
    # the same question in other words counted once; "Write an answer" starts an answer.
    "question_groups": {
        "en": "Questions waiting for an answer",
        "prs": "سوال‌هایی که منتظر جواب اند",
        "ps": "هغه پوښتنې چې ځواب ته په تمه دي",
    },
    "question_groups_help": {
        "en": "Questions of the last 7 days the assistant could not answer; one question asked "
        "in other words, languages or scripts is counted once. Most people first. Shown only "
        "once at least {n} different people asked it (one phone number, Telegram chat or web "
        "chat address counts once), on two channels or over six hours at least. Numbers, phone "
        "numbers, e-mails, web addresses and names are replaced before storing; a message is "
        "shown only when two people or more wrote it alike. Write an answer: the assistant "
        "gives it from then on, and those who asked to be told get it once, in their language. "
        "Hide as spam: the group, and what joins it later, stays off this page.",
        "prs": "سوال‌های ۷ روز گذشته که دستیار جواب داده نتوانست؛ سوالی که با کلمه‌ها، زبان‌ها یا "
        "خط‌های دیگر پرسیده شده، یک بار حساب می‌شود. اول سوالی که بیشتر مردم پرسیده‌اند. تنها "
        "وقتی نشان داده می‌شود که دست کم {n} نفر مختلف آن را پرسیده باشند (یک نمبر تیلفون، یک "
        "چت تلگرام یا یک آدرس ویب‌چت یک نفر حساب می‌شود)، از دو کانال یا در طول دست کم شش "
        "ساعت. عددها، نمبرهای تیلفون، ایمیل‌ها، آدرس‌های ویب و نام‌ها پیش از ذخیره پاک می‌شوند؛ "
        "یک پیام تنها وقتی نشان داده می‌شود که دو نفر یا بیشتر آن را یکسان نوشته باشند. جواب "
        "را بنویسید: از آن به بعد دستیار همین جواب را می‌دهد و کسانی که خواسته بودند خبر شوند، "
        "یک بار به زبان خود آن را می‌گیرند. به حیث اسپم پنهان کنید: این گروه و آنچه بعداً به آن "
        "اضافه شود، دیگر در این صفحه دیده نمی‌شود.",
        "ps": "د تېرو ۷ ورځو هغه پوښتنې چې مرستیال یې ځواب نه شو ورکولای؛ یوه پوښتنه چې په نورو "
        "ټکو، ژبو یا لیکونو پوښتل شوې، یو ځل شمېرل کېږي. لومړی هغه چې ډېرو خلکو پوښتلې. یوازې "
        "هغه وخت ښودل کېږي چې لږ تر لږه {n} بېلابېلو کسانو پوښتلې وي (یوه د ټیلیفون شمېره، یو "
        "ټیلیګرام چټ یا د وېب چټ یوه پته یو کس شمېرل کېږي)، له دوو چینلونو یا لږ تر لږه د شپږو "
        "ساعتونو په اوږدو کې. شمېرې، د ټیلیفون شمېرې، ایمیلونه، د وېب پتې او نومونه له ساتلو "
        "مخکې لرې کېږي؛ یو پیغام یوازې هغه وخت ښودل کېږي چې دوو یا ډېرو کسانو یو شان لیکلی وي. "
        "ځواب ولیکئ: له هغې وروسته به مرستیال همدا ځواب ورکوي، او هغوی چې غوښتل خبر شي، یو ځل "
        "به یې په خپله ژبه ترلاسه کړي. د سپام په توګه یې پټ کړئ: دا ډله، او هر څه چې وروسته "
        "ورسره یو ځای شي، نور به په دې پاڼه کې نه ښکاري.",
    },
    "no_question_groups": {
        "en": "No question without an answer was asked by {n} or more people, on two channels "
        "or over six hours, in the last 7 days.",
        "prs": "در ۷ روز گذشته هیچ سوال بی‌جوابی را {n} نفر یا بیشتر، از دو کانال یا در طول شش "
        "ساعت، نپرسیده‌اند.",
        "ps": "په تېرو ۷ ورځو کې هېڅ بې ځوابه پوښتنه {n} یا ډېرو کسانو، له دوو چینلونو یا د شپږو "
        "ساعتونو په اوږدو کې، نه ده پوښتلې.",
    },
    "question_groups_total": {
        "en": "Questions waiting: {n}",
        "prs": "سوال‌های منتظر جواب: {n}",
        "ps": "ځواب ته په تمه پوښتنې: {n}",
    },
    "write_answer": {"en": "Write an answer", "prs": "جواب را بنویسید", "ps": "ځواب ولیکئ"},
    "from_question_group": {
        "en": "Started from a question {n} people asked. Publishing links their questions to "
        "this answer and tells, once, those who asked to be told.",
        "prs": "از سوالی شروع شده که {n} نفر پرسیده‌اند. با نشر، سوال‌های شان به این جواب وصل "
        "می‌شود و به کسانی که خواسته بودند خبر شوند، یک بار خبر داده می‌شود.",
        "ps": "له هغې پوښتنې پیل شوی چې {n} کسانو پوښتلې ده. په خپرولو سره د هغوی پوښتنې له دې "
        "ځواب سره تړل کېږي او هغوی ته چې غوښتل خبر شي، یو ځل ویل کېږي.",
    },
    #: What an alert was about (``actions/alerts/models.py`` ``Topic``), before its airport,
    #: destination or rumour.
    **group(
        "topic",
        {
            "airport": {"en": "Airport", "prs": "میدان هوایی", "ps": "هوايي ډګر"},
            "flights": {"en": "Flights", "prs": "پروازها", "ps": "الوتنې"},
            "announcements": {"en": "Announcements", "prs": "اعلامیه‌ها", "ps": "اعلانونه"},
            "claims": {"en": "Rumour checked", "prs": "شایعهٔ بررسی‌شده", "ps": "کتل شوې اوازه"},
            "answers": {"en": "Question answered", "prs": "جواب سوال", "ps": "د پوښتنې ځواب"},
        },
    ),
    #: The channels a person wrote on (``Case.channel``, the questions page), as staff call them.
    **group(
        "channel",
        {
            "webchat": {"en": "Web chat", "prs": "چت ویب‌سایت", "ps": "د وېب پاڼې چټ"},
            "telegram": {"en": "Telegram", "prs": "تلگرام", "ps": "ټیلیګرام"},
            "whatsapp": {"en": "WhatsApp", "prs": "واتس‌اپ", "ps": "واټس اپ"},
            "twilio_sms": {"en": "SMS (Twilio)", "prs": "SMS (Twilio)", "ps": "SMS (Twilio)"},
            "sms_gateway": {"en": "SMS (gateway)", "prs": "SMS (گیت‌وی)", "ps": "SMS (ګېټوې)"},
            "kannel": {"en": "SMS (Kannel)", "prs": "SMS (Kannel)", "ps": "SMS (Kannel)"},
            "rest": {"en": "Test (REST)", "prs": "آزمایشی (REST)", "ps": "ازمېښتي (REST)"},
            "unknown": {"en": "Unknown", "prs": "نامعلوم", "ps": "نامعلوم"},
        },
    ),
    #: Record kinds as editors call them.
    **group(
        "kind",
        {
            "airport": {
                "en": "Airport status",
                "prs": "وضعیت میدان هوایی",
                "ps": "د هوايي ډګر حالت",
            },
            "gate": {"en": "Gates", "prs": "دروازه‌ها", "ps": "دروازې"},
            "flight": {"en": "Flights", "prs": "پروازها", "ps": "الوتنې"},
            "announcement": {"en": "Announcements", "prs": "اعلامیه‌ها", "ps": "اعلانونه"},
            "guidance": {
                "en": "Guidance and contacts",
                "prs": "رهنمود و تماس‌ها",
                "ps": "لارښوونې او اړیکې",
            },
            "claim": {"en": "Rumours", "prs": "شایعه‌ها", "ps": "اوازې"},
            "answer": {
                "en": "Answers to questions",
                "prs": "جواب سوال‌ها",
                "ps": "د پوښتنو ځوابونه",
            },
            "organisation": {"en": "Organisations", "prs": "مؤسسه‌ها", "ps": "ادارې"},
            "airport-name": {
                "en": "Airport names",
                "prs": "نام میدان‌های هوایی",
                "ps": "د هوايي ډګرونو نومونه",
            },
        },
    ),
    #: Field labels; a field not listed shows its name.
    **group(
        "field",
        {
            "state": {"en": "State", "prs": "وضعیت", "ps": "حالت"},
            "status": {"en": "Status", "prs": "وضعیت", "ps": "حالت"},
            "advice": {"en": "Advice", "prs": "توصیه", "ps": "سپارښتنه"},
            "name": {"en": "Name", "prs": "نام", "ps": "نوم"},
            "note": {"en": "Note", "prs": "یادداشت", "ps": "یادښت"},
            "position": {"en": "Position in the list", "prs": "جای در فهرست", "ps": "په لړ کې ځای"},
            "source": {"en": "Source", "prs": "منبع", "ps": "سرچینه"},
            "verified_at": {"en": "Checked at", "prs": "زمان بررسی", "ps": "د کتنې وخت"},
            "valid_until": {"en": "Valid until", "prs": "معتبر تا", "ps": "تر دې وخته معتبر"},
            "operator": {"en": "Operator", "prs": "پرواز از طرف", "ps": "چلوونکی"},
            "origin": {"en": "From", "prs": "از", "ps": "له"},
            "destination": {"en": "To", "prs": "به", "ps": "ته"},
            "departs_at": {"en": "Departs", "prs": "زمان پرواز", "ps": "د الوتنې وخت"},
            "eligibility": {
                "en": "Who may board",
                "prs": "کسانی که سوار شده می‌توانند",
                "ps": "څوک سپرېدای شي",
            },
            "assembly_point": {
                "en": "Where to gather",
                "prs": "جای جمع شدن",
                "ps": "د راټولېدو ځای",
            },
            "issuer": {"en": "Issued by", "prs": "اعلام‌کننده", "ps": "خپروونکی"},
            "kind": {"en": "Kind", "prs": "نوع", "ps": "ډول"},
            "published_at": {"en": "Announced at", "prs": "زمان اعلام", "ps": "د اعلان وخت"},
            "verification": {"en": "Confirmed?", "prs": "تایید شده؟", "ps": "تایید شوی؟"},
            "title": {"en": "Title", "prs": "عنوان", "ps": "سرلیک"},
            "text": {"en": "Text", "prs": "متن", "ps": "متن"},
            "body": {"en": "Text", "prs": "متن", "ps": "متن"},
            "organisation": {"en": "Organisation", "prs": "مؤسسه", "ps": "اداره"},
            "phone": {"en": "Phone", "prs": "تیلفون", "ps": "ټیلیفون"},
            "open_hours": {
                "en": "Hours the line answers",
                "prs": "ساعت‌هایی که جواب می‌دهد",
                "ps": "هغه ساعتونه چې ځواب ورکوي",
            },
            "dangers": {
                "en": "Dangers it helps with",
                "prs": "خطرهایی که در آن کمک می‌کند",
                "ps": "هغه خطرونه چې پکې مرسته کوي",
            },
            "case_hours": {
                "en": "Hours its caseworkers answer",
                "prs": "ساعت‌هایی که کارمندانش جواب می‌دهند",
                "ps": "هغه ساعتونه چې کارکوونکي یې ځواب ورکوي",
            },
            "case_wait_minutes": {
                "en": "Usual wait for a caseworker (minutes)",
                "prs": "انتظار معمول برای کارمند (دقیقه)",
                "ps": "د کارکوونکي عادي انتظار (دقیقې)",
            },
            "whatsapp": {"en": "WhatsApp", "prs": "واتساپ", "ps": "واټس‌اپ"},
            "email": {"en": "E-mail", "prs": "ایمیل", "ps": "ایمیل"},
            "hours": {"en": "Opening hours", "prs": "ساعات کار", "ps": "د کار ساعتونه"},
            "place": {"en": "Place (English)", "prs": "جای (انگلیسی)", "ps": "ځای (انګلیسي)"},
            "city": {"en": "City", "prs": "شهر", "ps": "ښار"},
            "verdict": {"en": "Verdict", "prs": "نتیجهٔ بررسی", "ps": "د کتنې پایله"},
            "claim": {"en": "What people say", "prs": "آنچه مردم می‌گویند", "ps": "خلک څه وايي"},
            "explanation": {
                "en": "What is true, what to do",
                "prs": "حقیقت چیست و چه باید کرد",
                "ps": "رښتیا څه دي او څه باید وشي",
            },
            "phrasings": {
                "en": "Other ways people say it (one per line)",
                "prs": "شکل‌های دیگر گفتن آن (هر کدام در یک سطر)",
                "ps": "د ویلو نورې بڼې (هره یوه په یوه کرښه)",
            },
            "question": {"en": "Question", "prs": "سوال", "ps": "پوښتنه"},
            "answer": {"en": "Answer", "prs": "جواب", "ps": "ځواب"},
            "about_kind": {"en": "About (kind)", "prs": "در بارهٔ (نوع)", "ps": "په اړه (ډول)"},
            "about_key": {"en": "About (which)", "prs": "در بارهٔ (کدام)", "ps": "په اړه (کوم یو)"},
            # Where a place is, for the nearest-place answer: 34.5594 / 69.2175.
            "latitude": {
                "en": "Latitude (decimal degrees)",
                "prs": "عرض جغرافیایی (درجهٔ اعشاری)",
                "ps": "جغرافیایي عرض (اعشاري درجې)",
            },
            "longitude": {
                "en": "Longitude (decimal degrees)",
                "prs": "طول جغرافیایی (درجهٔ اعشاری)",
                "ps": "جغرافیایي اوږدوالی (اعشاري درجې)",
            },
            # An airport's country; whom a flight evacuates people for (not its operator).
            "country": {"en": "Country", "prs": "کشور", "ps": "هېواد"},
            "evacuates_for": {
                "en": "Evacuates people for (country)",
                "prs": "انتقال مردم از طرف کدام کشور",
                "ps": "د کوم هېواد له خوا د خلکو وېستل",
            },
        },
    ),
}
