// The console's only script: live activity over SSE, and the typed confirmation's button.
// Everything else is plain forms; the server checks all of it again.
"use strict";

function liveActivity() {
  const badge = document.querySelector("[data-stream]");
  const list = document.getElementById("activity");
  if (!badge || !list || !window.EventSource) return;
  const stream = new EventSource(badge.dataset.stream);
  stream.onopen = () => badge.classList.add("on");
  stream.onerror = () => badge.classList.remove("on");
  stream.onmessage = (message) => {
    const event = JSON.parse(message.data);
    const item = document.createElement("li");
    item.className = "fresh";
    const when = document.createElement("time");
    when.textContent = event.at || event.created_at || "";
    const op = document.createElement("strong");
    op.textContent = event.op;
    const detail = document.createElement("code");
    detail.textContent = JSON.stringify(event.detail);
    item.append(when, " ", op, " " + (event.principal || "") + " ", detail);
    list.querySelector(".empty")?.remove();
    list.prepend(item);
  };
}

function typedConfirmations() {
  for (const input of document.querySelectorAll("input[data-expect]")) {
    const button = input.form.querySelector("button[type=submit]");
    const sync = () => { button.disabled = input.value.trim() !== input.dataset.expect; };
    input.addEventListener("input", sync);
    sync();
  }
}

document.addEventListener("DOMContentLoaded", () => { liveActivity(); typedConfirmations(); });
