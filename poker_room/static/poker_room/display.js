/* The room display (templates/poker_room/display.html, poker_room.display.views). Plain JS, no build step, no text of
 * its own: the labels come translated in the JSON and in the page's data-msg-* attributes.
 *
 * Nothing is counted down from "now minus a start": the server stores the instant the level ends, and this screen
 * shows that instant minus the server's time, which it knows as its own clock plus an offset measured on every
 * answer (the server stamps each one, Tableside-Server-Now; the offset is taken from the quickest of the last few
 * round trips, halfway through it). Every screen in the room therefore shows the same second, and a screen that
 * was asleep or lost its network shows the right time as soon as it runs again.
 *
 * The screen polls every data-poll-ms (400 ms) with the version it shows; the server answers 204 with no body while
 * nothing changed, the whole payload when something did (a pause, a skip, a bust...), so a change reaches every
 * screen within a second. When a level's time runs out the screen moves to the next level by itself, from the
 * instant, and asks the server for the new figures. Unreachable, it keeps counting and shows a small
 * "reconnecting" mark until an answer comes back.
 */
(function () {
  "use strict";

  var root = document.getElementById("display");
  if (!root) return;

  var POLL_MS = parseInt(root.dataset.pollMs, 10) || 400;
  var TIMEOUT_MS = 4000; // an answer slower than this is given up: the next poll asks again
  var OFFLINE_AFTER_MS = 2000; // no answer for this long: the reconnecting mark
  var SAMPLES = 12; // round trips kept for the clock offset (about five seconds)

  var fields = {};
  Array.prototype.forEach.call(root.querySelectorAll("[data-field]"), function (el) {
    fields[el.getAttribute("data-field")] = el;
  });

  // --- time: this screen's monotonic clock, and the server's ---------------------------------------------------

  function localNow() {
    if (window.performance && performance.timeOrigin) return performance.timeOrigin + performance.now();
    return Date.now();
  }

  var samples = [];
  var offset = 0; // server time minus this screen's time, in ms

  function sample(header, sent, received) {
    var server = parseInt(header, 10);
    if (!isFinite(server)) return;
    samples.push({ offset: server - (sent + received) / 2, rtt: received - sent });
    if (samples.length > SAMPLES) samples.shift();
    var best = samples[0];
    for (var i = 1; i < samples.length; i++) if (samples[i].rtt < best.rtt) best = samples[i];
    offset = best.offset;
  }

  function serverNow() {
    return localNow() + offset;
  }

  // --- what is shown ----------------------------------------------------------------------------------------------

  var shown = null; // the last payload
  var version = null;
  var level = null; // the level shown: the payload's, or the one rolled into when its time ran out
  var following = null;
  var nextLevel = null;
  var endsAt = null; // server ms the level shown ends (a running timed level)
  var breakAt = null; // server ms the next break begins (running)
  var hands = null; // hands left in a hands-counted level
  var needFull = false; // the level ran out here: ask for the whole payload, not whether the version moved
  var lastAnswer = localNow();

  function apply(payload) {
    shown = payload;
    version = payload.version;
    var base = Date.parse(payload.server_now);
    level = payload.level;
    following = payload.following;
    nextLevel = payload.next_level;
    endsAt = payload.clock_status === "running" && payload.ends_at ? Date.parse(payload.ends_at) : null;
    breakAt = payload.clock_status === "running" && payload.next_break_ms !== null ? base + payload.next_break_ms : null;
    hands = payload.hands_left;
    root.dataset.status = payload.status === "finished" ? "finished" : payload.clock_status;
  }

  // The level's time ran out: the next row begins at that instant, with its full length (poker_room.pure.clock).
  function roll() {
    if (endsAt === null || !following || shown.overtime) return false;
    if (serverNow() < endsAt) return false;
    level = following;
    following = null;
    if (!level.is_break && nextLevel && nextLevel.row === level.row) nextLevel = null;
    if (level.length_ms !== null) {
      endsAt += level.length_ms;
    } else {
      endsAt = null;
      hands = level.hands;
    }
    needFull = true;
    return true;
  }

  // --- drawing -------------------------------------------------------------------------------------------------

  function setText(name, text) {
    var el = fields[name];
    if (el && el.textContent !== text) el.textContent = text;
  }

  function show(name, visible) {
    var el = fields[name];
    if (el && el.hidden === visible) el.hidden = !visible;
  }

  function mark(name, on) {
    if (on) root.setAttribute(name, "");
    else root.removeAttribute(name);
  }

  var grouped = window.tablesideNumbers.grouped;

  function money(cents) {
    return window.tablesideNumbers.amount(cents, true);
  }

  function duration(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    var ss = ("0" + s).slice(-2);
    return h ? h + ":" + ("0" + m).slice(-2) + ":" + ss : m + ":" + ss;
  }

  function message(key, values) {
    var text = root.dataset[key] || "";
    Object.keys(values || {}).forEach(function (name) {
      text = text.replace("%(" + name + ")s", values[name]);
    });
    return text;
  }

  function blinds(lv) {
    return lv && !lv.is_break ? grouped(lv.small_blind) + " / " + grouped(lv.big_blind) : "";
  }

  function ante(lv) {
    return lv && lv.ante ? lv.ante_label + " " + grouped(lv.ante) : "";
  }

  function draw() {
    if (!shown) return;
    var now = serverNow();
    var remaining = endsAt !== null ? Math.max(0, endsAt - now) : shown.remaining_ms;
    var running = shown.clock_status === "running" && shown.status !== "finished";

    setText("name", shown.name);
    setText("clock_label", shown.status === "finished" ? message("msgFinished") : shown.clock_label);
    setText("level_label", level ? level.label : "");
    setText("game_name", level ? level.game_name : "");
    if (level && level.hands !== null) {
      setText("clock", hands === 1 ? message("msgHand") : message("msgHands", { hands: hands === null ? "" : hands }));
    } else {
      setText("clock", remaining === null ? "" : duration(remaining));
    }
    var done = level && level.length_ms && remaining !== null ? 1 - remaining / level.length_ms : 0;
    if (level && level.hands && hands !== null) done = 1 - hands / level.hands;
    fields.progress.style.width = Math.min(100, Math.max(0, done * 100)).toFixed(2) + "%";
    setText("blinds", blinds(level));
    setText("ante", ante(level));
    var colour = level && level.is_break && level.colour_up;
    show("colour_up", !!colour);
    setText("colour_up", colour ? message("msgColourUp", { chip: grouped(level.colour_up) }) : "");

    setText("players_left", grouped(shown.players_left));
    setText("entries", grouped(shown.entries));
    setText("average_stack", shown.average_stack === null ? "—" : grouped(shown.average_stack));
    setText("prize_pool", money(shown.prize_pool_cents));
    show("guarantee", shown.guarantee_cents > 0 && shown.prize_pool_cents <= shown.guarantee_cents);
    if (level && level.is_break) setText("next_break", message("msgBreakNow"));
    else if (breakAt !== null) setText("next_break", duration(breakAt - now));
    else if (shown.next_break_ms !== null) setText("next_break", duration(shown.next_break_ms));
    else setText("next_break", message("msgNoBreak"));

    setText("next_blinds", blinds(nextLevel));
    setText("next_ante", ante(nextLevel));
    setText("next_game", nextLevel && shown.mixed ? nextLevel.game_name : "");
    // The rule of the game played now, under the level; under "Next level", the next game's when it changes.
    setText("rule_now", level ? level.rule_line : "");
    var nextGameDiffers = nextLevel && shown.mixed && (!level || nextLevel.game_name !== level.game_name);
    setText("rule_line", nextGameDiffers ? nextLevel.rule_line : "");

    // A heads-up or Open-Face points event: its matches or its round and leaders instead of the clock.
    var lines = shown.lines || [];
    mark("data-no-clock", shown.format && shown.format !== "chips");
    show("lines", lines.length > 0);
    var list = fields.lines;
    if (list && list.dataset.drawn !== JSON.stringify(lines)) {
      while (list.firstChild) list.removeChild(list.firstChild);
      lines.forEach(function (text) {
        var item = document.createElement("li");
        item.textContent = text;
        list.appendChild(item);
      });
      list.dataset.drawn = JSON.stringify(lines);
    }

    mark("data-break", !!(level && level.is_break));
    mark("data-last-minute", running && endsAt !== null && remaining < 60000 && !(level && level.is_break));
    show("reconnecting", localNow() - lastAnswer > OFFLINE_AFTER_MS);
  }

  function tick() {
    if (shown && shown.clock_status === "running" && shown.status !== "finished") {
      while (roll()) {
        /* a screen woken after several levels rolls through them all */
      }
    }
    draw();
  }

  // --- polling -----------------------------------------------------------------------------------------------------

  function poll() {
    var url = root.dataset.json + (needFull || version === null ? "" : "?v=" + encodeURIComponent(version));
    var sent = localNow();
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, TIMEOUT_MS) : null;
    fetch(url, {
      cache: "no-store",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      signal: controller ? controller.signal : undefined,
    })
      .then(function (response) {
        sample(response.headers.get("Tableside-Server-Now"), sent, localNow());
        if (response.status === 204 || response.status === 304) return null;
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (payload) {
        lastAnswer = localNow();
        if (payload) {
          needFull = false;
          apply(payload);
          tick(); // rolls again at once if the server's answer left with the level that just ended
        }
      })
      .catch(function () {
        /* unreachable or refused: keep counting from the instant; the mark shows after OFFLINE_AFTER_MS */
      })
      .then(function () {
        if (timer) clearTimeout(timer);
        setTimeout(poll, POLL_MS);
      });
  }

  var embedded = document.getElementById("display-payload");
  if (embedded) {
    var first = JSON.parse(embedded.textContent);
    offset = Date.parse(first.server_now) - localNow(); // rough until the first answer measures it
    apply(first);
  }
  tick();
  setInterval(tick, 100);
  poll();
})();
