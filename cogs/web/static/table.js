"use strict";
/* The live table page: draws each state the bot pushes (Server-Sent Events; EventSource
   connects again by itself), every value put in as text. Words come in the pushes, already
   in the page's language, or in the body's data-words.

   Signed in (static/session.js), the page reads its person's own seat stream instead: the
   same pushes and their own hand, fetched with the session's header (never in the address),
   read as Server-Sent Events and connected again when it breaks. Each state shown is told to
   the document as "ohhell:state", each hand as "ohhell:hand" (static/seat.js draws it). */
(function () {
  var body = document.body;
  var ranks = JSON.parse(body.dataset.ranks);
  var words = JSON.parse(body.dataset.words);
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var BACKS_SHOWN = 13;
  var skew = 0;           /* the bot's clock minus this one's, in seconds */
  var deadline = null;
  var ticking = null;
  var previous = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function cardLabel(code) {
    if (code === "JOKER") return "\uD83C\uDCCF";
    var rank = code.slice(0, -1);
    return (ranks[rank] || rank) + SUITS[code.slice(-1)];
  }
  function card(code) {
    var joker = code === "JOKER";
    var suit = joker ? "J" : code.slice(-1);
    var rank = joker ? "\u2605" : code.slice(0, -1);
    var node = el("span", "card " + suit);
    node.dataset.card = code;
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardLabel(code));
    node.appendChild(el("span", "r", ranks[rank] || rank)).setAttribute("aria-hidden", "true");
    node.appendChild(el("span", "s", joker ? "J" : SUITS[suit])).setAttribute("aria-hidden", "true");
    return node;
  }
  /* Where seat `i` of `n` sits round the felt, as fractions of its width and height from the
     middle: the first seat at the bottom, the others on round clockwise. */
  function place(i, n) {
    var angle = Math.PI / 2 + (2 * Math.PI * i) / n;
    return {x: Math.cos(angle), y: Math.sin(angle)};
  }
  function clockText(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    return m + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    var left = deadline === null ? null : deadline - (Date.now() / 1000 + skew);
    var clocks = document.querySelectorAll(".clock");
    for (var i = 0; i < clocks.length; i++) {
      clocks[i].textContent = left === null ? "" : clockText(left);
      clocks[i].classList.toggle("low", left !== null && left <= 10);
    }
    if (left === null && ticking !== null) { clearInterval(ticking); ticking = null; }
  }

  function seatNode(seat, i, n) {
    var node = el("li", "seat");
    var where = place(i, n);
    node.style.setProperty("--x", where.x.toFixed(3));
    node.style.setProperty("--y", where.y.toFixed(3));
    node.dataset.seat = i;
    var top = node.appendChild(el("div", "top"));
    if (seat.turn) {
      node.classList.add("turn");
      node.dataset.turn = "1";
      top.appendChild(el("span", "marker", "\u25B6")).setAttribute("aria-hidden", "true");
      top.appendChild(el("span", "visually-hidden", words.turn + ": "));
    }
    top.appendChild(el("span", "name", seat.name));
    if (seat.dealer) top.appendChild(el("span", "chip", words.dealer));
    if (seat.total !== undefined) {
      var line = node.appendChild(el("div", "line"));
      if (seat.out !== undefined) {
        node.classList.add("out");
        line.appendChild(el("span", "bid", seat.out));
      } else {
        line.appendChild(el("span", "bid", seat.bid));
        line.appendChild(el("span", "took", seat.took));
      }
      line.appendChild(el("span", "total", seat.total));
    }
    if (seat.cards) {
      var hand = node.appendChild(el("div", "hand"));
      hand.setAttribute("role", "img");
      hand.setAttribute("aria-label", seat.held);
      hand.dataset.count = seat.cards;
      for (var c = 0; c < Math.min(seat.cards, BACKS_SHOWN); c++) {
        hand.appendChild(el("span", "back")).setAttribute("aria-hidden", "true");
      }
      hand.appendChild(el("span", "count", String(seat.cards))).setAttribute("aria-hidden", "true");
    }
    if (seat.turn && deadline !== null) {
      var clock = node.appendChild(el("div", "clock"));
      clock.setAttribute("role", "timer");
      clock.setAttribute("aria-label", words.time);
    }
    return node;
  }

  function plays(box, list, n, winner) {
    box.replaceChildren();
    /* Round a table of up to five, each card towards its player; in a row for more. */
    box.classList.toggle("many", n > 5);
    list.forEach(function (play) {
      var node = el("div", "play");
      if (play.seat >= 0 && n > 0) {
        var where = place(play.seat, n);
        node.style.setProperty("--x", where.x.toFixed(3));
        node.style.setProperty("--y", where.y.toFixed(3));
      }
      if (winner !== undefined && winner !== null && play.seat === winner) node.classList.add("won");
      node.dataset.seat = play.seat;
      node.appendChild(card(play.card));
      node.appendChild(el("span", "who", play.name));
      box.appendChild(node);
    });
  }

  function showMiddle(state) {
    var middle = $("middle");
    var n = state.seats.length;
    var taken = $("taken");
    var finished = null;
    if (state.trick.length === 0 && state.last) finished = state.last;
    if (finished) {
      plays(middle, finished.plays, n, finished.winner);
      middle.dataset.winner = finished.winner === null ? "" : String(finished.winner);
      middle.classList.add("done");
      taken.textContent = finished.taken;
    } else {
      plays(middle, state.trick, n);
      delete middle.dataset.winner;
      middle.classList.remove("done");
      taken.textContent = "";
    }
    var trump = $("trump");
    trump.replaceChildren();
    if (state.trump) {
      if (state.turned) trump.appendChild(card(state.turned));
      trump.appendChild(el("span", "what", state.trump));
    }
  }

  function showLast(state) {
    var button = $("last-button");
    var panel = $("last-trick");
    var last = state.last;
    button.disabled = !last;
    if (!last) {
      panel.hidden = true;
      button.setAttribute("aria-expanded", "false");
      return;
    }
    $("last-title").textContent = last.caption;
    plays(panel.querySelector(".middle"), last.plays, 0, last.winner);
    panel.querySelector(".taken").textContent = last.taken;
  }

  function showDone(state) {
    var section = $("done");
    var tricks = state.tricks.length ? state.tricks : (state.earlier || []);
    section.hidden = tricks.length === 0;
    $("done-title").textContent = state.tricks_title || "";
    var list = $("done-tricks");
    list.replaceChildren();
    tricks.forEach(function (trick) {
      var item = el("li");
      item.appendChild(el("span", "caption", trick.caption));
      var row = item.appendChild(el("div", "middle flat"));
      plays(row, trick.plays, 0, trick.winner);
      row.dataset.winner = trick.winner === null ? "" : String(trick.winner);
      item.appendChild(el("p", "taken", trick.taken));
      list.appendChild(item);
    });
  }

  function showScores(state) {
    var section = $("scores");
    if (!state.scores) { section.hidden = true; return; }
    section.hidden = false;
    $("scores-title").textContent = state.scores.title;
    var rows = $("score-rows");
    rows.replaceChildren();
    state.scores.rows.forEach(function (row) {
      var item = el("li");
      item.appendChild(el("span", "place", row.place + "."));
      item.appendChild(el("span", "name", row.name));
      item.appendChild(el("span", "points", row.total));
      rows.appendChild(item);
    });
    var replay = $("replay");
    if (state.replay) {
      replay.textContent = state.replay.text;
      replay.href = state.replay.href;
      replay.hidden = false;
    } else {
      replay.hidden = true;
    }
  }

  function showList(id, lines) {
    var list = $(id);
    list.replaceChildren();
    (lines || []).forEach(function (line) { list.appendChild(el("li", null, line)); });
    return list;
  }

  /* What a screen reader is told: a new hand, a trick taken, the table closing; not every
     card. */
  function news(state) {
    if (previous === null) return "";
    if (state.status !== previous.status) {
      var told = [state.heading].concat(state.notes);
      if (!state.open && state.scores) {
        told.push(state.scores.title + ": " + state.scores.rows.map(function (row) {
          return row.place + ". " + row.name + " " + row.total;
        }).join(", "));
      }
      return told.join(" ");
    }
    if (state.hand !== previous.hand) return state.heading;
    if (state.tricks.length > previous.tricks.length) return state.tricks[state.tricks.length - 1].taken;
    return "";
  }

  function show(state) {
    skew = state.now - Date.now() / 1000;
    deadline = state.deadline;
    document.title = state.title;
    $("title").textContent = state.title;
    $("heading").textContent = state.heading;
    showList("notes", state.notes);
    var seats = $("seats");
    seats.replaceChildren();
    var n = state.seats.length;
    seats.dataset.count = n;
    state.seats.forEach(function (seat, i) { seats.appendChild(seatNode(seat, i, n)); });
    $("felt").classList.toggle("lobby", state.status === "lobby");
    showMiddle(state);
    showLast(state);
    showDone(state);
    showScores(state);
    $("rules").hidden = !state.rules;
    showList("rule-lines", state.rules);
    var told = news(state);
    if (told) $("news").textContent = told;
    previous = state;
    body.dataset.status = state.status;
    body.dataset.version = state.version;
    tick();
    if (deadline !== null && ticking === null) ticking = setInterval(tick, 250);
    document.dispatchEvent(new CustomEvent("ohhell:state", {detail: state}));
  }

  $("last-button").addEventListener("click", function () {
    var panel = $("last-trick");
    panel.hidden = !panel.hidden;
    this.setAttribute("aria-expanded", panel.hidden ? "false" : "true");
  });

  function received(name, data) {
    /* One push; false once the table has closed for good. */
    if (name === "table") {
      $("connection").hidden = true;
      show(data);
      document.dispatchEvent(new CustomEvent("ohhell:state", {detail: data}));
      return data.open;
    }
    if (name === "hand") document.dispatchEvent(new CustomEvent("ohhell:hand", {detail: data}));
    return true;
  }

  var source = null;
  function watch() {
    source = new EventSource(body.dataset.events);
    source.addEventListener("table", function (event) {
      if (!received("table", JSON.parse(event.data))) source.close();
    });
    source.addEventListener("error", function () {
      if (source.readyState !== EventSource.CLOSED) $("connection").hidden = false;
    });
  }

  function block(text) {
    var name = "message", data = "";
    text.split("\n").forEach(function (line) {
      if (line.indexOf("event: ") === 0) name = line.slice(7);
      else if (line.indexOf("data: ") === 0) data += line.slice(6);
    });
    return data ? received(name, JSON.parse(data)) : true;
  }

  async function seat() {
    /* The person's own stream, for as long as the table is open; the public one again if
       their session is refused. */
    for (;;) {
      var open = true;
      try {
        var headers = Object.assign({Accept: "text/event-stream"}, window.ohhellSession.headers());
        var answer = await fetch(body.dataset.seat, {headers: headers, cache: "no-store"});
        if (answer.status === 401) break;
        if (answer.ok) {
          if (source) { source.close(); source = null; }
          var reader = answer.body.getReader();
          var decoder = new TextDecoder();
          var buffer = "";
          for (;;) {
            var part = await reader.read();
            if (part.done) break;
            buffer += decoder.decode(part.value, {stream: true});
            var end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              open = block(buffer.slice(0, end)) && open;
              buffer = buffer.slice(end + 2);
            }
          }
        }
      } catch (error) { /* connected again below */ }
      if (!open) return;
      $("connection").hidden = false;
      await new Promise(function (done) { setTimeout(done, 1000); });
    }
    document.dispatchEvent(new CustomEvent("ohhell:hand", {detail: null}));
    if (!source) watch();
  }

  window.ohhellTable = {card: card, el: el};
  watch();
  if (body.dataset.seat && window.ohhellSession) {
    window.ohhellSession.ready.then(function (user) { if (user) seat(); });
  }
})();
