/* The dealer tablet: chip pads, dice pads, the card and tile grid. Plain JS, taps only, no build step.
 *
 * Everything the dealer taps ends in ordinary form fields (hidden inputs); htmx posts the forms
 * and the server, which checks everything again, draws the tablet anew. Messages shown here come
 * from data-msg-* attributes the templates translate; this file holds no text of its own.
 */
(function () {
  "use strict";

  function all(selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  }

  var units = window.tablesideNumbers.amount;

  function tabletOf() {
    return document.getElementById("tablet");
  }

  // --- answers that are not the tablet: refusals, sign-in and server failures -----------------------

  // The server's refusals (the Tableside-Refusal header) carry the dealer's message and say where it goes (the
  // banner, or the advice box): they are swapped in, and nothing entered is touched. Any other error answer (a
  // CSRF or sign-in failure, a page Django drew, a server error) is never drawn over the tablet: the banner says
  // what happened, and what was entered stays.
  function isRefusal(xhr) {
    return !!xhr.getResponseHeader("Tableside-Refusal");
  }

  function say(key, status) {
    var banner = document.getElementById("banner");
    if (!banner) return;
    var text = (banner.dataset[key] || "").replace("%(status)s", String(status || ""));
    var box = document.createElement("div");
    box.className = "banner error";
    box.setAttribute("role", "alert");
    box.textContent = text;
    banner.textContent = "";
    banner.appendChild(box);
    showTold(box);
  }

  // A refusal or a notice that needs the dealer is brought into view where it stands, at the top of the tablet (it
  // is in the page, never over it); the next tap in the entry brings the entry back up (keepInView).
  function showTold(box) {
    var r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) box.scrollIntoView({block: "start"});
  }

  function redirected(detail) {
    var url = detail.xhr.responseURL;
    if (!url || !detail.requestConfig) return false;
    return new URL(url, window.location.href).pathname !== new URL(detail.requestConfig.path, window.location.href).pathname;
  }

  // Capturing, before anything else hears it: django-htmx's DEBUG helper replaces the whole document with
  // any 400, 403, 404 or 500 answer, which wiped the tablet and every card tapped in. The tablet decides.
  window.addEventListener("htmx:beforeOnLoad", function (event) {
    if (tabletOf() && event.detail.xhr.status >= 400) event.stopPropagation();
  }, true);

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!tabletOf()) return;
    var detail = event.detail;
    var status = detail.xhr.status;
    if (status >= 400 && isRefusal(detail.xhr)) {
      detail.shouldSwap = true;
      detail.isError = false;
    } else if (status === 503) {
      // The server cannot reach its database: nothing was recorded, the entries stay, and the same request (its
      // form key with it, so it records once) goes again when the server says to.
      detail.shouldSwap = false;
      retryLater(detail);
    } else if (status >= 400) {
      detail.shouldSwap = false;
      say(status === 403 ? "msgSignedOut" : status >= 500 ? "msgFailed" : "msgRefused", status);
    } else if (redirected(detail)) {
      // Signed out: the answer is the sign-in page, not the tablet.
      detail.shouldSwap = false;
      say("msgSignedOut", status);
    }
  });

  var MOST_RETRIES = 12;

  function retryLater(detail) {
    var source = detail.requestConfig && detail.requestConfig.elt;
    var tries = source ? parseInt(source.dataset.retries || "0", 10) + 1 : MOST_RETRIES + 1;
    var seconds = parseInt(detail.xhr.getResponseHeader("Retry-After") || "5", 10) || 5;
    if (tries > MOST_RETRIES) {
      if (source) delete source.dataset.retries;
      say("msgUnavailableStopped", 503);
      return;
    }
    source.dataset.retries = String(tries);
    say("msgUnavailable", seconds);
    var event = detail.requestConfig.triggeringEvent;
    setTimeout(function () {
      if (document.body.contains(source)) htmx.trigger(source, event ? event.type : "submit");
    }, seconds * 1000);
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (source && event.detail.xhr && event.detail.xhr.status !== 503) delete source.dataset.retries;
  });

  document.addEventListener("htmx:sendError", function () {
    if (tabletOf()) say("msgOffline");
  });

  // --- chip pads: the amount, and whether it may be placed ----------------------------------------

  function padUpdate(pad) {
    var form = pad.closest("form");
    var amount = pad.querySelector("[data-amount]");
    var cents = parseInt(amount.value || "0", 10);
    var min = parseInt(pad.dataset.min || "0", 10);
    var max = pad.dataset.max ? parseInt(pad.dataset.max, 10) : null;
    var why = "";
    var hidden = pad.closest("[hidden]");
    if (!hidden) {
      var seat = form && form.hasAttribute("data-needs-seat") ? form.querySelector("[data-seat]") : null;
      if (seat && !seat.value) why = pad.dataset.msgSeat;
      else if (!cents) why = pad.dataset.msgEmpty;
      else if (cents < min) why = pad.dataset.msgMin;
      else if (max !== null && cents > max) why = pad.dataset.msgMax;
    }
    pad.querySelector("[data-display]").textContent = units(cents);
    pad.querySelector("[data-why]").textContent = why;
    pad.classList.toggle("out-of-limits", !!why && cents > 0);
    var submit = form && form.querySelector("[data-chip-submit]");
    if (submit) submit.disabled = !!why;
  }

  function padAdd(pad, cents, replace) {
    var amount = pad.querySelector("[data-amount]");
    var now = replace ? 0 : parseInt(amount.value || "0", 10);
    amount.value = String(now + cents);
    padUpdate(pad);
  }

  // --- dice ---------------------------------------------------------------------------------------

  function diceUpdate(form) {
    var values = all("[data-die-input]", form).map(function (input) {
      return parseInt(input.value || "0", 10);
    });
    var ready = values.every(function (v) { return v >= 1 && v <= 6; });
    var total = values.reduce(function (a, b) { return a + b; }, 0);
    form.querySelector("[data-dice-total]").textContent = ready ? String(total) : "–";
    form.querySelector("[data-dice-submit]").disabled = !ready;
  }

  // --- the hand entry: targets filled from the card or tile grid ----------------------------------

  function items(text) {
    return (text || "").split(/\s+/).filter(Boolean);
  }

  function targetItems(target) {
    return items(target.querySelector("input").value);
  }

  function lockedItems(target) {
    return items(target.dataset.locked);
  }

  function groupOf(target) {
    return target.closest("[data-group]");
  }

  function groupNew(group) {
    return all("[data-target]", group).reduce(function (n, t) { return n + targetItems(t).length; }, 0);
  }

  function hasRoom(target) {
    if (lockedItems(target).length + targetItems(target).length >= parseInt(target.dataset.size, 10)) return false;
    var group = groupOf(target);
    if (group && group.dataset.quota !== undefined) {
      return groupNew(group) < parseInt(group.dataset.quota, 10);
    }
    return true;
  }

  function faceOf(form, code) {
    var pick = form.querySelector('[data-pick="' + code + '"] .face');
    return pick ? pick.cloneNode(true) : document.createTextNode(code);
  }

  function renderTarget(form, target) {
    var slots = target.querySelector("[data-slots]");
    slots.textContent = "";
    lockedItems(target).forEach(function (code) {
      var span = document.createElement("span");
      span.className = "slot locked";
      span.appendChild(faceOf(form, code));
      slots.appendChild(span);
    });
    targetItems(target).forEach(function (code, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "slot placed";
      button.dataset.placed = String(index);
      button.appendChild(faceOf(form, code));
      slots.appendChild(button);
    });
    var size = parseInt(target.dataset.size, 10);
    var filled = lockedItems(target).length + targetItems(target).length;
    for (var i = filled; i < size; i++) {
      var empty = document.createElement("span");
      empty.className = "slot empty";
      slots.appendChild(empty);
    }
    target.classList.toggle("full", filled >= size);
  }

  function used(form) {
    var counts = {};
    all("[data-target]", form).forEach(function (target) {
      lockedItems(target).concat(targetItems(target)).forEach(function (code) {
        counts[code] = (counts[code] || 0) + 1;
      });
    });
    return counts;
  }

  function entryUpdate(form, changed) {
    all("[data-target]", form).forEach(function (target) { renderTarget(form, target); });
    var counts = used(form);
    all("[data-pick]", form).forEach(function (pick) {
      var copies = parseInt(pick.dataset.copies || "1", 10);
      var left = copies - (counts[pick.dataset.pick] || 0);
      pick.disabled = left <= 0;
      var label = pick.querySelector("[data-left]");
      if (label) label.textContent = "×" + Math.max(left, 0);
    });
    all("[data-quota]", form).forEach(function (group) {
      group.classList.toggle("street-done", groupNew(group) >= parseInt(group.dataset.quota, 10));
    });
    var need = 0;
    var have = 0;
    all("[data-target]", form).forEach(function (target) {
      need += parseInt(target.dataset.size, 10);
      have += lockedItems(target).length + targetItems(target).length;
    });
    var count = form.querySelector("[data-count]");
    if (count) count.textContent = have + " / " + need;
    entryMissing(form);
    if (changed) form.dispatchEvent(new CustomEvent("hands-changed", { bubbles: true }));
  }

  function needText(el, left) {
    return left === 1 ? el.dataset.needOne : (el.dataset.needMany || "").replace("{n}", String(left));
  }

  // The submit waits until every hand is complete (every row full; Open-Face: every seat's street placed),
  // saying what is missing. The server checks everything again.
  function entryMissing(form) {
    var missing = [];
    var groups = all("[data-quota]", form);
    if (groups.length) {
      groups.forEach(function (group) {
        var left = parseInt(group.dataset.quota, 10) - groupNew(group);
        if (left > 0) missing.push(needText(group, left));
      });
    } else {
      all("[data-target]", form).forEach(function (target) {
        var left = parseInt(target.dataset.size, 10) - lockedItems(target).length - targetItems(target).length;
        if (left > 0) missing.push(needText(target, left));
      });
    }
    var submit = form.querySelector("[data-entry-submit]");
    if (submit) submit.disabled = missing.length > 0;
    var list = form.querySelector("[data-missing]");
    if (!list) return;
    list.textContent = "";
    missing.slice(0, 4).forEach(function (text) {
      var item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    });
    if (missing.length > 4) {
      var more = document.createElement("li");
      more.textContent = "\u2026";
      list.appendChild(more);
    }
  }

  function select(form, target, quiet) {
    all("[data-target]", form).forEach(function (t) { t.classList.remove("selected"); });
    if (target) target.classList.add("selected");
    if (!quiet) keepInView(form, target);
  }

  // Entering hands needs no scrolling at 1024x768: the entry (the hands on the left, the grid on the right) is
  // brought to the top of the screen, the hands' column scrolls within itself (tablet.css), and the hand being
  // filled is kept in view there, beside the grid.
  function keepInView(form, target) {
    var grid = form.querySelector(".entry-grid");
    if (!grid) return;
    var top = grid.getBoundingClientRect().top;
    if (top < 0 || top > 8) window.scrollBy(0, top - 4);
    if (target) {
      var column = target.closest(".positions");
      if (column) {
        var box = target.getBoundingClientRect(), frame = column.getBoundingClientRect();
        if (box.top < frame.top) column.scrollTop -= frame.top - box.top + 6;
        else if (box.bottom > frame.bottom) column.scrollTop += box.bottom - frame.bottom + 6;
      }
    }
  }

  function selected(form) {
    return form.querySelector("[data-target].selected");
  }

  function nextOpen(form, after) {
    var targets = all("[data-target]", form);
    var start = after ? targets.indexOf(after) : -1;
    for (var i = 1; i <= targets.length; i++) {
      var candidate = targets[(start + i + targets.length) % targets.length];
      if (hasRoom(candidate)) return candidate;
    }
    return null;
  }

  function place(form, code) {
    var target = selected(form);
    if (!target || !hasRoom(target)) target = nextOpen(form, target);
    if (!target) return;
    var input = target.querySelector("input");
    input.value = targetItems(target).concat([code]).join(" ");
    if (!hasRoom(target)) select(form, nextOpen(form, target));
    else select(form, target);
    entryUpdate(form, true);
  }

  function takeBack(form, target, index) {
    var list = targetItems(target);
    list.splice(index, 1);
    target.querySelector("input").value = list.join(" ");
    select(form, target);
    entryUpdate(form, true);
  }

  function fill(form, values) {
    Object.keys(values).forEach(function (name) {
      var input = form.querySelector('input[name="' + name + '"]');
      if (input) input.value = values[name];
    });
    entryUpdate(form, true);
  }

  // --- taps ---------------------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var el = event.target;
    var form;

    var chip = el.closest("[data-chip]");
    if (chip) return padAdd(chip.closest("[data-chip-pad]"), parseInt(chip.dataset.chip, 10), false);
    var set = el.closest("[data-chip-set]");
    if (set) return padAdd(set.closest("[data-chip-pad]"), parseInt(set.dataset.chipSet, 10), true);
    var clear = el.closest("[data-chip-clear]");
    if (clear) return padAdd(clear.closest("[data-chip-pad]"), 0, true);

    var seat = el.closest("[data-seat-pick]");
    if (seat && !seat.disabled) {
      form = seat.closest("form");
      all("[data-seat-pick]", form).forEach(function (b) { b.setAttribute("aria-pressed", String(b === seat)); });
      form.querySelector("[data-seat]").value = seat.dataset.seatPick;
      return padUpdate(form.querySelector("[data-chip-pad]"));
    }

    var bank = el.closest("[data-bank-pick]");
    if (bank) {
      form = bank.closest("form");
      all("[data-bank-pick]", form).forEach(function (b) { b.setAttribute("aria-pressed", String(b === bank)); });
      form.querySelector("[data-banker]").value = bank.dataset.bankPick;
      var box = form.querySelector("[data-bank-amount]");
      box.hidden = bank.dataset.bankPick === "house";
      return padUpdate(box.querySelector("[data-chip-pad]"));
    }

    var die = el.closest("[data-face]");
    if (die) {
      var pad = die.closest("[data-die-pad]");
      all("[data-face]", pad).forEach(function (b) { b.setAttribute("aria-pressed", String(b === die)); });
      pad.querySelector("[data-die-input]").value = die.dataset.face;
      return diceUpdate(die.closest("form"));
    }

    var reason = el.closest("[data-reason]");
    if (reason) {
      form = reason.closest("form");
      all("[data-reason]", form).forEach(function (b) { b.setAttribute("aria-pressed", String(b === reason)); });
      form.querySelector("[data-reason-input]").value = reason.dataset.reason;
      return;
    }

    var fillButton = el.closest("[data-fill]");
    if (fillButton) return fill(fillButton.closest("form"), JSON.parse(fillButton.dataset.fill));

    var pick = el.closest("[data-pick]");
    if (pick && !pick.disabled) return place(pick.closest("[data-entry]"), pick.dataset.pick);

    var placed = el.closest("[data-placed]");
    if (placed) {
      var holder = placed.closest("[data-target]");
      return takeBack(holder.closest("[data-entry]"), holder, parseInt(placed.dataset.placed, 10));
    }

    var target = el.closest("[data-target]");
    if (target) return select(target.closest("[data-entry]"), target);

    if (el.closest("[data-reload]")) return redraw();
  });

  // --- another device's change: the tablet polls its table's marker and draws itself again ---------

  var POLL_MS = 3000;

  // What the dealer has entered, as the forms hold it (the keys of a form drawn by the server are left out).
  function entered(tablet) {
    return all("input[name], select[name], textarea[name]", tablet)
      .filter(function (input) { return input.name !== "csrfmiddlewaretoken" && input.name !== "idempotency_key"; })
      .map(function (input) { return input.name + "=" + input.value; })
      .join("&");
  }

  function dirty(tablet) {
    return tablet.tableInitial !== undefined && entered(tablet) !== tablet.tableInitial;
  }

  function busy(tablet) {
    return tablet.classList.contains("htmx-request") || !!tablet.querySelector(".htmx-request");
  }

  function redraw() {
    var tablet = tabletOf();
    if (tablet && window.htmx) window.htmx.ajax("GET", tablet.dataset.tabletUrl, { target: "#tablet", swap: "outerHTML" });
  }

  function poll() {
    var tablet = tabletOf();
    if (!tablet || !tablet.dataset.versionUrl || document.hidden || busy(tablet)) return;
    fetch(tablet.dataset.versionUrl, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) {
        // No longer this user's table (a relief took it over, or set-up moved them): their home says where to go.
        if (response.status === 403 && tablet.dataset.homeUrl) window.location.assign(tablet.dataset.homeUrl);
        return response.ok ? response.json() : null;
      })
      .then(function (answer) {
        // Asked before the tablet was drawn again (the dealer's own tap answered meanwhile): not news.
        if (!answer || !answer.version || tabletOf() !== tablet || busy(tablet)) return;
        if (answer.version === tablet.dataset.version) return;
        if (dirty(tablet)) {
          // Never wipe what the dealer entered: say so, and let them choose when.
          var stale = tablet.querySelector("[data-stale]");
          if (stale) stale.hidden = false;
        } else {
          redraw();
        }
      })
      .catch(function () {});
  }

  window.setInterval(poll, POLL_MS);

  // Back and Forward: never show a tablet kept in memory (the server also says no-store).
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && tabletOf()) window.location.reload();
  });

  // --- every piece htmx brings in (and the page itself) -------------------------------------------

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    var pads = all("[data-chip-pad]", scope);
    if (scope.matches && scope.matches("[data-chip-pad]")) pads.push(scope);
    pads.forEach(padUpdate);
    all("[data-dice-form]", scope).forEach(diceUpdate);
    all("[data-entry]", scope).forEach(function (form) {
      entryUpdate(form, false);
      // A refusal or a notice the server just drew stays in view (below): the entry is brought up at the next tap.
      select(form, nextOpen(form, null), Boolean(document.querySelector("#banner .banner.error, #banner .banner.waiting")));
    });
    // A refusal drawn with the tablet, or swapped into the banner alone (what was entered is left as it is): shown
    // where the banner stands.
    var banner = document.getElementById("banner");
    if (banner && (scope === document || scope === banner || banner.contains(scope) || scope.contains(banner))) {
      var told = banner.querySelector(".banner.error, .banner.waiting");
      if (told) showTold(told);
    }
    var tablet = tabletOf();
    if (tablet && (scope === tablet || scope === document || scope === document.body || scope.contains(tablet))) {
      tablet.tableInitial = entered(tablet);
    }
  }

  if (window.htmx) {
    window.htmx.config.historyCacheSize = 0;
    window.htmx.config.refreshOnHistoryMiss = true;
    window.htmx.onLoad(init);
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  }
})();
