// The count room: each box's running total (the notes by their value, the markers, the promotional chips) as the
// counter types, so a slip shows before the count is recorded. The server counts again; this only shows.
(function () {
  "use strict";
  function cents(text) {
    var match = /^\s*(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(text || "");
    if (!match) return null;
    return parseInt(match[1], 10) * 100 + parseInt((match[2] || "0").padEnd(2, "0"), 10);
  }
  function total(form) {
    var sum = 0, readable = true;
    form.querySelectorAll("input[name^='note_']").forEach(function (input) {
      var text = input.value.trim();
      if (!text) return;
      if (!/^\d+$/.test(text)) { readable = false; return; }
      sum += parseInt(text, 10) * parseInt(input.name.slice(5), 10);
    });
    ["markers", "promo"].forEach(function (name) {
      var input = form.querySelector("input[name='" + name + "']");
      if (!input || !input.value.trim()) return;
      var amount = cents(input.value);
      if (amount === null) readable = false; else sum += amount;
    });
    return readable ? sum : null;
  }
  function show(form) {
    var out = form.querySelector(".count-total");
    if (!out) return;
    var sum = total(form);
    out.textContent = sum === null ? out.dataset.unreadable : window.tablesideNumbers.amount(sum);
  }
  document.querySelectorAll("form.count-form").forEach(function (form) {
    form.addEventListener("input", function () { show(form); });
    show(form);
  });
})();
