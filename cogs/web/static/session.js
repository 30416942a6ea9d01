"use strict";
/* Who is at this page: the person's session, held here in memory and in this tab's
   sessionStorage (never in a cookie, never in localStorage), sent with each action as
   `Authorization: Session <token>`, renewed before it ends. The sessionStorage copy lets the
   session survive the page's navigation within Discord's frame (from the Activity's entry to
   its channel's table, static/activity.js): a page that finds a good one there uses it, and
   signs in again only without one. It is this tab's and this origin's alone, and gone when the
   tab (or the Activity) is closed.

   Inside Discord (the SDK loaded, Discord's query in the URL): the SDK's handshake, its
   authorize, the bot's /activity/session for the code, and the SDK's authenticate with the
   access token that answer carries once. In a plain browser: /login/session trades the login
   cookie "Log in with Discord" left for a session (none: the page is there to watch).

   window.ohhellSession: `ready` (a promise of the user {id, name}, or null), `user`,
   `headers()` (the header an action sends). Addresses are relative to the site's root (the
   body's data-root, e.g. "../"), so a site under a path of PUBLIC_URL works. The document
   gets an "ohhell:session" event and `data-session-user` on its body once signed in. Words
   come from the body's data-* (`data-signed-in`, `data-failed`). */
(function () {
  var body = document.body;
  var state = {token: null, user: null, timer: null, until: 0};
  var KEPT = "ohhell.session";
  var instance = new URLSearchParams(location.search).get("instance_id") || "";
  var api = {user: null, ready: null, headers: headers};
  window.ohhellSession = api;

  function headers() {
    return state.token ? {Authorization: "Session " + state.token} : {};
  }

  function say(key, name) {
    var status = document.getElementById("session-status");
    var words = body.dataset[key];
    if (status && words) status.textContent = words.replace("{name}", name || "");
  }

  async function post(path, data, extra) {
    var init = {method: "POST", credentials: "same-origin", headers: extra || {}};
    if (data) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(data);
    }
    var answer = await fetch(path, init);
    var got = await answer.json().catch(function () { return {}; });
    if (!answer.ok) throw new Error(got.error || "http_" + answer.status);
    return got;
  }

  function now() { return Date.now() / 1000; }

  function hold(got) {
    state.token = got.session;
    if (got.user && got.user.name !== undefined) state.user = got.user;
    api.user = state.user;
    state.until = now() + (got.expires_in || 900);
    keep();
    schedule();
  }

  function schedule() {
    clearTimeout(state.timer);
    var wait = Math.max(30, state.until - now() - 120);
    state.timer = setTimeout(renew, wait * 1000);
  }

  function keep() {
    try {
      if (state.token) {
        sessionStorage.setItem(KEPT, JSON.stringify({
          token: state.token, user: state.user, until: state.until, instance: instance,
        }));
      } else {
        sessionStorage.removeItem(KEPT);
      }
    } catch (error) { /* storage off: the session lives in this page alone */ }
  }

  function kept() {
    /* This tab's session from an earlier page of the same Activity instance (or, outside
       Discord, of this tab), if it is good for a while yet. The Activity's entry always signs
       in afresh: whoever opens the Activity is asked of Discord, not of the tab. */
    if (body.dataset.entry !== undefined) return null;
    try {
      var got = JSON.parse(sessionStorage.getItem(KEPT) || "null");
      if (got && got.token && got.user && got.user.id && got.until > now() + 30 &&
          got.instance === instance) return got;
    } catch (error) { /* none */ }
    return null;
  }

  async function renew() {
    try {
      hold(await post(root() + "activity/renew", null, headers()));
    } catch (error) {
      state.token = null;
      keep();
      body.dataset.sessionError = error.message;
    }
  }

  function signedIn() {
    body.dataset.sessionUser = state.user.id;
    say("signedIn", state.user.name);
    document.dispatchEvent(new CustomEvent("ohhell:session", {detail: state.user}));
    return state.user;
  }

  async function inDiscord() {
    var clientId = body.dataset.clientId;
    var sdk = new window.DiscordSDK(clientId);
    await sdk.ready();
    var granted = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none",
      scope: ["identify"],
    });
    var got = await post(root() + "activity/session", {code: granted.code});
    var access = got.access_token;
    got.access_token = null;
    hold(got);
    await sdk.commands.authenticate({access_token: access});
    api.sdk = sdk;
    return signedIn();
  }

  async function inBrowser() {
    try {
      hold(await post(root() + "login/session"));
    } catch (error) {
      return null;
    }
    return signedIn();
  }

  function root() {
    /* The site's root relative to this page: the body's data-root when the page says, else
       "../" on a table's page (/t/<link>), "" on the Activity's entry (/). */
    if (body.dataset.root !== undefined) return body.dataset.root;
    return /\/t\/[^/]+$/.test(location.pathname) ? "../" : "";
  }

  async function earlier(got) {
    state.token = got.token;
    state.user = got.user;
    state.until = got.until;
    api.user = state.user;
    schedule();
    return signedIn();
  }

  var query = new URLSearchParams(location.search);
  var discord = window.DiscordSDK && query.has("frame_id") && query.has("instance_id");
  var held = kept();
  var signing = held ? earlier(held) : discord ? inDiscord() : inBrowser();
  api.ready = signing.catch(function (error) {
    body.dataset.sessionError = error && error.message ? error.message : "failed";
    say("failed");
    return null;
  });
})();
