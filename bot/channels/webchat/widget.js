/* Web chat widget: plain JavaScript, no build step, no outside requests.
 * Messages wait in an outbox (kept in localStorage) until the server answered them, so a
 * dropped connection costs a retry, never a message. What comes later (a caseworker's reply,
 * "I am back") waits in the server's mailbox: the page asks for it every few seconds while it
 * is in view, and acknowledges each message by id once shown (docs/HANDOFF.md, "The web chat"). */
(function () {
  "use strict";

  var WEBHOOK = "webhook"; // relative: the page works at /webchat/ and /webhooks/webchat/
  var STORE = "evacuee-webchat.";
  var MAX_DELAY = 30000;
  var MAILBOX = "mailbox";
  var POLL_FIRST = 5000;        // right after the person wrote, or a message came
  var POLL_WAITING = 15000;     // at most, while a caseworker has the conversation
  var POLL_IDLE = 60000;        // at most, otherwise
  var ACK_SOON = 1000;          // messages just shown are acknowledged this soon
  var WAITING_FOR = 30 * 60000; // a silent answer means "a person will answer" this long
  var PASHTO_ONLY = /[ټډړږښګڼېۍځڅ]/;
  var ARABIC = /[\u0600-\u06FF]/;
  var UI = {
    en: { title: "Evacuation information", label: "Your question", placeholder: "Type your question",
      send: "Send", reconnecting: "Reconnecting… your message will be sent when the connection is back.",
      retryIn: "Reconnecting… next try in {s} s.", refused: "This message could not be sent." },
    prs: { title: "معلومات تخلیه", label: "سوال شما", placeholder: "سوال خود را بنویسید",
      send: "ارسال", reconnecting: "دوباره وصل می‌شود… پیام شما بعد از وصل شدن فرستاده می‌شود.",
      retryIn: "دوباره وصل می‌شود… کوشش بعدی پس از {s} ثانیه.", refused: "این پیام فرستاده نشد." },
    ps: { title: "د وتلو معلومات", label: "ستاسو پوښتنه", placeholder: "خپله پوښتنه ولیکئ",
      send: "ولېږئ", reconnecting: "بیا وصلېږي… ستاسو پیغام به له وصلېدو وروسته ولېږل شي.",
      retryIn: "بیا وصلېږي… بله هڅه په {s} ثانیو کې.", refused: "دا پیغام ونه لېږل شو." }
  };

  var log = document.getElementById("log");
  var statusLine = document.getElementById("status");
  var form = document.getElementById("composer");
  var input = document.getElementById("input");
  var langButtons = document.querySelectorAll(".langs button");

  function store(key, value) {
    try {
      if (value === undefined) return window.localStorage.getItem(STORE + key);
      window.localStorage.setItem(STORE + key, value);
    } catch (e) { /* private mode: keep going without storage */ }
    return null;
  }

  function randomId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes); // works on plain http, unlike randomUUID()
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  var sender = store("sender") || randomId();
  store("sender", sender);

  function languageOf(text) {
    if (PASHTO_ONLY.test(text)) return "ps";
    if (ARABIC.test(text)) return "prs";
    return "en";
  }

  function browserLanguage() {
    var code = (navigator.language || "en").toLowerCase().split("-")[0];
    return code === "fa" || code === "prs" ? "prs" : code === "ps" ? "ps" : "en";
  }

  var language = store("language") || browserLanguage();

  /* The whole page follows the conversation's language: right to left for Dari and Pashto. */
  function setLanguage(code) {
    if (!UI[code]) return;
    language = code;
    store("language", code);
    var words = UI[code];
    var root = document.documentElement;
    root.lang = code;
    root.dir = code === "en" ? "ltr" : "rtl";
    document.getElementById("title").textContent = words.title;
    document.getElementById("input-label").textContent = words.label;
    document.getElementById("send").textContent = words.send;
    input.placeholder = words.placeholder;
    Array.prototype.forEach.call(langButtons, function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-lang") === code));
    });
  }

  function scrollDown() { log.scrollTop = log.scrollHeight; }

  function addMessage(text, who) {
    var item = document.createElement("p");
    var code = languageOf(text);
    item.className = "msg " + who;
    item.lang = code;
    item.dir = code === "en" ? "ltr" : "rtl";
    item.textContent = text;
    log.appendChild(item);
    scrollDown();
    return item;
  }

  function disableOldChoices() {
    Array.prototype.forEach.call(log.querySelectorAll(".choices button"), function (b) { b.disabled = true; });
  }

  function addChoices(buttons) {
    var group = document.createElement("div");
    group.className = "choices";
    group.setAttribute("role", "group");
    buttons.forEach(function (choice) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = choice.title;
      button.dir = "auto";
      button.addEventListener("click", function () {
        send(choice.payload || choice.title, choice.title);
        input.focus(); // the clicked button is now disabled: keep focus somewhere useful
      });
      group.appendChild(button);
    });
    log.appendChild(group);
    scrollDown();
  }

  function showReplies(replies) {
    replies.forEach(function (reply) {
      if (reply.text) {
        addMessage(reply.text, "bot");
        setLanguage(languageOf(reply.text));
      }
      if (reply.buttons && reply.buttons.length) addChoices(reply.buttons);
    });
  }

  function showStatus(text) {
    statusLine.hidden = !text;
    statusLine.textContent = text || "";
    form.setAttribute("aria-busy", String(Boolean(text)));
  }

  /* Outbox: one request at a time, in order; retried with backoff until the server answers. */
  var outbox = [];
  try { outbox = JSON.parse(store("outbox") || "[]"); } catch (e) { outbox = []; }
  var busy = false;
  var delay = 1000;
  var timer = null;

  function saveOutbox() {
    store("outbox", JSON.stringify(outbox.map(function (m) { return { text: m.text, shown: m.shown }; })));
  }

  function send(text, shown) {
    disableOldChoices();
    var entry = { text: text, shown: shown || text };
    entry.element = addMessage(entry.shown, "user");
    entry.element.classList.add("pending");
    outbox.push(entry);
    saveOutbox();
    flush();
  }

  function retryLater() {
    var seconds = Math.round(delay / 1000);
    showStatus(UI[language].retryIn.replace("{s}", seconds));
    timer = window.setTimeout(function () { timer = null; flush(); }, delay);
    delay = Math.min(delay * 2, MAX_DELAY);
  }

  function flush() {
    if (busy || timer || !outbox.length) return;
    busy = true;
    var entry = outbox[0];
    fetch(WEBHOOK, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sender: sender, message: entry.text, metadata: { language_hint: language } })
    }).then(function (response) {
      if (response.status >= 400 && response.status < 500) {
        return { refused: true }; // the server will never take it: don't retry forever
      }
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json().then(function (replies) { return { replies: replies }; });
    }).then(function (result) {
      outbox.shift();
      saveOutbox();
      if (entry.element) entry.element.classList.remove("pending");
      delay = 1000;
      showStatus("");
      if (result.refused) {
        if (entry.element) entry.element.classList.add("failed");
        addMessage(UI[language].refused, "bot");
      } else {
        var replies = Array.isArray(result.replies) ? result.replies : [];
        // No reply at all, or only "received": the conversation is with a caseworker, whose
        // answer comes later.
        var withCaseworker = replies.some(function (reply) { return reply && reply.waiting; });
        if (!replies.length || withCaseworker) store("waiting", String(Date.now()));
        showReplies(replies);
      }
      pollSoon();
    }, function () {
      showStatus(UI[language].reconnecting);
      retryLater();
    }).catch(function () { /* a reply we could not show must not stop the outbox */ })
      .then(function () {
      busy = false;
      flush();
    });
  }

  /* Mailbox: one fetch at a time; faster right after activity, slower the longer nothing
   * comes, none while the page is hidden (it asks at once when seen again). */
  var MESSAGE_ID = /^[0-9a-f]{16}$/;
  var MAX_ACKS = 60; // what the server takes in one fetch
  var acks = [];
  try { acks = JSON.parse(store("acks") || "[]"); } catch (e) { acks = []; }
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
      showReplies(fresh);
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
      setLanguage(code);
      send('/set_language{"language": "' + code + '"}', button.textContent);
      input.focus();
    });
  });

  setLanguage(language);
  // Messages left from a previous visit that never reached the server: show and send them.
  outbox.forEach(function (entry) {
    entry.element = addMessage(entry.shown, "user");
    entry.element.classList.add("pending");
  });
  flush();
  pollNow(); // what came while the page was closed
}());
