// mittens serve: progressive enhancement of the server-rendered pages. Without this file
// every form and link still works (the state lives in the address); with it, reports
// swap the page in place, keys are faster, the edgework is checked as it is typed.
"use strict";

(function () {
  const main = () => document.getElementById("main");

  // Reports go one after another: a report typed while the previous one is loading
  // waits for it, and is then sent with the board's new state (never the old one).
  let chain = Promise.resolve();
  function enqueue(task) { chain = chain.then(task).catch(() => {}); }
  // What the address holds: always taken from the page as it is when a report is sent.
  const STATE = new Set(["serial", "batteries", "edgework", "m", "tp", "u", "p", "rm", "rl"]);

  async function go(url, push) {
    const response = await fetch(url, { headers: { "Accept": "text/html" } });
    if (!response.ok) { window.location.href = url; return; }
    const html = await response.text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("main");
    if (!fresh) { window.location.href = url; return; }
    const focused = document.activeElement;
    const holder = focused && focused.closest ? focused.closest("[data-index]") : null;
    const pending = focused && focused.classList && focused.classList.contains("line-input")
      ? focused.value : null;
    main().replaceWith(fresh);
    document.title = doc.title;
    if (push) { history.pushState(null, "", response.url); } else { history.replaceState(null, "", response.url); }
    wire();
    if (holder) {
      const box = document.querySelector(`[data-index="${holder.dataset.index}"] .line-input`);
      if (box) {
        if (pending) { box.value = pending; }  // keys typed while the page was loading
        box.focus();
      }
    }
  }

  function submitUrl(form, captured) {
    // A report keeps the board's state as the page now shows it; any other form (the
    // edgework) is sent as it was filled in.
    const report = form.classList.contains("report");
    const data = report ? new FormData(form) : new FormData();
    for (const [key, value] of captured) {
      if (!report) { data.append(key, value); } else if (!STATE.has(key)) { data.set(key, value); }
    }
    const params = new URLSearchParams();
    for (const [key, value] of data.entries()) { params.append(key, String(value)); }
    return form.getAttribute("action") + "?" + params.toString();
  }

  function currentForm(form) {
    if (document.body.contains(form)) { return form; }
    if (form.dataset.module !== undefined) {
      return document.querySelector(`form.report[data-module="${form.dataset.module}"]`);
    }
    return form.id ? document.getElementById(form.id) : null;
  }

  let edgeTimer = null;
  function checkEdgework(form) {
    clearTimeout(edgeTimer);
    edgeTimer = setTimeout(async () => {
      const params = new URLSearchParams();
      for (const name of ["serial", "batteries", "edgework"]) {
        const input = form.querySelector(`[name="${name}"]`);
        if (input && input.value) { params.set(name, input.value); }
      }
      const response = await fetch("/api/edgework?" + params.toString());
      if (!response.ok) { return; }
      const edge = await response.json();
      const out = document.getElementById("edge-readout");
      if (!out) { return; }
      const parts = [];
      if (edge.serial) {
        parts.push(`Serial ${edge.serial}: Table ${edge.table} (${edge.why_table}), Table E column ${edge.last_digit}, the Exploding Mitten is ${edge.mitten_face}.`);
      }
      if (edge.batteries !== null) { parts.push(`${edge.batteries} batteries: N = ${edge.interval}.`); }
      for (const [field, error] of Object.entries(edge.errors)) { parts.push(`${field}: ${error}`); }
      out.textContent = parts.join(" ") || "Give the serial number and the batteries (or paste the edgework).";
      for (const name of ["serial", "batteries", "edgework"]) {
        const input = form.querySelector(`[name="${name}"]`);
        if (input) { input.setAttribute("aria-invalid", edge.errors[name] ? "true" : "false"); }
      }
    }, 120);
  }

  function wire() {
    // Forms marked data-native (the log viewer's uploads) are sent by the browser itself.
    for (const form of document.querySelectorAll("form:not([data-native])")) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const captured = [...new FormData(form).entries()].map(([k, v]) => [k, String(v)]);
        const submitter = event.submitter;
        if (submitter && submitter.name) { captured.push([submitter.name, submitter.value]); }
        const box = form.querySelector(".line-input");
        if (box) { box.value = ""; }
        enqueue(async () => {
          const target = currentForm(form);
          if (target) { await go(submitUrl(target, captured), true); }
        });
      });
    }
    const edge = document.getElementById("edgework-form");
    if (edge) {
      for (const input of edge.querySelectorAll("input[name]")) {
        input.addEventListener("input", () => checkEdgework(edge));
      }
    }
    for (const link of document.querySelectorAll("a[data-nav]")) {
      link.addEventListener("click", (event) => { event.preventDefault(); go(link.href, true); });
    }
    for (const button of document.querySelectorAll("button.copy")) {
      button.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(button.dataset.copy); button.textContent = "Copied"; }
        catch (e) { const src = button.parentElement.querySelector(".copy-source"); if (src) { src.select(); } }
      });
    }
  }

  // The theme: the system's by default, or light or dark as chosen (kept in the browser).
  const THEMES = ["system", "light", "dark"];
  function applyTheme(theme) {
    if (theme === "system") { delete document.documentElement.dataset.theme; }
    else { document.documentElement.dataset.theme = theme; }
    const button = document.getElementById("theme");
    if (button) { button.textContent = "Theme: " + theme; button.hidden = false; }
  }
  function wireTheme() {
    const button = document.getElementById("theme");
    applyTheme(localStorage.getItem("mittens-theme") || "system");
    if (!button) { return; }
    button.addEventListener("click", () => {
      const now = localStorage.getItem("mittens-theme") || "system";
      const next = THEMES[(THEMES.indexOf(now) + 1) % THEMES.length];
      localStorage.setItem("mittens-theme", next);
      applyTheme(next);
    });
  }
  document.addEventListener("DOMContentLoaded", wireTheme);

  // One-key reports while no text box has the focus: 1-3 played a slot, s solved,
  // u undo, r redo, d / w the Drew / Discarded faces (then a face's code in the line box).
  // They act on the module that last had the focus (the first one at first).
  let current = "0";
  const KEYS = { "1": "played 1", "2": "played 2", "3": "played 3", "s": "solved",
                 "u": "undo", "r": "redo" };
  document.addEventListener("focusin", (event) => {
    const holder = event.target.closest ? event.target.closest("[data-index]") : null;
    if (holder) { current = holder.dataset.index; }
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
    if (typing || event.ctrlKey || event.metaKey || event.altKey) { return; }
    const form = document.querySelector(`form.report[data-module="${current}"]`) || document.querySelector("form.report");
    const box = form ? form.querySelector(".line-input") : document.querySelector(".line-input");
    if (event.key === "/") {
      if (box) { event.preventDefault(); box.focus(); }
    } else if (form && KEYS[event.key.toLowerCase()]) {
      event.preventDefault();
      box.value = KEYS[event.key.toLowerCase()];
      form.requestSubmit(form.querySelector('button[name="go"]'));
    } else if (box && (event.key === "d" || event.key === "w")) {
      event.preventDefault();
      box.value = event.key === "d" ? "discarded " : "drew ";
      box.focus();
    }
  });
  window.addEventListener("popstate", () => { go(window.location.href, false); });
  document.addEventListener("DOMContentLoaded", wire);
})();
