// The pit dashboard's live region refreshes every 5 seconds (templates/pit/pit_live.html), except while a supervisor
// types in it: the swap would wipe what they typed. Here and not in an hx-trigger filter ("every 5s [...]"): htmx
// runs a filter as a string of JavaScript, which the Content-Security-Policy refuses (no 'unsafe-eval').
document.addEventListener("htmx:beforeRequest", (event) => {
  const live = event.detail.elt;
  if (live.id === "pit-live" && live.querySelector("input:focus, textarea:focus, select:focus")) {
    event.preventDefault();
  }
});
