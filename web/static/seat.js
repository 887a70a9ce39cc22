// A seat's private panel on a phone: its holdings with their values, its legal actions, its line-up entry.
"use strict";
const token = location.pathname.split("/").pop();
const api = "/api/seat/" + token;
let current = null, placements = [], lineupKey = "";

function say(text, verdict) {
  const node = document.getElementById("message");
  node.textContent = text || "";
  node.className = verdict === true ? "accepted" : verdict === false ? "refused" : "";
}

function send(body) {
  return fetch(api + "/act", {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body), credentials: "omit",
  }).then(function (r) {
    if (r.status === 403) { gone(); return null; }
    return r.json();
  }).then(function (answer) {
    if (!answer) return;
    const refused = answer.accepted === false && !/^refused\b/i.test(answer.message);
    say((refused ? "Refused: " : "") + answer.message, answer.accepted);
  }).catch(function () { say("The table did not answer: is the phone on its network?", false); });
}

function gone() {
  const main = document.getElementById("main");
  clear(main);
  main.appendChild(el("div", "This link is no longer valid (a new game, or the seat was unpaired). " +
    "Long-press your seat's button for a new QR code.", "notice"));
}

function showActions(actions) {
  const box = document.getElementById("actions");
  clear(box);
  for (const a of actions) {
    if (a.kind === "EnterLineUp" || a.kind === "LockLineUp" && !a.ready) continue;  // the line-up form does these
    if (a.kind === "DeclareFighter" && !a.ready && current.forms.declare) continue;  // the Combat form does it
    const button = el("button", a.label);
    button.type = "button";
    button.disabled = !a.enabled || !a.ready;
    button.addEventListener("click", function () { say("Sent: " + a.label); send({action: a.index, label: a.label}); });
    box.appendChild(button);
    if (!a.enabled && a.reason) box.appendChild(el("div", a.reason + (a.rule ? " (" + a.rule + ")" : ""), "why"));
    else if (!a.ready) box.appendChild(el("div", "chosen on the touchscreen", "why"));
  }
}

function tileText(form, id) {
  for (const t of form.programs.concat(form.bonuses)) if (t.id === id) return t.text;
  return id;
}

// A select's options, rebuilt only when they change, keeping the player's choice: a live update (another seat's
// move) must not reset a choice being made, nor pull the options from under a finger.
function choices(select, tiles) {
  const key = tiles.map(function (t) { return t.id + "\u0000" + t.text; }).join("\u0001");
  if (select.dataset.key === key) return;
  const chosen = select.value;
  clear(select);
  for (const t of tiles) { const o = el("option", t.text); o.value = t.id; select.appendChild(o); }
  if (tiles.some(function (t) { return t.id === chosen; })) select.value = chosen;
  select.dataset.key = key;
}

// The chosen program's whole text under its list: a phone's closed select cuts it at the screen's edge (its
// length and Rating Points are at the end).
function showChosen() {
  const select = document.getElementById("add-program");
  const option = select.options[select.selectedIndex];
  document.getElementById("add-program-text").textContent = option ? option.text : "";
}

function showLineup(form) {
  const box = document.getElementById("lineup-box");
  box.hidden = !form;
  if (!form) { placements = []; lineupKey = ""; return; }
  const key = form.programs.map(function (t) { return t.id; }).join(",");
  if (key !== lineupKey) { placements = []; lineupKey = key; }
  document.getElementById("lineup-entered").textContent =
    form.entered.length ? "Entered: " + form.entered.join(" / ") : "Nothing entered yet.";
  document.getElementById("lineup-problem").textContent = form.entered.length ? form.problem : "";
  const used = new Set();
  for (const p of placements) { used.add(p[0]); if (p[1]) used.add(p[1]); }
  const list = document.getElementById("placements");
  clear(list);
  let half = 0;
  placements.forEach(function (p, i) {
    const row = el("div", null, "placement");
    row.appendChild(el("div", tileText(form, p[0])));
    row.appendChild(el("div", p[1] ? "+ " + tileText(form, p[1]) : "no bonus", "detail"));
    const remove = el("button", "\u2715"); remove.type = "button"; remove.setAttribute("aria-label", "Remove");
    remove.addEventListener("click", function () { placements.splice(i, 1); showLineup(current.forms.lineup); });
    row.appendChild(remove);
    list.appendChild(row);
    for (const t of form.programs) if (t.id === p[0]) half += t.length;
  });
  document.getElementById("lineup-total").textContent =
    half + " of " + form.slots + " half-hours from 8:00 placed";
  const none = {id: "", text: "no bonus"};
  choices(document.getElementById("add-program"), form.programs.filter(function (t) { return !used.has(t.id); }));
  showChosen();
  choices(document.getElementById("add-bonus"), [none].concat(form.bonuses.filter(function (t) { return !used.has(t.id); })));
  document.getElementById("promotion-label").textContent = "Promotion (" + money(form.promotion_price) + ", +10 on every program)";
}

