// The stand-in's Discord client for one framed Activity (standin/activity_client.py): it
// frames the Activity once it hears its own server, relays every message the Activity posts to
// that server (in order, one at a time), posts the Activity what the server sends, and takes
// the frame away when the server says the Activity was closed.
"use strict";
(function () {
  var body = document.body;
  var frame = null;
  var queue = Promise.resolve();
  var events = new EventSource(body.dataset.events);
  events.onopen = function () {
    if (frame !== null) return;
    frame = document.createElement("iframe");
    frame.title = "Activity";
    frame.src = body.dataset.activity;
    frame.allow = "autoplay; clipboard-write; fullscreen";
    body.appendChild(frame);
  };
  events.onmessage = function (event) {
    if (frame !== null) frame.contentWindow.postMessage(JSON.parse(event.data), location.origin);
  };
  events.addEventListener("close", function () {
    events.close();
    if (frame !== null) frame.remove();
    body.dataset.closed = "yes";
  });
  window.addEventListener("message", function (event) {
    if (frame === null || event.source !== frame.contentWindow) return;
    var message = JSON.stringify(event.data);
    queue = queue.then(function () {
      return fetch(body.dataset.rpc, {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: message,
      });
    }).catch(function () {});
  });
})();
