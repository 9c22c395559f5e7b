// The drill page: one-key answers, the answer clock and the bomb timer shown as they run.
// Without this script every answer is still a button or a typed line, and the page works.
"use strict";
(function () {
  var typed = document.querySelector('input[name="line"]');
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var inField = event.target.closest && event.target.closest("input[type=text], input:not([type]), textarea");
    if (inField && event.key !== "Escape") { return; }
    if (event.key === "?") {
      var help = document.querySelector('button[name="go"][value="help"]');
      if (help) { event.preventDefault(); help.click(); }
      return;
    }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var target = document.querySelector('[data-key="' + CSS.escape(key) + '"]');
    if (!target) {
      if (typed && event.key.length === 1 && !inField) { typed.focus(); }
      return;
    }
    event.preventDefault();
    target.click();
  });
  var clock = document.getElementById("clock");
  var shown = performance.now();
  if (clock) {
    var value = clock.querySelector(".clock-value");
    var start = parseFloat(clock.dataset.elapsed || "0");
    var target = parseFloat(clock.dataset.target || "NaN");
    setInterval(function () {
      var seconds = start + (performance.now() - shown) / 1000;
      value.textContent = seconds.toFixed(1) + " s";
      clock.classList.toggle("over", !isNaN(target) && seconds > target);
    }, 100);
  }
  var bomb = document.getElementById("bomb");
  if (bomb && bomb.dataset.runsOutIn) {
    var left = bomb.querySelector(".bomb-left");
    var runsOut = parseFloat(bomb.dataset.runsOutIn);
    var timer = setInterval(function () {
      var rest = runsOut - (performance.now() - shown) / 1000;
      if (rest <= 0) {
        clearInterval(timer);
        window.location.reload();  // the server ends the game: the timer ran out
        return;
      }
      var whole = Math.ceil(rest);
      left.textContent = Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
    }, 200);
  }
})();