function number(id) { return parseInt(document.getElementById(id).value, 10) || 0; }

function describeDeclare() {
  const weapon = number("weapon-bonus"), level = number("weapon-level") || 1;
  const extra = number("extra"), cards = number("extra-cards");
  const armed = weapon > 0 || level > 1 ? "Weapon +" + weapon + " (level " + level + ")" : "Unarmed";
  document.getElementById("declare-summary").textContent = armed + ", cards " + (extra >= 0 ? "+" : "") + extra +
    " from " + cards + " card" + (cards === 1 ? "" : "s") + (document.getElementById("two-dice").checked ? ", two dice" : "");
}

function showDeclare(form) {
  const box = document.getElementById("declare-box");
  box.hidden = !form;
  if (!form) return;
  document.getElementById("declare-against").textContent = "Against " + form.against.join(", ") +
    " (Combat started by " + form.attacker + "). You hold " + form.cards + " card" + (form.cards === 1 ? "" : "s") + ".";
  const level = document.getElementById("weapon-level"), chosen = level.value;
  clear(level);
  for (let n = 1; n <= form.weapon_level; n++) { const o = el("option", String(n)); o.value = String(n); level.appendChild(o); }
  if (chosen && Number(chosen) <= form.weapon_level) level.value = chosen;
  describeDeclare();
}

function submitDeclare() {
  send({form: "declare", weapon_bonus: number("weapon-bonus"), weapon_level: number("weapon-level") || 1,
    extra: number("extra"), extra_cards: number("extra-cards"), two_dice: document.getElementById("two-dice").checked});
}

function submitLineup(action) {
  send({form: "lineup", action: action, placements: placements, promotion: document.getElementById("promotion").checked});
}

function show(data) {
  current = data;
  const me = data.table.players.find(function (p) { return p.name === data.seat; });
  document.title = data.seat + ": Tabletop Companion";
  document.getElementById("title").textContent = data.seat + (data.table.game ? " \u00B7 " + data.table.game.title : "");
  if (me) document.querySelector("header").style.setProperty("--seat", me.colour);
  const holdings = document.getElementById("holdings"), lines = document.getElementById("lines");
  clear(holdings); clear(lines);
  for (const item of data.private.items) {
    const repeats = item[1].startsWith(item[0] + " ") || item[1].startsWith(item[0] + ":");
    const li = el("li", repeats ? item[1] : item[0] + " ");
    if (!repeats) li.appendChild(el("span", item[1], "detail"));
    holdings.appendChild(li);
  }
  if (!data.private.items.length) holdings.appendChild(el("li", "Nothing secret held.", "detail"));
  for (const line of data.private.lines) lines.appendChild(el("li", line));
  showActions(data.actions);
  showLineup(data.forms.lineup);
  showDeclare(data.forms.declare);
  document.getElementById("status").textContent = data.table.game ? data.table.game.status : "";
  const players = document.getElementById("players");
  clear(players);
  for (const p of data.table.players) {
    players.appendChild(el("li", p.name + ": " + (p.balance !== null ? money(p.balance) : p.headline) +
      (p.turn ? "  (to play)" : "")));
  }
}

document.getElementById("add-program").addEventListener("change", showChosen);
document.getElementById("add").addEventListener("click", function () {
  const program = document.getElementById("add-program").value, bonus = document.getElementById("add-bonus").value;
  if (!program) return;
  placements.push([program, bonus || null]);
  showLineup(current.forms.lineup);
});
for (const id of ["weapon-bonus", "weapon-level", "extra", "extra-cards", "two-dice"]) {
  document.getElementById(id).addEventListener("input", describeDeclare);
}
document.getElementById("declare").addEventListener("click", submitDeclare);
document.getElementById("enter").addEventListener("click", function () { submitLineup("enter"); });
document.getElementById("lock").addEventListener("click", function () { submitLineup("lock"); });
fetch(api).then(function (r) { if (r.status === 403) { gone(); return null; } return r.json(); })
  .then(function (data) { if (data) show(data); }).catch(function () {});
live("/ws/seat/" + token, show, gone);
