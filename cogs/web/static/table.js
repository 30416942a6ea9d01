"use strict";
(function () {
  var body = document.body;
  var ranks = JSON.parse(body.dataset.ranks);
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function card(code) {
    var joker = code === "JOKER";
    var suit = joker ? "J" : code.slice(-1);
    var rank = joker ? "\u2605" : code.slice(0, -1);
    var node = el("span", "card " + suit);
    node.dataset.card = code;
    node.appendChild(el("span", "r", ranks[rank] || rank));
    node.appendChild(el("span", "s", joker ? "" : SUITS[suit]));
    return node;
  }
  function show(state) {
    document.getElementById("heading").textContent = state.heading || "";
    var seats = document.getElementById("seats");
    seats.replaceChildren();
    state.seats.forEach(function (seat) {
      var row = el("div", "seat");
      row.appendChild(el("span", "who", seat.name));
      if (seat.bid !== undefined) {
        row.appendChild(el("span", "bid", " " + seat.bid + " · " + seat.took + " · " + seat.total));
      }
      seats.appendChild(row);
    });
    var trick = document.getElementById("trick");
    trick.replaceChildren();
    state.trick.forEach(function (play) { trick.appendChild(card(play.card)); });
    body.dataset.version = state.version;
  }
  var source = new EventSource(body.dataset.events);
  source.addEventListener("table", function (event) { show(JSON.parse(event.data)); });
})();
