"use strict";
/* The Activity at a channel (the entry page, after static/session.js signed the person in):
   asks the bot for the channel Discord's query names (POST activity/table), and goes to its
   table's page, in this frame, with Discord's query kept (the session follows in this tab's
   sessionStorage). With no table there, offers to open one (POST activity/open), then goes to
   it. A refusal's sentence, from the bot, is shown as it is. Words come from the body's
   data-* (`data-no-table`, `data-open`, `data-opening`, `data-nowhere`). */
(function () {
  var body = document.body;
  var words = body.dataset;
  var query = new URLSearchParams(location.search);
  var place = {
    instance_id: query.get("instance_id") || "",
    guild_id: query.get("guild_id") || "",
    channel_id: query.get("channel_id") || "",
  };
  var box = document.getElementById("channel-table");

  function show(text) {
    var status = document.getElementById("session-status");
    if (status) status.textContent = text;
  }

  async function post(path) {
    var headers = Object.assign({"Content-Type": "application/json"},
      window.ohhellSession.headers());
    var answer = await fetch(path, {
      method: "POST", credentials: "same-origin", headers: headers, body: JSON.stringify(place),
    });
    var got = await answer.json().catch(function () { return {}; });
    return {ok: answer.ok, got: got};
  }

  function go(path) {
    body.dataset.table = path;
    location.assign(path + location.search);
  }

  function offer() {
    var note = document.createElement("p");
    note.textContent = words.noTable || "";
    var open = document.createElement("button");
    open.type = "button";
    open.id = "open-table";
    open.textContent = words.open || "";
    open.addEventListener("click", async function () {
      open.disabled = true;
      show(words.opening || "");
      var opened = await post("activity/open").catch(function () { return {ok: false, got: {}}; });
      if (opened.ok && opened.got.table) return go(opened.got.table);
      show(opened.got.message || words.failed || "");
      open.disabled = false;
    });
    box.replaceChildren(note, open);
  }

  async function start() {
    var user = await window.ohhellSession.ready;
    if (!user || !box) return;
    if (!place.guild_id || !place.channel_id) {
      show(words.nowhere || "");
      return;
    }
    var found = await post("activity/table").catch(function () { return {ok: false, got: {}}; });
    if (!found.ok) {
      show(found.got.message || words.failed || "");
      return;
    }
    if (found.got.table) return go(found.got.table);
    offer();
  }

  start();
})();
