/* The web chat on another site's page, from one tag:
 *   <script src="https://ASSISTANT/webchat/embed.js" async></script>
 * A button at the bottom of the page (on the right of a left-to-right page, the left of a
 * right-to-left one) opens the chat, /webchat/ beside this file, in a frame over the page: the
 * whole screen on a phone, a panel on a wider screen. Nothing is loaded before the button is
 * tapped. The frame keeps the two apart: the site's styles cannot reach the chat, nor ours the
 * site (docs/DECISIONS.md). Styles are set on each element (CSSOM), never in a style element,
 * so a site whose Content-Security-Policy forbids inline styles still shows the button; a site
 * WEBCHAT_ORIGINS does not name gets an empty frame (the chat's frame-ancestors).
 * Options on the tag: data-lang (prs, ps, en; else the page's <html lang>), data-side (left,
 * right), data-label (the button's words), data-organisation (passed on to the chat).
 * The table of languages and their words is filled in by the server (webchat_page.py). */
(function () {
  "use strict";

  var CONFIG = /*languages*/{};
  var PHONE = "(max-width: 480px)";
  var FONTS = "system-ui, -apple-system, \"Segoe UI\", \"Noto Sans\", Tahoma, Arial, sans-serif";
  var ARABIC_FONTS = "\"Noto Sans Arabic UI\", \"Noto Sans Arabic\", \"Noto Naskh Arabic\", " +
    "\"Segoe UI\", Tahoma, system-ui, sans-serif";
  var COLOUR = "#0b4f6c";
  var SVG = "http://www.w3.org/2000/svg";

  var script = document.currentScript;
  if (!script || !script.src) {
    var all = document.querySelectorAll("script[src*=\"/embed.js\"]");
    script = all[all.length - 1];
  }
  if (!script || window.evacueeWebchatEmbed) return; // one button, however many tags
  window.evacueeWebchatEmbed = true;

  var chat = new URL("./", script.src);
  var options = script.dataset;

  function languageOf(written) {
    var lower = String(written || "").toLowerCase();
    return CONFIG.aliases[lower] || CONFIG.aliases[lower.split("-")[0]] || null;
  }

  var code = languageOf(options.lang) || languageOf(document.documentElement.lang) ||
    CONFIG["default"];
  var words = CONFIG.languages[code];

  /* Our look, whatever the site's styles say: inline and !important beat them all, and
   * "all: initial" first drops what the site would otherwise pass down. */
  function css(element, properties, fresh) {
    if (fresh) element.style.setProperty("all", "initial", "important");
    Object.keys(properties).forEach(function (name) {
      element.style.setProperty(name, properties[name], "important");
    });
  }

  function text(element) {
    element.lang = words.tag;
    element.dir = words.dir;
    return { "font-family": words.dir === "rtl" ? ARABIC_FONTS : FONTS, "font-size": "16px",
      "line-height": "1.4", "font-weight": "600", color: "#fff" };
  }

  function ring(element) { // a focus ring the site's "outline: none" cannot take away
    element.addEventListener("focus", function () {
      css(element, { outline: "3px solid #f0a500", "outline-offset": "2px" });
    });
    element.addEventListener("blur", function () { css(element, { outline: "none" }); });
  }

  var launcher, panel, frame, loaded, phone, overflows, lastSide;

  function side() {
    var asked = options.side;
    if (asked === "left" || asked === "right") return asked;
    var direction = getComputedStyle(document.body || document.documentElement).direction;
    return direction === "rtl" ? "left" : "right";
  }

  function opened() { return Boolean(panel) && panel.style.getPropertyValue("display") !== "none"; }

  /* The page behind does not scroll under a chat that fills the phone's screen. */
  function holdPage(hold) {
    var elements = [document.documentElement, document.body];
    if (hold && !overflows) {
      overflows = elements.map(function (element) {
        return [element.style.getPropertyValue("overflow"), element.style.getPropertyPriority("overflow")];
      });
      elements.forEach(function (element) { element.style.setProperty("overflow", "hidden", "important"); });
    } else if (!hold && overflows) {
      elements.forEach(function (element, i) {
        if (overflows[i][0]) element.style.setProperty("overflow", overflows[i][0], overflows[i][1]);
        else element.style.removeProperty("overflow");
      });
      overflows = null;
    }
  }

  function layout() {
    if (!opened()) return;
    var small = phone.matches;
    var at = lastSide;
    css(panel, small ? {
      top: "0", bottom: "0", left: "0", right: "0", width: "100%", height: "100%",
      "max-height": "none", "border-radius": "0", "box-shadow": "none"
    } : {
      top: "auto", bottom: "88px", left: at === "left" ? "16px" : "auto",
      right: at === "right" ? "16px" : "auto", width: "380px", height: "640px",
      "max-height": "calc(100% - 104px)", "border-radius": "12px",
      "box-shadow": "0 6px 24px rgba(0, 0, 0, .3)"
    });
    holdPage(small);
    // Under a chat that fills the screen the button is out of sight: out of reach too.
    css(launcher, { visibility: small ? "hidden" : "visible" });
  }

  function build() {
    panel = document.createElement("div");
    panel.id = "evacuee-webchat";
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-label", words.title);
    css(panel, { position: "fixed", "z-index": "2147483647", display: "flex",
      "flex-direction": "column", overflow: "hidden", background: "#fff" }, true);
    var bar = document.createElement("div");
    css(bar, { display: "flex", "justify-content": "flex-end", background: COLOUR,
      padding: "4px 8px" }, true);
    bar.dir = words.dir;
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = words.close + " \u2715";
    css(close, text(close), true);
    css(close, { cursor: "pointer", "min-height": "40px", padding: "0 12px", background: COLOUR,
      border: "1px solid #fff", "border-radius": "6px" });
    ring(close);
    close.addEventListener("click", hide);
    bar.appendChild(close);
    var address = new URL(chat.href);
    address.searchParams.set("lang", code);
    if (options.organisation) address.searchParams.set("organisation", options.organisation.slice(0, 64));
    frame = document.createElement("iframe");
    frame.title = words.title;
    frame.src = address.href;
    css(frame, { display: "block", flex: "1", width: "100%", border: "0" }, true);
    frame.addEventListener("load", function () {
      loaded = true;
      if (opened()) focusChat();
    });
    panel.appendChild(bar);
    panel.appendChild(frame);
    document.body.appendChild(panel);
    launcher.setAttribute("aria-controls", panel.id);
  }

  /* Into the chat, and there to its question box (the chat's own page does that part). */
  function focusChat() {
    frame.focus();
    if (loaded && frame.contentWindow) {
      frame.contentWindow.postMessage({ webchat: "focus" }, chat.origin);
    }
  }

  function show() {
    if (!panel) build();
    lastSide = side();
    css(panel, { display: "flex" });
    launcher.setAttribute("aria-expanded", "true");
    layout();
    focusChat();
  }

  function hide() {
    if (!opened()) return;
    css(panel, { display: "none" });
    launcher.setAttribute("aria-expanded", "false");
    holdPage(false);
    css(launcher, { visibility: "visible" });
    launcher.focus();
  }

  function start() {
    launcher = document.createElement("button");
    launcher.type = "button";
    launcher.id = "evacuee-webchat-open";
    launcher.setAttribute("aria-haspopup", "dialog");
    launcher.setAttribute("aria-expanded", "false");
    var icon = document.createElementNS(SVG, "svg");
    icon.setAttribute("viewBox", "0 0 24 24");
    icon.setAttribute("aria-hidden", "true");
    css(icon, { display: "inline-block", width: "22px", height: "22px", fill: "#fff",
      "vertical-align": "middle", "margin-inline-end": "8px" }, true);
    var path = document.createElementNS(SVG, "path");
    path.setAttribute("d", "M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z");
    css(path, { fill: "#fff" }); // not "all: initial": that would also drop the path's d
    icon.appendChild(path);
    launcher.appendChild(icon);
    launcher.appendChild(document.createTextNode(options.label || words.open));
    var at = side();
    css(launcher, text(launcher), true);
    css(launcher, { position: "fixed", "z-index": "2147483646", bottom: "16px",
      left: at === "left" ? "16px" : "auto", right: at === "right" ? "16px" : "auto",
      display: "inline-flex", "align-items": "center", "min-height": "48px", padding: "0 18px",
      background: COLOUR, border: "2px solid #fff", "border-radius": "24px", cursor: "pointer",
      "box-shadow": "0 2px 10px rgba(0, 0, 0, .3)" });
    ring(launcher);
    launcher.addEventListener("click", function () { if (opened()) hide(); else show(); });
    document.body.appendChild(launcher);
    phone = window.matchMedia(PHONE);
    window.addEventListener("resize", layout);
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && opened()) hide();
    });
    // The chat's own Escape, from inside its frame (its keys never reach this page).
    window.addEventListener("message", function (event) {
      if (frame && event.source === frame.contentWindow && event.origin === chat.origin &&
          event.data && event.data.webchat === "close") hide();
    });
    // The chat runs in its own process and may take the focus it was asked for just after it
    // was closed, not yet knowing it is hidden: the button takes it back.
    window.addEventListener("blur", function () {
      setTimeout(function () {
        if (frame && !opened() && document.activeElement === frame) launcher.focus();
      }, 0);
    });
  }

  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
}());
