/* The poker room's console and the dealer's tournament table (poker_room/views.py, table_views.py). Plain JS, no
 * build step, no text of its own: messages come from the page's data-msg-* attributes, which the templates translate.
 * Every form posts without this file; it only
 *
 * - counts the clock down ([data-countdown]) from the instant the level ends (data-ends-at), the server's clock at
 *   the moment the page was drawn (data-server-now) correcting this device's: every screen shows the same second;
 *   a paused clock (no data-ends-at) shows its time left still;
 * - asks the room display's JSON whether the tournament changed (data-version-url, ?v=<version>: 204 while nothing
 *   changed) and then draws the page again, or, while something is being typed or a confirmation is open, says so
 *   with a button to draw it again (data-changed); a level whose time ran out is a change too;
 * - sends a form once: its buttons are disabled once it is sent (the server records a form once anyway).
 */
(function () {
  "use strict";

  var root = document.querySelector("[data-console]");
  var POLL_MS = 2000;
  var TABLET_POLL_MS = 1000;

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function clockText(ms) {
    var seconds = Math.ceil(Math.max(0, ms) / 1000);
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    seconds = seconds % 60;
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds) : minutes + ":" + pad(seconds);
  }

  // --- the countdown ------------------------------------------------------------------------------------------

  // Counters are looked up at every tick: a part of the page drawn again (the pit dashboard's live part) brings new
  // ones, each corrected by the server's clock of the moment it was drawn.
  var ranOut = false;

  function offsetOf(el) {
    if (el.dataset.offset === undefined) {
      var server = Date.parse(el.getAttribute("data-server-now"));
      el.dataset.offset = String(isFinite(server) ? server - Date.now() : 0);
    }
    return parseFloat(el.dataset.offset) || 0;
  }

  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-countdown][data-ends-at]"), function (el) {
      var endsAt = Date.parse(el.getAttribute("data-ends-at"));
      if (!isFinite(endsAt)) return;
      var left = endsAt - (Date.now() + offsetOf(el));
      var text = clockText(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("is-low", left < 60000);
      if (left <= 0 && !ranOut && root) {
        ranOut = true;
        // The next level began at that instant: draw the page again a moment later, from the server.
        setTimeout(function () { changed(); }, 1200);
      }
    });
  }

  if (document.querySelector("[data-countdown]")) {
    tick();
    setInterval(tick, 250);
  }

  // --- drawing the page again when the tournament changed -------------------------------------------------------

  var dirty = false;
  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("form")) dirty = true;
  });

  function busy() {
    if (dirty) return true;
    if (document.querySelector("details[open] form")) return true;
    if (document.getElementById("bust")) return true; // a bust being confirmed on the tablet
    var active = document.activeElement;
    return !!(active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && !active.readOnly);
  }

  // A page on its way out (a form sent, a link followed) never draws itself again: its reload would cut short the
  // page it is going to, and that page shows the change anyway.
  var leaving = false;
  window.addEventListener("beforeunload", function () {
    leaving = true;
  });

  function redraw() {
    if (!leaving) window.location.reload();
  }

  var noticeShown = false;

  function changed() {
    if (!root) return;
    if (!busy()) {
      redraw();
      return;
    }
    var box = root.querySelector("[data-changed]");
    if (!box || noticeShown) return;
    noticeShown = true;
    box.textContent = (root.getAttribute("data-msg-changed") || "") + " ";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "btn";
    button.textContent = root.getAttribute("data-msg-reload") || "↻";
    button.addEventListener("click", redraw);
    box.appendChild(button);
    box.hidden = false;
  }

  var versionUrl = root && root.getAttribute("data-version-url");
  var version = root && root.getAttribute("data-version");
  if (versionUrl && version) {
    var every = root.hasAttribute("data-auto-reload") ? TABLET_POLL_MS : POLL_MS;
    var asking = false;
    setInterval(function () {
      if (asking || document.hidden) return;
      asking = true;
      var request = new XMLHttpRequest();
      request.open("GET", versionUrl + "?v=" + encodeURIComponent(version));
      request.timeout = 4000;
      request.onloadend = function () {
        asking = false;
        if (request.status !== 200) return; // 204: nothing changed; anything else: ask again later
        try {
          var payload = JSON.parse(request.responseText);
          if (String(payload.version) !== String(version)) {
            version = String(payload.version);
            changed();
          }
        } catch (e) {
          /* not the payload: ask again later */
        }
      };
      request.send();
    }, every);
  }

  // --- a form sent once ---------------------------------------------------------------------------------------

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.method.toLowerCase() !== "post") return;
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
    dirty = false;
    setTimeout(function () {
      Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
    }, 0);
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-select-all")) event.target.select();
  });
})();
