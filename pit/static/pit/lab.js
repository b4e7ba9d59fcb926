/* The game-math lab: the rule-set picker shows the picked rule set at once, and a run's page polls its
   progress (a small JSON answer) until the run is done, then loads again to show the figures and the chart, unless
   the pit boss is already leaving it. */
(function () {
  "use strict";

  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () {
      if (select.value) select.form.submit();
    });
  });

  function paint(fill, percent) {
    fill.style.width = Math.max(0, Math.min(100, percent)) + "%";
  }

  document.querySelectorAll("[data-lab-fill]").forEach(function (fill) {
    paint(fill, parseFloat(fill.dataset.percent || "0"));
  });

  var section = document.querySelector("[data-lab-progress]");
  if (!section) return;
  var status = section.dataset.status;
  if (status === "finished" || status === "failed") return;

  // A page on its way out (the way back to the lab followed, another address typed) is not loaded again when the
  // run ends: its reload would cut short the page the pit boss is going to. Back to this page, it may be again.
  var leaving = false;
  window.addEventListener("beforeunload", function () {
    leaving = true;
  });
  window.addEventListener("pageshow", function () {
    leaving = false;
  });

  var url = section.dataset.labProgress;
  var fill = section.querySelector("[data-lab-fill]");
  var bar = section.querySelector("[role=progressbar]");
  var count = section.querySelector("[data-lab-count]");
  var percent = section.querySelector("[data-lab-percent]");
  var badge = section.querySelector("[data-lab-status]");

  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (data) {
        paint(fill, data.percent);
        bar.setAttribute("aria-valuenow", String(data.percent));
        var grouped = window.tablesideNumbers.grouped;
        count.textContent = grouped(data.hands_done) + " / " + grouped(data.hands_requested);
        percent.textContent = String(data.percent);
        badge.textContent = data.status_label;
        badge.className = "badge " + data.status;
        section.dataset.status = data.status;
        if (data.done) {
          window.setTimeout(function () {
            if (!leaving) window.location.reload();
          }, 300);
        } else {
          window.setTimeout(poll, 500);
        }
      })
      .catch(function () {
        window.setTimeout(poll, 2000);
      });
  }
  poll();
})();
