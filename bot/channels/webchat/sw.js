/* The web chat's service worker: keeps the page's own four files, so that the page opens, and
 * shows the chat kept on the phone, without a connection (a reload on a bad network must not end
 * on the browser's "No internet" page). Network first: when the server answers, its files are
 * used and kept; only when it cannot be reached are the kept ones shown. Nothing else passes
 * through here: messages, the mailbox and the first screen go to the server as they are. */
"use strict";

var CACHE = "evacuee-webchat-page";
var FILES = ["", "widget.js", "widget.css", "work.js"]; // relative to the page: "" is the page

function kept(path) {
  return new URL(path, self.registration.scope).href;
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(FILES.map(kept));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  var scope = new URL(self.registration.scope);
  var path = url.pathname.slice(scope.pathname.length);
  if (request.method !== "GET" || url.origin !== scope.origin || FILES.indexOf(path) < 0 ||
      url.pathname.indexOf(scope.pathname) !== 0) {
    return;
  }
  var key = kept(path);
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(key, copy); }));
    }
    return response;
  }, function (error) {
    return caches.match(key).then(function (found) { return found || Promise.reject(error); });
  }));
});
