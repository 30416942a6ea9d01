"use strict";
/* A person's own seat at the table's page: their hand as cards to click, the bid as a row of
   numbers, trump, the auto-play switch, Leave and I'm back — drawn from each hand the seat's
   stream pushes (table.js tells it as "ohhell:hand"; null: no hand of theirs), every value put
   in as text. A move goes to the page's act address with the session's header; a refusal's
   sentence is shown, and nothing else changes until the stream says so. A card or number that
   cannot be chosen stays focusable, dimmed, its reason in its title and read out with it. */
(function () {
  var body = document.body;
  var words = JSON.parse(body.dataset.seatWords || "{}");
  var LETTERS = "CDHS";
  var hand = null;
  var sending = false;
  var asking = false;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) { return window.ohhellTable.el(tag, cls, text); }

  function say(text) { $("seat-error").textContent = text || ""; }

  async function send(move) {
    if (sending) return;
    sending = true;
    say("");
    try {
      var headers = Object.assign({"Content-Type": "application/json"},
                                  window.ohhellSession.headers());
      var answer = await fetch(body.dataset.act, {
        method: "POST", headers: headers, body: JSON.stringify(move), cache: "no-store",
      });
      var got = await answer.json().catch(function () { return {}; });
      if (!answer.ok) say(got.message || got.error || String(answer.status));
    } catch (error) {
      say(error.message);
    } finally {
      sending = false;
    }
  }

  /* A reason beside a control, read out with it (aria-describedby) and shown on hover. */
  function because(node, reason, key) {
    if (!reason) return;
    node.title = reason;
    var id = "why-" + key;
    var why = el("span", null, reason);
    why.id = id;
    $("seat-why").appendChild(why);
    node.setAttribute("aria-describedby", id);
  }

  function choice(label, allowed, reason, key, move, cls) {
    var button = el("button", cls || "choice", label);
    button.type = "button";
    if (!allowed) {
      button.setAttribute("aria-disabled", "true");
      button.classList.add("dim");
    }
    because(button, reason, key);
    button.addEventListener("click", function () {
      if (allowed) send(move); else if (reason) say(reason);
    });
    return button;
  }

  function cardButton(option) {
    var shown = window.ohhellTable.card(option.card);
    var button = el("button", shown.className + " mine");
    button.type = "button";
    button.dataset.card = option.card;
    button.dataset.id = option.id;
    button.setAttribute("aria-label", option.label);
    while (shown.firstChild) button.appendChild(shown.firstChild);
    if (!option.playable) {
      button.setAttribute("aria-disabled", "true");
      button.classList.add("dim");
    }
    because(button, option.reason, "card-" + option.id);
    button.addEventListener("click", function () {
      if (option.playable) send({do: "play", hand: hand.hand, card: option.id});
      else if (option.reason) say(option.reason);
    });
    return button;
  }

  function tools() {
    var box = $("seat-tools");
    box.replaceChildren();
    if (hand.over) return;
    if (hand.away) {
      if (hand.away !== "kicked") {
        box.appendChild(choice(words.back, true, null, "back", {do: "back"}, "tool"));
      }
      return;
    }
    var auto = choice(hand.auto_label, true, null, "auto", {do: "auto", on: !hand.auto}, "tool");
    auto.setAttribute("aria-pressed", hand.auto ? "true" : "false");
    box.appendChild(auto);
    if (asking) {
      var question = box.appendChild(el("p", "question", words.leave_question));
      question.id = "leave-question";
      var yes = box.appendChild(choice(words.yes_leave, true, null, "yes",
                                       {do: "leave", confirm: true}, "tool danger"));
      yes.setAttribute("aria-describedby", "leave-question");
      var no = box.appendChild(el("button", "tool", words.stay));
      no.type = "button";
      no.addEventListener("click", function () { asking = false; tools(); $("seat-leave").focus(); });
      yes.addEventListener("click", function () { asking = false; });
      yes.focus();
      return;
    }
    var leave = box.appendChild(el("button", "tool", words.leave));
    leave.type = "button";
    leave.id = "seat-leave";
    leave.addEventListener("click", function () { asking = true; tools(); });
  }

  function show(got) {
    hand = got;
    var section = $("my-seat");
    section.hidden = !hand;
    body.dataset.seated = hand ? "1" : "";
    if (!hand) return;
    $("seat-why").replaceChildren();
    $("my-seat-title").textContent = hand.title;
    $("seat-prompt").textContent = hand.prompt;
    $("seat-line").textContent = hand.bid_line;
    $("seat-now").textContent = hand.now || "";
    section.classList.toggle("turn", hand.turn);
    var bids = $("my-bids");
    bids.replaceChildren();
    bids.setAttribute("aria-label", words.bid);
    hand.bids.forEach(function (bid) {
      var button = choice(bid.label, bid.allowed, bid.reason, "bid-" + bid.n,
                          {do: "bid", hand: hand.hand, bid: bid.n}, "choice number");
      if (bid.chosen) button.setAttribute("aria-pressed", "true");
      bids.appendChild(button);
    });
    var trumps = $("my-trumps");
    trumps.replaceChildren();
    trumps.setAttribute("aria-label", words.trump);
    hand.trumps.forEach(function (trump) {
      trumps.appendChild(choice(trump.label, true, null, "trump-" + trump.suit,
                                {do: "trump", hand: hand.hand, suit: LETTERS.indexOf(trump.suit)}));
    });
    var cards = $("my-cards");
    cards.replaceChildren();
    cards.setAttribute("aria-label", words.cards);
    hand.cards.forEach(function (option) {
      /* Before the cards are played (bids, trump) they are only shown. */
      cards.appendChild(hand.phase === "playing" ? cardButton(option)
                                                 : window.ohhellTable.card(option.card));
    });
    hand.blind.forEach(function (other) {
      var item = cards.appendChild(el("span", "blind"));
      item.appendChild(window.ohhellTable.card(other.card));
      item.appendChild(el("span", "who", other.name));
    });
    var jokers = $("my-jokers");
    jokers.replaceChildren();
    hand.jokers.forEach(function (joker) {
      jokers.appendChild(choice(joker.label, true, null, "joker-" + joker.suit,
                                {do: "play", hand: hand.hand, card: joker.id, suit: joker.suit}));
    });
    tools();
  }

  document.addEventListener("ohhell:hand", function (event) {
    if (!event.detail || !hand || event.detail.hand !== hand.hand) asking = asking && !!event.detail;
    show(event.detail);
  });
})();
