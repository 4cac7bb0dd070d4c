/* Web chat widget: plain JavaScript, no build step, no outside requests.
 * Messages wait in an outbox (kept in localStorage) until the server answered them, so a
 * dropped connection costs a retry, never a message. What comes later (a caseworker's reply,
 * "I am back") waits in the server's mailbox: the page asks for it every few seconds while it
 * is in view, and acknowledges each message by id once shown (docs/HANDOFF.md, "The web chat").
 *
 * Languages: the server names the language of every reply; each bubble is laid out by that
 * (never by its letters: the English menu names «زبان / ژبه»). The page's own words (title,
 * buttons, question box) and its direction follow the conversation's language, which only the
 * replies to the person's own messages tell, and only once it has really changed, since one
 * reply proves little: a romanized word ("salam", "sabah?") is anyone's, and a person who
 * mixes Dari and Pashto would otherwise see the page flip with every message. The rule:
 *  - a language the person chose (the buttons at the top, or the chat's own language buttons)
 *    is taken at once and kept; the server keeps a chosen language too, so its replies stay in
 *    it, unless the person writes another choice ("English", «پښتو»), which the next rule sees;
 *  - otherwise the page changes when SETTLED_AFTER (two) of the person's messages in a row
 *    were answered in the same other language; a message answered in the page's language
 *    starts the count again;
 *  - one exception, at once: an English page for a message written in Arabic script answered
 *    in Dari or Pashto (the server never answers Arabic script in English; the whole page is
 *    then laid out the wrong way round), unless the person chose English.
 * The count is not kept across a reload (the language and the choice are).
 * Tags, directions, words, digits and which browser language is which of ours come from the
 * page (bot/channels/webchat_page.py).
 *
 * Numbers: a phone number (or the like: seven digits or more, a leading "+") in any bubble is
 * its own left-to-right element that never wraps, so «… جواب می‌دهند: +93 700 000 121» keeps
 * "+93 700 000 121" whole and in order in a right-to-left line of 360 px; in the assistant's
 * bubbles a phone number is also a tel: link, its address made of its digits alone.
 *
 * The chat is kept on this device, bounded (HISTORY_LIMIT, HISTORY_DAYS), and shown again when
 * the page is reopened; "clear this chat" and "delete my data" remove it
 * (docs/DATA_PROTECTION.md, "The web chat on a shared phone").
 *
 * On another site's page the chat is this page in a frame (embed.js), opened with ?lang= (its
 * first language) and ?organisation= (the site's: its caseworkers answer a case opened here,
 * docs/CHANNELS.md), which every message names.
 *
 * Limits (docs/OPERATIONS.md, "Web chat limits per client"): the server gives the page a ticket
 * for its conversation, sent with every message after, so that the many people behind one
 * network address are each a client of their own. Opening a conversation from a busy network
 * may first ask for a little work (work.js), done here before the message is sent again. Told
 * to wait (429), the page says how long the server asked, in minutes when it is long, with the
 * SMS number and the help line meanwhile, and sends the message then by itself. */
