/* The table's money on the tablet (dealer/money_views.py): tap to count on the chip tray, the live totals, and each
 * form sent once. Plain JS, no build step; every form posts without it, and the server checks everything again.
 * Messages shown here come from data-msg-* attributes the templates translate; this file holds no text of its own.
 */
(function () {
  "use strict";

  // The chips drawn in a column's stack at most (the number typed says how many there are).
  var MOST_EDGES = 16;

  function all(selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  }

  var units = window.tablesideNumbers.amount;

  // A count as typed: empty is none, the digits 0-9 a number, anything else null (the server says what is wrong).
  function count(text) {
    text = (text || "").trim();
    if (text === "") return 0;
    return /^[0-9]{1,9}$/.test(text) ? parseInt(text, 10) : null;
  }

  // --- the chip tray ------------------------------------------------------------------------------

  function stack(col, n) {
    var box = col.querySelector("[data-tray-stack]");
    var want = Math.min(n, MOST_EDGES);
    while (box.children.length > want) box.removeChild(box.lastChild);
    while (box.children.length < want) {
      var edge = document.createElement("i");
      edge.className = "tray-edge";
      box.appendChild(edge);
    }
  }

  function trayUpdate(tray) {
    var form = tray.closest("form");
    var total = 0;
    var bad = false;
    all("[data-tray-col]", tray).forEach(function (col) {
      var n = count(col.querySelector("[data-tray-n]").value);
      col.classList.toggle("bad", n === null);
      if (n === null) {
        bad = true;
        n = 0;
      }
      var cents = n * parseInt(col.dataset.value, 10);
      col.querySelector("[data-tray-sub]").textContent = units(cents);
      total += cents;
      stack(col, n);
    });
    var shown = form && form.querySelector("[data-tray-total]");
    if (shown) shown.textContent = units(total);
    var why = form && form.querySelector("[data-tray-why]");
    if (why) why.textContent = bad ? tray.dataset.msgBad : "";
  }

  function step(button) {
    var col = button.closest("[data-tray-col]");
    var input = col.querySelector("[data-tray-n]");
    var n = count(input.value);
    input.value = String(Math.max(0, (n === null ? 0 : n) + parseInt(button.dataset.trayStep, 10)));
    trayUpdate(col.closest("[data-tray]"));
  }

  // A house colour the style sheet has no class for ("c-other"): drawn from its name, when it is a CSS colour.
  function colour(col) {
    var name = col.dataset.chipColour;
    if (col.classList.contains("c-other") && name && window.CSS && window.CSS.supports("color", name)) {
      col.style.setProperty("--chip", name);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-tray-step]");
    if (button) return step(button);
    var clear = event.target.closest("[data-tray-clear]");
    if (clear) {
      var form = clear.closest("form");
      all("[data-tray-n]", form).forEach(function (input) { input.value = ""; });
      all("[data-tray]", form).forEach(trayUpdate);
    }
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches("[data-tray-n]")) trayUpdate(event.target.closest("[data-tray]"));
  });

  // Enter in a count field does not send the form: the dealer taps which count (or slip) it is.
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.matches("[data-tray-n]")) event.preventDefault();
  });

  // --- every form on these pages is sent once ------------------------------------------------------

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest("[data-money]")) return;
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
    // After the browser has read the form (the tapped button's name and value go with it), not before.
    window.setTimeout(function () {
      all("button[type=submit]", form).forEach(function (button) { button.disabled = true; });
    }, 0);
  });

  // Back to a page kept in memory: its forms may be sent again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    all("[data-money] form").forEach(function (form) {
      delete form.dataset.sent;
      all("button[type=submit]", form).forEach(function (button) { button.disabled = false; });
    });
  });

  function init() {
    all("[data-tray]").forEach(function (tray) {
      tray.classList.add("tray-live");
      all("[data-tray-col]", tray).forEach(colour);
      trayUpdate(tray);
    });
    all("[data-tray-clear]").forEach(function (button) { button.hidden = false; });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
