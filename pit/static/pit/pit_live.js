// The pit dashboard's live region asks every 5 seconds what changed (templates/pit/_live_poll.html), except while a
// supervisor types in it: the swap would wipe what they typed. Here and not in an hx-trigger filter ("every 5s
// [...]"): htmx runs a filter as a string of JavaScript, which the Content-Security-Policy refuses (no 'unsafe-eval').
document.addEventListener("htmx:beforeRequest", (event) => {
  const live = document.getElementById("pit-live");
  if (event.detail.elt.id === "pit-poll" && live && live.querySelector("input:focus, textarea:focus, select:focus")) {
    event.preventDefault();
  }
});

// An answer that is not the dashboard (a refusal Django drew, a CSRF or sign-in failure, a server error) is never
// drawn over it: the line above the live region says what happened, and a note typed in stays. Capturing, before
// django-htmx's DEBUG helper hears it (it replaces the whole document with any 400, 403, 404 or 500 answer).
const problem = () => document.getElementById("pit-problem");

function say(key, status) {
  const box = problem();
  box.textContent = (box.dataset[key] || "").replace("%(status)s", String(status || ""));
  box.hidden = false;
}

window.addEventListener("htmx:beforeOnLoad", (event) => {
  if (problem() && event.detail.xhr.status >= 400) event.stopPropagation();
}, true);

document.addEventListener("htmx:beforeSwap", (event) => {
  if (!problem()) return;
  const status = event.detail.xhr.status;
  const url = event.detail.xhr.responseURL;
  const signedOut = url && new URL(url).pathname.startsWith("/accounts/login/");
  if (status >= 400 || signedOut) {
    event.detail.shouldSwap = false;
    say(status === 403 || signedOut ? "msgSignedOut" : status >= 500 ? "msgFailed" : "msgRefused", status);
  } else {
    problem().hidden = true;
  }
});

document.addEventListener("htmx:sendError", () => {
  if (problem()) say("msgOffline");
});
