// The spectator page: the table's public view, live.
"use strict";
function showTable(data) {
  const game = data.game;
  document.getElementById("title").textContent = game ? game.title + " #" + game.id : "Tabletop Companion";
  document.getElementById("status").textContent = game ? game.status : "No game is open";
  document.getElementById("dice").textContent = game && game.dice ? game.dice : "";
  const players = document.getElementById("players");
  clear(players);
  for (const p of data.players) {
    const card = el("div", null, "player" + (p.turn ? " turn" : ""));
    card.style.setProperty("--seat", p.colour);
    card.appendChild(el("div", p.name + (p.turn ? "  \u25B6" : ""), "name"));
    card.appendChild(el("div", p.balance !== null ? money(p.balance) : p.headline, "headline"));
    for (const line of p.lines) card.appendChild(el("div", line, "detail"));
    if (p.badges.length) card.appendChild(el("div", p.badges.join(" \u00B7 "), "badges"));
    players.appendChild(card);
  }
  const notes = document.getElementById("notes");
  clear(notes);
  const all = game ? game.notes : [];
  for (const note of all) notes.appendChild(el("li", note));
  document.getElementById("notes-box").hidden = all.length === 0;
}
fetch("/api/table").then(function (r) { return r.json(); }).then(showTable).catch(function () {});
live("/ws/table", showTable);
