// The saved replies of a case's page in the language they will be sent in: when the
// caseworker picks another language above them, each button shows (and sends) its text in that
// language. Without JavaScript the buttons show the person's language, the one selected at
// first, and each button names the language it shows, so what is sent is what was shown.
(function () {
  "use strict";
  var select = document.getElementById("reply-language");
  var list = document.querySelector("ul.saved");
  var note = document.getElementById("saved-in");
  if (!select || !list) {
    return;
  }
  select.addEventListener("change", function () {
    var code = select.value;
    list.setAttribute("lang", code);
    list.setAttribute("dir", code === "en" ? "ltr" : "rtl");
    list.querySelectorAll("button[name=saved]").forEach(function (button) {
      var text = button.getAttribute("data-" + code);
      if (text) {
        button.textContent = text;
        button.value = button.value.split(":")[0] + ":" + code;
      }
    });
    if (note && note.getAttribute("data-" + code)) {
      note.textContent = note.getAttribute("data-" + code);
    }
  });
})();
