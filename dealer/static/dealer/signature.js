// The player's signature on a marker: drawn with a finger or a pen on the pad, sent as a PNG (a data URL) in the
// form's hidden "signature" field. Without this script the pad stays hidden and the player types their name.
(function () {
  "use strict";
  function pad(root) {
    var canvas = root.querySelector("[data-signature-pad]");
    var value = root.querySelector("[data-signature-value]");
    var clear = root.querySelector("[data-signature-clear]");
    if (!canvas || !value || !canvas.getContext) { return; }
    canvas.hidden = false;
    if (clear) { clear.hidden = false; }
    var ctx = canvas.getContext("2d");
    var drawing = false;
    var drawn = false;
    ctx.lineWidth = 3;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#10213f";
    function at(event) {
      var box = canvas.getBoundingClientRect();
      return {
        x: (event.clientX - box.left) * (canvas.width / box.width),
        y: (event.clientY - box.top) * (canvas.height / box.height)
      };
    }
    canvas.addEventListener("pointerdown", function (event) {
      drawing = true;
      canvas.setPointerCapture(event.pointerId);
      var p = at(event);
      ctx.beginPath();
      ctx.moveTo(p.x, p.y);
      ctx.lineTo(p.x + 0.1, p.y + 0.1);
      ctx.stroke();
      drawn = true;
      event.preventDefault();
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!drawing) { return; }
      var p = at(event);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      event.preventDefault();
    });
    function stop() {
      if (!drawing) { return; }
      drawing = false;
      value.value = drawn ? canvas.toDataURL("image/png") : "";
    }
    canvas.addEventListener("pointerup", stop);
    canvas.addEventListener("pointercancel", stop);
    canvas.addEventListener("pointerleave", stop);
    if (clear) {
      clear.addEventListener("click", function () {
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        drawn = false;
        value.value = "";
      });
    }
    var form = root.closest("form");
    if (form) {
      form.addEventListener("submit", function () {
        value.value = drawn ? canvas.toDataURL("image/png") : "";
      });
    }
  }
  document.querySelectorAll("[data-signature]").forEach(pad);
})();
