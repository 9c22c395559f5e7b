// The log viewer: step through each module's replay one click at a time, and print.
// Without this script every row is shown at once, which is also the printed report.
"use strict";
(function () {
  function stepper(module) {
    var bar = module.querySelector(".stepper");
    var rows = Array.prototype.slice.call(module.querySelectorAll("tr.step"));
    if (!bar || rows.length === 0) { return; }
    var at = -1;
    var label = bar.querySelector(".step-at");
    function show(index) {
      at = index;
      rows.forEach(function (row, i) {
        row.hidden = at >= 0 && i > at;
        row.classList.toggle("current", i === at);
      });
      label.textContent = at < 0 ? "All " + rows.length + " steps shown"
        : "Step " + (at + 1) + " of " + rows.length;
      bar.querySelector(".step-prev").disabled = at === 0;
      bar.querySelector(".step-next").disabled = at === rows.length - 1;
      if (at >= 0) { rows[at].scrollIntoView({ block: "nearest" }); }
    }
    bar.hidden = false;
    bar.querySelector(".step-prev").addEventListener("click", function () {
      show(at <= 0 ? 0 : at - 1);
    });
    bar.querySelector(".step-next").addEventListener("click", function () {
      show(Math.min(at + 1, rows.length - 1));
    });
    bar.querySelector(".step-all").addEventListener("click", function () { show(-1); });
    module.stepKey = function (key) {
      if (key === "ArrowRight") { bar.querySelector(".step-next").click(); }
      if (key === "ArrowLeft") { bar.querySelector(".step-prev").click(); }
    };
    show(-1);
  }
  var modules = Array.prototype.slice.call(document.querySelectorAll(".log-module"));
  modules.forEach(stepper);
  // The arrow keys step the module that holds the focus, else the first one on screen.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") { return; }
    if (event.target.closest && event.target.closest("input, textarea, select")) { return; }
    var focused = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest(".log-module") : null;
    var module = focused || modules.find(function (m) {
      var box = m.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight && m.stepKey;
    });
    if (module && module.stepKey) { event.preventDefault(); module.stepKey(event.key); }
  });
  var print = document.querySelector("button.print");
  if (print) {
    print.hidden = false;
    print.addEventListener("click", function () {
      document.querySelectorAll("tr.step").forEach(function (row) { row.hidden = false; });
      window.print();
    });
  }
})();
