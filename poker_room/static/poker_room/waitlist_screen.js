// The card room's room display (templates/poker_room/waitlist_screen.html): drawn again every data-refresh seconds,
// by its address (never a form sent again), unless a guest is typing their name at the kiosk.
(function () {
  "use strict";
  var main = document.querySelector("main[data-refresh]");
  if (!main) return;
  var seconds = parseInt(main.getAttribute("data-refresh"), 10);
  if (!(seconds > 0)) return;
  window.setInterval(function () {
    var field = document.getElementById("kiosk-name");
    if (field && (field.value || document.activeElement === field)) return;
    window.location.replace(window.location.pathname);
  }, seconds * 1000);
})();
