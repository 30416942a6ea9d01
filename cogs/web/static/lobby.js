"use strict";
/* The lobby at the table's page: Join, Add computer player (with its level), Start (the host)
   and Leave, in <div id="lobby-controls">, for a person signed in (static/session.js). Each
   state the page shows ("ohhell:state", from static/table.js) that is a lobby's asks the bot
   what this person may do (GET <page>/lobby, with the words in the page's language); a press
   posts the action (POST <page>/lobby) and shows the bot's answer or refusal as it is; the
   table's next push shows the change. Loads static/session.js itself when the page did not
   (its address in this script's data-session), and only when the bot says sign-in is on; its
   style sheet too (data-sheet), once there is something to show. */
(function () {
  var script = document.currentScript;
  var box = document.getElementById("lobby-controls");
  var styled = false;

  function style() {
    /* This script's style sheet (data-sheet), the first time there is something to show. */
    if (styled || !script.dataset.sheet) return;
    styled = true;
    var link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = script.dataset.sheet;
    document.head.appendChild(link);
  }
  var asked = null;
  var said = "";

  function session() {
    if (window.ohhellSession) return Promise.resolve(window.ohhellSession);
    return new Promise(function (resolve) {
      var tag = document.createElement("script");
      tag.src = script.dataset.session;
      tag.onload = function () { resolve(window.ohhellSession); };
      tag.onerror = function () { resolve(null); };
      document.body.appendChild(tag);
    });
  }

  function address() {
    return location.pathname.replace(/\/$/, "") + "/lobby";
  }

  async function call(method, data) {
    var headers = {};
    if (method !== "GET" || window.ohhellSession) {
      var api = await session();
      var user = api ? await api.ready : null;
      if (!user) return null;
      headers = api.headers();
    }
    var init = {method: method, credentials: "same-origin", headers: headers};
    if (data) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(data);
    }
    var answer = await fetch(address(), init);
    var got = await answer.json().catch(function () { return {}; });
    return {ok: answer.ok, got: got};
  }

  function button(id, text, action, extra) {
    var node = document.createElement("button");
    node.type = "button";
    node.id = id;
    node.textContent = text;
    node.addEventListener("click", async function () {
      node.disabled = true;
      var data = {action: action};
      if (extra) Object.assign(data, extra());
      var done = await call("POST", data).catch(function () { return null; });
      said = done && done.got.message ? done.got.message : "";
      node.disabled = false;
      asked = null;
      refresh(true);
    });
    return node;
  }

  function draw(offer) {
    var words = offer.words;
    var parts = [];
    if (!offer.seated) parts.push(button("lobby-join", words.join, "join"));
    if (offer.seated) {
      var level = document.createElement("select");
      level.id = "lobby-level";
      level.setAttribute("aria-label", words.level);
      offer.levels.forEach(function (choice) {
        var option = document.createElement("option");
        option.value = choice[0];
        option.textContent = choice[1];
        level.appendChild(option);
      });
      parts.push(level);
      parts.push(button("lobby-computer", words.computer, "computer", function () {
        return {level: level.value};
      }));
    }
    if (offer.host) {
      var start = button("lobby-start", words.start, "start");
      if (offer.start_problem) {
        start.disabled = true;
        start.title = offer.start_problem;
      }
      parts.push(start);
    }
    if (offer.seated) parts.push(button("lobby-leave", words.leave, "leave"));
    var status = document.createElement("p");
    status.id = "lobby-said";
    status.setAttribute("role", "status");
    status.textContent = said || offer.start_problem || "";
    var row = document.createElement("div");
    row.className = "lobby-buttons";
    row.replaceChildren.apply(row, parts);
    style();
    box.replaceChildren(row, status);
    box.className = "panel";
    box.hidden = false;
  }

  async function refresh(force) {
    if (!box || (asked && !force)) return;
    asked = call("GET").catch(function () { return null; });
    var got = await asked;
    if (got && got.ok && got.got.signin && !got.got.lobby && !window.ohhellSession) {
      /* Sign-in is on and this page has no session yet: sign in, then ask again. */
      await session();
      asked = call("GET").catch(function () { return null; });
      got = await asked;
    }
    if (!got || !got.ok || !got.got.lobby) {
      box.replaceChildren();
      box.hidden = true;
      return;
    }
    draw(got.got);
  }

  var version = null;
  document.addEventListener("ohhell:state", function (event) {
    var state = event.detail || {};
    if (state.status !== "lobby") {
      if (box) { box.replaceChildren(); box.hidden = true; }
      return;
    }
    if (state.version === version) return;
    version = state.version;
    refresh(true);
  });
})();
