"use strict";
(function () {
  var data = JSON.parse(document.getElementById("game").textContent);
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var steps = [];
  data.hands.forEach(function (hand, h) {
    hand.tricks.forEach(function (_, t) { steps.push([h, t]); });
  });
  var at = 0;
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? values[key] : all;
    });
  }
  function card(notation, named) {
    var joker = notation === "JOKER";
    var suit = joker ? "J" : notation.slice(-1);
    var rank = joker ? "\u2605" : notation.slice(0, -1);
    var node = el("span", "card " + suit);
    node.setAttribute("data-card", notation);
    node.appendChild(el("span", "r", data.ranks[rank] || rank));
    // A joker shows the suit its player named when it led in no trumps.
    node.appendChild(el("span", "s", joker ? (named ? SUITS[named] : "") : SUITS[suit]));
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function show(index, fromHash) {
    at = Math.max(0, Math.min(steps.length - 1, index));
    var h = steps[at][0], t = steps[at][1];
    var hand = data.hands[h], trick = hand.tricks[t];
    document.getElementById("hand-title").textContent = hand.title;
    document.getElementById("trick-title").textContent =
      fill(data.labels.trick, {trick: t + 1, count: hand.tricks.length});
    var shown = document.getElementById("trick");
    clear(shown);
    shown.setAttribute("data-hand", h + 1);
    shown.setAttribute("data-trick", t + 1);
    trick.cards.forEach(function (notation, i) {
      var seat = trick.seats[i];
      var play = el("div", "play" + (seat === trick.winner ? " won" : ""));
      play.appendChild(card(notation, trick.named && trick.named[i]));
      play.appendChild(el("span", "who", data.players[seat]));
      shown.appendChild(play);
    });
    document.getElementById("winner").textContent = trick.winner === null
      ? data.labels.cancelled
      : fill(data.labels.wins, {name: data.players[trick.winner]});
    var gone = {};
    hand.tricks.slice(0, t + 1).forEach(function (done) {
      done.cards.forEach(function (c, i) {
        var key = done.seats[i] + ":" + c;
        gone[key] = (gone[key] || 0) + 1;
      });
    });
    var seats = document.getElementById("seats");
    clear(seats);
    hand.dealt.forEach(function (cards, seat) {
      if (!cards.length) return;
      var box = el("div", "seat");
      box.appendChild(el("div", "who", data.players[seat]));
      var row = el("div", "cards");
      cards.forEach(function (c) {
        var node = card(c);
        var key = seat + ":" + c;
        if (gone[key]) { gone[key] -= 1; node.className += " gone"; }
        row.appendChild(node);
      });
      box.appendChild(row);
      seats.appendChild(box);
    });
    var results = document.getElementById("results");
    clear(results);
    hand.results.forEach(function (line) { results.appendChild(el("li", "", line)); });
    document.getElementById("prev").disabled = at === 0;
    document.getElementById("next").disabled = at === steps.length - 1;
    Array.prototype.forEach.call(document.querySelectorAll("nav.hands a"), function (a) {
      a.className = a.getAttribute("href") === "#h" + (h + 1) + "t1" ? "here" : "";
    });
    var hash = "#h" + (h + 1) + "t" + (t + 1);
    if (!fromHash && location.hash !== hash && history.replaceState) {
      try { history.replaceState(null, "", hash); } catch (e) { /* a file: URL may refuse */ }
    }
  }
  function fromHash() {
    var found = /^#h(\d+)(?:t(\d+))?$/.exec(location.hash);
    if (!found) return 0;
    var h = +found[1] - 1, t = found[2] ? +found[2] - 1 : 0;
    for (var i = 0; i < steps.length; i++) {
      if (steps[i][0] === h && steps[i][1] === t) return i;
    }
    for (var j = 0; j < steps.length; j++) if (steps[j][0] === h) return j;
    return 0;
  }
  if (!steps.length) return;
  document.getElementById("prev").addEventListener("click", function () { show(at - 1); });
  document.getElementById("next").addEventListener("click", function () { show(at + 1); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") { show(at - 1); event.preventDefault(); }
    if (event.key === "ArrowRight") { show(at + 1); event.preventDefault(); }
  });
  window.addEventListener("hashchange", function () { show(fromHash(), true); });
  show(fromHash(), true);
})();
