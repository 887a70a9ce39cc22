// Shared by the pages: a WebSocket that reconnects, and small DOM helpers (text only: no HTML from data).
"use strict";
function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
function live(path, onData, onGone) {
  const badge = document.getElementById("live");
  let wait = 500, socket = null, gone = false;
  function open() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + path);
    socket.onopen = function () { wait = 500; badge.textContent = "live"; badge.className = "live on"; };
    socket.onmessage = function (event) { onData(JSON.parse(event.data)); };
    socket.onclose = function (event) {
      badge.textContent = "reconnecting"; badge.className = "live off";
      if (event.code === 4403) { gone = true; if (onGone) onGone(); return; }
      if (!gone) { setTimeout(open, wait); wait = Math.min(wait * 2, 10000); }
    };
  }
  open();
  setInterval(function () { if (socket && socket.readyState === 1) socket.send("ping"); }, 25000);
}
function money(n) { return "$" + Number(n).toLocaleString("en-US"); }
