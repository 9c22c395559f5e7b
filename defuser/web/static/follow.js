// The hands-free board: the server pushes a snapshot of every module's advice whenever the
// followed log changes (server-sent events); EventSource reconnects by itself after a
// network drop or a server restart, and the next snapshot catches the page up.
"use strict";

(function () {
  const root = document.getElementById("follow");
  if (!root) { return; }
  const list = document.getElementById("follow-modules");
  const notices = document.getElementById("notices");
  const status = document.getElementById("follow-status");
  const speak = document.getElementById("speak");
  const spoken = new Map();

  if (speak) {
    speak.checked = localStorage.getItem("mittens-speak") === "1";
    speak.addEventListener("change", () => localStorage.setItem("mittens-speak", speak.checked ? "1" : "0"));
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function moduleCard(m, latest) {
    const card = el("section", "fmodule" + (m.key === latest ? " latest" : "") + (m.solved ? " solved" : ""));
    const bomb = m.bomb ? `Bomb ${m.bomb.number}${m.bomb.serial ? " (" + m.bomb.serial + ")" : ""}` : "Bomb ?";
    const title = el("h2", "", `${bomb} · module #${m.module}`);
    if (m.key === latest) { title.append(" ", el("span", "marker", "latest")); }
    if (m.bomb && !m.bomb.certain) { title.append(" ", el("span", "marker", "bomb uncertain")); }
    card.append(title);
    const badge = el("p", "badge", m.view.badge.text);
    if (m.view.badge.card) { badge.append(" ", el("span", "badge-card", m.view.badge.card)); }
    card.append(badge, el("p", "why", m.view.why || m.recommendation.reason));
    if (m.view.hand && m.view.hand.length) {
      const hand = el("ol", "slots");
      for (const c of m.view.hand) {
        const li = el("li", "slot " + (c.legal ? "legal" : "illegal"));
        li.append(el("span", "slot-no", String(c.slot)), " ", el("span", "code", c.code), " ",
          el("span", "type", c.type || ""), " ", el("span", "legality", c.legal ? "legal ✓" : "not legal ✗"));
        hand.append(li);
      }
      card.append(hand);
    }
    if (m.view.cycle) { card.append(el("p", "cycle-words", m.view.cycle.words)); }
    if (!m.ok && m.error) { card.append(el("p", "error", m.error)); }
    return card;
  }

  function say(m) {
    if (!speak || !speak.checked || !("speechSynthesis" in window)) { return; }
    const text = `Module ${m.module}: ${m.view.badge.text.toLowerCase()}`;
    if (spoken.get(m.key) === text) { return; }
    spoken.set(m.key, text);
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
  }

  function render(snap) {
    list.replaceChildren();
    if (!snap.modules.length) {
      list.append(el("p", "waiting", "No Exploding Mittens module in the log yet. The board fills in as the game writes."));
    }
    for (const m of snap.modules) { list.append(moduleCard(m, snap.latest)); }
    const latest = snap.modules.find((m) => m.key === snap.latest);
    if (latest) { say(latest); }
    if (notices) {
      notices.replaceChildren();
      for (const n of snap.notices.slice(-5)) { notices.append(el("li", "notice notice-" + n.kind, n.text)); }
    }
  }

  function connect() {
    const source = new EventSource(root.dataset.stream);
    source.addEventListener("snapshot", (event) => {
      if (status) { status.textContent = "following"; }
      render(JSON.parse(event.data));
    });
    source.addEventListener("error", () => { if (status) { status.textContent = "reconnecting…"; } });
  }
  connect();
})();