(function () {
  "use strict";

  var CONFIG = JSON.parse(document.getElementById("webchat-config").textContent);
  var LANGS = CONFIG.languages;
  var LOCALES = CONFIG.locales || {}; // a browser's language → ours: {"fa": "prs", ...}
  var WEBHOOK = "webhook"; // relative: the page works at /webchat/ and /webhooks/webchat/
  // The organisation of the site whose page opened the chat (embed.js), else none.
  var ORGANISATION = (new URLSearchParams(window.location.search).get("organisation") || "").slice(0, 64);
  var WELCOME = "welcome";
  var STORE = "evacuee-webchat.";
  var MAX_DELAY = 30000;
  // A 429 says when to come back: at the latest when the server's hour turns (and once more
  // for a clock a little off); the page then asks again, and is told again if need be.
  var MAX_CROWDED_DELAY = 3660000;
  var MINUTES_FROM = 120; // a wait this long or longer is said in minutes
  var MAX_WORK_ROUNDS = 5; // work asked again and again: wait as after a failure instead
  var TICKET_HEADER = "X-Webchat-Ticket";
  var MAILBOX = "mailbox";
  var POLL_FIRST = 5000;        // right after the person wrote, or a message came
  var POLL_WAITING = 15000;     // at most, while a caseworker has the conversation
  var POLL_IDLE = 60000;        // at most, otherwise
  var ACK_SOON = 1000;          // messages just shown are acknowledged this soon
  var WAITING_FOR = 30 * 60000; // a silent answer means "a person will answer" this long
  // Bubbles kept on this device: a long visit's worth (a question and its two or three
  // answers, some twenty times over), little enough that a phone shared or taken shows only
  // the latest part; and none older than the server keeps a conversation.
  var HISTORY_LIMIT = 60;
  var HISTORY_DAYS = 7;
  var ARABIC_RUN = /([\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]+(?:\u200C[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]+)*)/;
  // Digits as written here: ASCII, Arabic-Indic and Persian (Eastern Arabic-Indic).
  var DIGIT = "[0-9\u0660-\u0669\u06F0-\u06F9]";
  var NUMBER = "\\+?" + DIGIT + "(?:[ \u00A0-]?" + DIGIT + "){6,}";
  // A number alone, or in the isolate (FSI ... PDI) the server put it in: its element isolates
  // it instead, so the marks are dropped with it.
  var NUMBER_RUN = new RegExp("\u2068(" + NUMBER + ")\u2069|(" + NUMBER + ")", "g");
  var SETTLED_AFTER = 2; // messages in a row answered in another language: the page follows
  var SET_LANGUAGE = /^\/set_language\{"language": ?"([a-z]+)"\}$/; // a language button's payload

  var log = document.getElementById("log");
  var statusLine = document.getElementById("status");
  var form = document.getElementById("composer");
  var input = document.getElementById("input");
  var clearButton = document.getElementById("clear");
  var langButtons = document.querySelectorAll(".langs button");

  function store(key, value) {
    try {
      if (value === undefined) return window.localStorage.getItem(STORE + key);
      if (value === null) window.localStorage.removeItem(STORE + key);
      else window.localStorage.setItem(STORE + key, value);
    } catch (e) { /* private mode: keep going without storage */ }
    return null;
  }

  function stored(key, fallback) {
    try {
      var value = JSON.parse(store(key) || "null");
      return value === null ? fallback : value;
    } catch (e) { return fallback; }
  }

  function randomId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes); // works on plain http, unlike randomUUID()
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  var sender = store("sender") || randomId();
  store("sender", sender);
  // "" tells the server this page knows tickets and can do the work; a page without work.js
  // (an older copy of the page around this script) says nothing and keeps the old rule.
  var ticket = window.webchatWork ? store("ticket") || "" : null;

  function known(code) { return Object.prototype.hasOwnProperty.call(LANGS, code); }

  // Ours for the browser's language, by its first part ("fa-AF": Dari).
  function browserLanguage() {
    var subtag = (navigator.language || "").toLowerCase().split("-")[0];
    var code = Object.prototype.hasOwnProperty.call(LOCALES, subtag) ? LOCALES[subtag] : null;
    return known(code) ? code : CONFIG["default"];
  }

  // The language another site's page opened the chat in (embed.js: its data-lang, or the
  // page's own), unless the person has been here before: their language then stays.
  var asked = new URLSearchParams(window.location.search).get("lang");
  var language = store("language");
  if (!known(language)) language = known(asked) ? asked : browserLanguage();

  /* Numbers in the language's own digits: «پس از ۴ ثانیه». */
  function inDigits(text, code) {
    var digits = LANGS[code].digits;
    return String(text).replace(/[0-9]/g, function (d) { return digits.charAt(Number(d)); });
  }

  function say(key, seconds) {
    var text = LANGS[language].words[key];
    if (seconds === undefined) return text;
    var minutes = Math.ceil(seconds / 60);
    return text.replace("{seconds}", inDigits(seconds, language))
      .replace("{minutes}", inDigits(minutes, language));
  }

  /* Text into an element laid out in ``code``, as text nodes and elements (never as HTML):
   * every number kept whole and left to right (``addNumber``), tappable when ``links`` and it
   * is a phone number; between them, words (``addWords``). */
  function fill(element, text, code, links) {
    var last = 0;
    var found;
    NUMBER_RUN.lastIndex = 0;
    while ((found = NUMBER_RUN.exec(text)) !== null) {
      addWords(element, text.slice(last, found.index), code);
      addNumber(element, found[1] || found[2], links);
      last = NUMBER_RUN.lastIndex;
    }
    addWords(element, text.slice(last), code);
  }

  /* In a left-to-right bubble every Arabic-script word is isolated (<bdi>), so "6 Language /
   * زبان / ژبه" and "Dari (دری) or Pashto (پښتو)" keep their order; a right-to-left bubble
   * needs nothing more (the server isolates codes and Latin names). */
  function addWords(element, text, code) {
    if (!text) return;
    if (!(code && LANGS[code].dir === "ltr" && ARABIC_RUN.test(text))) {
      element.appendChild(document.createTextNode(text));
      return;
    }
    text.split(ARABIC_RUN).forEach(function (part, i) {
      if (!part) return;
      if (i % 2) {
        var word = document.createElement("bdi");
        word.textContent = part;
        element.appendChild(word);
      } else {
        element.appendChild(document.createTextNode(part));
      }
    });
  }

  /* A number as its own left-to-right element that never wraps (widget.css, ``.number``): in a
   * right-to-left line "+93 700 000 121" would otherwise be split over two lines, or shown as
   * "121 000 700 93+". A phone number in the assistant's words is also a tel: link. */
  function addNumber(element, number, links) {
    var box = document.createElement("bdi");
    box.dir = "ltr";
    box.className = "number";
    var dialled = links ? phoneNumber(number) : null;
    if (dialled) {
      var link = document.createElement("a");
      link.href = "tel:" + dialled;
      link.textContent = number;
      box.appendChild(link);
    } else {
      box.textContent = number;
    }
    element.appendChild(box);
  }

  function asciiDigits(text) {
    return text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, function (digit) {
      var code = digit.charCodeAt(0);
      return String(code - (code >= 0x06F0 ? 0x06F0 : 0x0660));
    });
  }

  /* What a phone dials for ``number`` ("+93700000121": its digits and a leading "+" only, so
   * nothing else reaches the link), or null for what is no phone number (a date, a count):
   * one starts with "+" or 0 and has 9 to 15 digits. */
  function phoneNumber(number) {
    var digits = asciiDigits(number).replace(/[^0-9]/g, "");
    var plus = number.charAt(0) === "+";
    if (!(plus || digits.charAt(0) === "0") || digits.length < 9 || digits.length > 15) return null;
    return (plus ? "+" : "") + digits;
  }

  function markLanguage(element, code) {
    if (known(code)) {
      element.lang = LANGS[code].tag;
      element.dir = LANGS[code].dir;
    } else {
      element.dir = "auto"; // not named: the browser decides, the page does not change
    }
  }

  /* The page in the conversation's language: title, composer, buttons, direction. */
  function setLanguage(code) {
    if (!known(code)) return;
    language = code;
    store("language", code);
    var words = LANGS[code].words;
    var root = document.documentElement;
    root.lang = LANGS[code].tag;
    root.dir = LANGS[code].dir;
    document.title = words.title;
    document.getElementById("title").textContent = words.title;
    document.getElementById("input-label").textContent = words.label;
    document.getElementById("send").textContent = words.send;
    clearButton.textContent = words.clear;
    input.placeholder = words.placeholder;
    Array.prototype.forEach.call(langButtons, function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-lang") === code));
    });
  }

  function scrollDown() { log.scrollTop = log.scrollHeight; }

  function addMessage(text, who, code) {
    var item = document.createElement("p");
    item.className = "msg " + who;
    markLanguage(item, who === "user" ? null : code);
    fill(item, text, code, who === "bot");
    log.appendChild(item);
    scrollDown();
    return item;
  }

  function disableOldChoices() {
    Array.prototype.forEach.call(log.querySelectorAll(".choices button"), function (b) { b.disabled = true; });
  }

  function addChoices(buttons, code, active) {
    var group = document.createElement("div");
    group.className = "choices";
    group.setAttribute("role", "group");
    buttons.forEach(function (choice) {
      var button = document.createElement("button");
      button.type = "button";
      markLanguage(button, code);
      fill(button, choice.title, code, false); // no link inside a button
      button.disabled = !active;
      button.addEventListener("click", function () {
        send(choice.payload || choice.title, choice.title);
        input.focus(); // the clicked button is now disabled: keep focus somewhere useful
      });
      group.appendChild(button);
    });
    log.appendChild(group);
    scrollDown();
  }

  /* History: what was shown, kept on this device. */
  var history = stored("history", []);
  if (!Array.isArray(history)) history = [];

  function saveHistory() {
    var oldest = Date.now() - HISTORY_DAYS * 24 * 3600 * 1000;
    history = history.filter(function (entry) { return entry && entry.at >= oldest; }).slice(-HISTORY_LIMIT);
    store("history", JSON.stringify(history));
  }

  function remember(entry) {
    entry.at = Date.now();
    history.push(entry);
    saveHistory();
  }

  function showEntry(entry, active) {
    if (entry.text) {
      var item = addMessage(entry.text, entry.who, entry.language);
      if (entry.failed) item.classList.add("failed");
      if (entry.welcome) item.classList.add("welcome");
    }
    if (entry.buttons && entry.buttons.length) addChoices(entry.buttons, entry.language, active);
  }

  var welcomeShown = false;

  /* Replies from the server. ``asked``: the person's own message they answer, whose language
   * is the conversation's (``follow``); null for the mailbox's (a caseworker may write in
   * another language: the page stays). */
  function showReplies(replies, asked) {
    welcomeShown = false;
    var deleted = replies.some(function (reply) { return reply && reply.deleted; });
    if (deleted) forgetChat();
    var said = null;
    replies.forEach(function (reply) {
      if (!reply || !(reply.text || (reply.buttons && reply.buttons.length))) return;
      var code = known(reply.language) ? reply.language : null;
      var entry = { who: "bot", text: reply.text || "", language: code, buttons: reply.buttons || [] };
      showEntry(entry, true);
      if (!deleted) remember(entry);
      if (code) said = code;
    });
    if (asked !== null && said) follow(said, asked);
  }

  /* The page's language as the person chose it: at once, and kept (header comment). */
  var chosen = store("chosen");
  var streak = { language: null, turns: 0 };

  function choose(code) {
    if (!known(code)) return;
    chosen = code;
    store("chosen", code);
    streak = { language: null, turns: 0 };
    setLanguage(code);
  }

  /* The person's message ``asked`` was answered in ``code``: the page follows only once the
   * conversation's language has really changed (header comment). */
  function follow(code, asked) {
    if (code === language) {
      streak = { language: null, turns: 0 };
      return;
    }
    streak = { language: code, turns: streak.language === code ? streak.turns + 1 : 1 };
    var wrongWayRound = LANGS[language].dir === "ltr" && LANGS[code].dir === "rtl" &&
      chosen !== language && ARABIC_RUN.test(asked);
    if (!wrongWayRound && streak.turns < SETTLED_AFTER) return;
    chosen = null; // the person has since written another choice, or in another language
    store("chosen", null);
    streak = { language: null, turns: 0 };
    setLanguage(code);
  }

  /* The first screen: the greeting and the menu in the page's language, as the server would
   * answer "hello"; kept for opening offline. Not part of the conversation (never stored in it). */
  function showWelcome() {
    function show(replies) {
      if (history.length || outbox.length || !Array.isArray(replies)) return;
      log.textContent = "";
      replies.forEach(function (reply) {
        showEntry({ who: "bot", text: reply.text || "", language: known(reply.language) ? reply.language : null,
          buttons: reply.buttons || [], welcome: true }, true);
      });
      welcomeShown = true;
    }
    var code = language;
    show(stored("welcome." + code, null));
    fetch(WELCOME + "?language=" + encodeURIComponent(code)).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (replies) {
      store("welcome." + code, JSON.stringify(replies));
      if (code === language && (welcomeShown || !log.children.length)) show(replies);
    }).catch(function () { /* offline on a first visit: the composer still works */ });
  }

  /* ``ways``: the other ways to ask or get help, each [before, number, after], a line each,
   * the number kept left to right in a right-to-left sentence. */
  function showStatus(text, ways) {
    statusLine.hidden = !text;
    statusLine.textContent = text || "";
    (ways || []).forEach(function (way) {
      statusLine.appendChild(document.createElement("br"));
      statusLine.appendChild(document.createTextNode(way[0]));
      var number = document.createElement("bdi"); // "+93 700 000 100 (Kabul Aid Network)"
      number.dir = "ltr";
      fill(number, way[1], null, false);
      statusLine.appendChild(number);
      statusLine.appendChild(document.createTextNode(way[2]));
    });
    form.setAttribute("aria-busy", String(Boolean(text)));
  }

  /* Outbox: one request at a time, in order; retried with backoff until the server answers. */
  var outbox = stored("outbox", []);
  if (!Array.isArray(outbox)) outbox = [];
  var busy = false;
  var delay = 1000;
  var timer = null;

  function saveOutbox() {
    store("outbox", JSON.stringify(outbox.map(function (m) { return { text: m.text, shown: m.shown }; })));
  }

  function send(text, shown) {
    var named = SET_LANGUAGE.exec(text); // a language button, at the top or in the chat
    if (named) choose(named[1]);
    disableOldChoices();
    welcomeShown = false; // the greeting stays above the first question
    var entry = { text: text, shown: shown || text };
    entry.element = addMessage(entry.shown, "user");
    entry.element.classList.add("pending");
    outbox.push(entry);
    saveOutbox();
    flush();
  }

  function retryLater(wait, message, ways) {
    showStatus(say(message, Math.round(wait / 1000)), ways); // «پس از ۴ ثانیه»: the reader's digits
    timer = window.setTimeout(function () { timer = null; flush(); }, wait);
  }

  /* Told to wait: as long as the server asked, said in seconds or minutes, and what else to do
   * meanwhile (a long wait is no use to someone who needs help now). */
  function waitAsTold(wait) {
    var long = wait >= MINUTES_FROM * 1000 && LANGS[language].words.too_many_minutes;
    retryLater(wait, long ? "too_many_minutes" : "too_many", LANGS[language].ways);
  }

  /* 401 with work: the nonce that opens the conversation, then the message goes again. */
  function doWork(entry, body) {
    var work = body && body.work;
    entry.workRounds = (entry.workRounds || 0) + 1;
    if (!work || entry.workRounds > MAX_WORK_ROUNDS) {
      return Promise.resolve(work ? { failed: true } : { refused: true });
    }
    return window.webchatWork.solve(String(work.challenge), Number(work.bits)).then(function (nonce) {
      entry.work = { challenge: String(work.challenge), nonce: nonce };
      return { again: true };
    });
  }

  function flush() {
    if (busy || timer || !outbox.length) return;
    busy = true;
    var entry = outbox[0];
    var metadata = { language_hint: language };
    if (ORGANISATION) metadata.organisation = ORGANISATION;
    var body = { sender: sender, message: entry.text, metadata: metadata };
    if (ticket !== null) body.ticket = ticket;
    if (entry.work) body.work = entry.work;
    fetch(WEBHOOK, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (response) {
      var given = response.headers.get(TICKET_HEADER);
      if (given && ticket !== null) {
        ticket = given;
        store("ticket", given);
      }
      if (response.status === 429) {
        // Many messages from this network: wait as long as the server asks, then send again.
        return response.json().catch(function () { return {}; }).then(function (answer) {
          var asked = Number(response.headers.get("Retry-After")) || Number(answer && answer.retry_after);
          return { crowded: Math.min(Math.max(asked * 1000 || delay, 1000), MAX_CROWDED_DELAY) };
        });
      }
      if (response.status === 401) {
        return response.json().catch(function () { return null; }).then(function (answer) {
          return doWork(entry, answer);
        });
      }
      if (response.status >= 400 && response.status < 500) {
        return { refused: true }; // the server will never take it: don't retry forever
      }
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json().then(function (replies) { return { replies: replies }; });
    }).then(function (result) {
      if (result.again) return; // the work is done: sent again at once
      if (result.failed) { // asked for work again and again: try later, as after a failure
        entry.workRounds = 0;
        retryLater(delay, "retry_in");
        delay = Math.min(delay * 2, MAX_DELAY);
        return;
      }
      if (result.crowded) {
        waitAsTold(result.crowded);
        return;
      }
      outbox.shift();
      saveOutbox();
      if (entry.element) entry.element.classList.remove("pending");
      delay = 1000;
      showStatus("");
      var sent = { who: "user", text: entry.shown, language: null };
      if (result.refused) {
        if (entry.element) entry.element.classList.add("failed");
        sent.failed = true;
        remember(sent);
        var note = { who: "bot", text: say("refused"), language: language };
        addMessage(note.text, "bot", language);
        remember(note);
      } else {
        var replies = Array.isArray(result.replies) ? result.replies : [];
        // No reply at all, or only "received": the conversation is with a caseworker, whose
        // answer comes later.
        var withCaseworker = replies.some(function (reply) { return reply && reply.waiting; });
        if (!replies.length || withCaseworker) store("waiting", String(Date.now()));
        remember(sent);
        showReplies(replies, entry.text);
      }
      pollSoon();
    }, function () {
      retryLater(delay, navigator.onLine === false ? "reconnecting" : "retry_in");
      delay = Math.min(delay * 2, MAX_DELAY);
    }).catch(function () { /* a reply we could not show must not stop the outbox */ })
      .then(function () {
      busy = false;
      flush();
    });
  }

  /* Forget the chat on this device: the screen, the history, what the mailbox had shown. */
  function forgetChat() {
    history = [];
    store("history", null);
    store("waiting", null);
    log.textContent = "";
    welcomeShown = false;
    outbox.forEach(function (entry) { // still to be sent: still shown, as waiting
      if (entry.element) log.appendChild(entry.element);
    });
  }

  /* Mailbox: one fetch at a time; faster right after activity, slower the longer nothing
   * comes, none while the page is hidden (it asks at once when seen again). */
  var MESSAGE_ID = /^[0-9a-f]{16}$/;
  var MAX_ACKS = 60; // what the server takes in one fetch
  var acks = stored("acks", []);
  if (!Array.isArray(acks)) acks = [];
  acks = acks.filter(function (id) { return MESSAGE_ID.test(id); }).slice(-MAX_ACKS);
  var shownIds = {};
  var polling = false;
  var pollTimer = null;
  var pollDelay = POLL_FIRST;

  function waitingForPerson() {
    return Date.now() - Number(store("waiting") || 0) < WAITING_FOR;
  }

  function schedulePoll(wait) {
    if (pollTimer) window.clearTimeout(pollTimer);
    pollTimer = null;
    if (polling || document.hidden) return;
    pollTimer = window.setTimeout(function () { pollTimer = null; poll(); }, wait);
  }

  function pollSoon() {
    pollDelay = POLL_FIRST;
    schedulePoll(pollDelay);
  }

  function slowDown() {
    pollDelay = Math.min(pollDelay * 1.5, waitingForPerson() ? POLL_WAITING : POLL_IDLE);
  }

  function received(answer, acknowledged) {
    acks = acks.filter(function (id) { return acknowledged.indexOf(id) < 0; });
    var fresh = [];
    (Array.isArray(answer.messages) ? answer.messages : []).forEach(function (message) {
      if (!message || !MESSAGE_ID.test(message.id)) return;
      if (acks.indexOf(message.id) < 0) acks.push(message.id); // shown before, ack lost: again
      if (!shownIds[message.id]) {
        shownIds[message.id] = true;
        fresh.push(message);
      }
    });
    acks = acks.slice(-MAX_ACKS);
    store("acks", JSON.stringify(acks));
    if (fresh.length) {
      if (waitingForPerson()) store("waiting", String(Date.now()));
      showReplies(fresh, null);
      pollDelay = POLL_FIRST;
    } else {
      slowDown();
    }
  }

  function poll() {
    if (polling) return;
    if (pollTimer) { window.clearTimeout(pollTimer); pollTimer = null; }
    polling = true;
    var acknowledged = acks.slice();
    fetch(MAILBOX, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sender: sender, ack: acknowledged })
    }).then(function (response) {
      if (response.status === 400) {
        // Refused as malformed: not the messages, so only the acknowledgements can be at fault.
        acks = [];
        store("acks", "[]");
      }
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (answer) { received(answer || {}, acknowledged); }, slowDown)
      .catch(slowDown)
      .then(function () {
        polling = false;
        schedulePoll(acks.length ? ACK_SOON : pollDelay);
      });
  }

  function pollNow() {
    pollDelay = POLL_FIRST;
    poll();
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      pollNow();
    } else if (pollTimer) {
      window.clearTimeout(pollTimer); // nobody is looking: no data, no battery
      pollTimer = null;
    }
  });
  window.addEventListener("focus", pollNow);

  window.addEventListener("online", function () {
    if (timer) { window.clearTimeout(timer); timer = null; delay = 1000; }
    flush();
    pollNow();
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    input.value = "";
    send(text);
    input.focus();
  });

  Array.prototype.forEach.call(langButtons, function (button) {
    button.addEventListener("click", function () {
      var code = button.getAttribute("data-lang");
      send('/set_language{"language": "' + code + '"}', button.textContent); // chosen at once
      input.focus();
    });
  });

  clearButton.addEventListener("click", function () {
    forgetChat();
    showStatus("");
    addMessage(say("cleared"), "bot", language).classList.add("note");
    input.focus();
  });

  /* In a frame on another site's page (embed.js): Escape closes it there (this page's keys
   * never reach that page), and the page asks for the question box when it opens the chat.
   * Nothing else is said to it or taken from it. */
  if (window.parent !== window) {
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") window.parent.postMessage({ webchat: "close" }, "*");
    });
    window.addEventListener("message", function (event) {
      if (event.source === window.parent && event.data && event.data.webchat === "focus") input.focus();
    });
  }

  setLanguage(language);
  saveHistory(); // drops what is older than HISTORY_DAYS
  history.forEach(function (entry, i) { showEntry(entry, i === history.length - 1); });
  // Messages left from a previous visit that never reached the server: show and send them.
  outbox.forEach(function (entry) {
    entry.element = addMessage(entry.shown, "user");
    entry.element.classList.add("pending");
  });
  if (!history.length && !outbox.length) showWelcome();
  // Opening the page offline (https, or this machine): sw.js keeps the page's files.
  if (navigator.serviceWorker) navigator.serviceWorker.register("sw.js").catch(function () {});
  flush();
  pollNow(); // what came while the page was closed
}());
