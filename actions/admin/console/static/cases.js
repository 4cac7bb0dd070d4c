// New cases without reloading: every few seconds the queue page is fetched again and its list
// replaced in place (the same server-rendered HTML; no other endpoint, no framework). Without
// JavaScript the page still works: it is simply reloaded by hand. docs/HANDOFF.md says why
// polling and what it costs.
(function () {
  "use strict";
  var queue = document.getElementById("queue");
  if (!queue) {
    return;
  }
  var seconds = Number(queue.getAttribute("data-poll-seconds")) || 10;

  function again() {
    window.setTimeout(refresh, seconds * 1000);
  }

  function refresh() {
    if (queue.querySelector("input[type=checkbox]:checked")) {
      again(); // a caseworker is choosing cases to close: do not clear her choice
      return;
    }
    fetch(window.location.pathname + window.location.search, { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("queue");
          if (fresh) {
            queue.replaceWith(fresh);
            queue = fresh;
          }
        }
      })
      .catch(function () {})
      .then(again);
  }

  again();
})();
