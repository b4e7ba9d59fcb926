// Amounts as the pages write them (casino.numbers): the language's decimal mark, which the page's <html
// data-decimal> names, and thousands grouped by a thin space: 200000 cents → "2 000.00" or "2 000,00".
(function () {
  "use strict";
  function mark() {
    return document.documentElement.getAttribute("data-decimal") || ".";
  }
  function grouped(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");
  }
  window.tablesideNumbers = {
    grouped: grouped,
    // Integer cents as units and cents; ``wholeIfRound``: 150000 → "1 500" (the room display's prize pool).
    amount: function (cents, wholeIfRound) {
      var abs = Math.abs(cents), rest = abs % 100;
      var text = grouped(Math.floor(abs / 100));
      if (!(wholeIfRound && rest === 0)) text += mark() + ("0" + rest).slice(-2);
      return (cents < 0 ? "-" : "") + text;
    },
  };
})();
