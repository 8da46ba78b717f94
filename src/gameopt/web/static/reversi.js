// The Othello page: the game is kept here (start position + moves); the server checks
// every move (/reversi/api/state) and runs every search over one WebSocket (/reversi/ws).
"use strict";
(function () {
  const root = document.getElementById("reversi");
  if (!root) return;
  const SVG = document.getElementById("board").namespaceURI;  // the SVG namespace
  const FILES = "abcdefgh";
  const csrf = root.dataset.csrf;
  const maxGraphDepth = Number(root.dataset.maxGraphDepth);
  const $ = (id) => document.getElementById(id);
  let st = JSON.parse(root.dataset.game);   // the server's state of the game
  let redo = [];                            // undone steps (arrays of moves), newest last
  let points = {};                          // ply -> black's evaluation (the graph)
  let hints = {};                           // square -> score of the last hint
  let ws = null, wsReady = null, busy = null;  // busy: the op running, or null
  let lines = [];
  let replyFor = null;                      // the moves the engine's reply is for
  let note = "";                            // what the last load said

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(x, digits) { return (x > 0 ? "+" : "") + Number(x).toFixed(digits); }
  function showError(id, text) { const p = $(id); p.textContent = text || ""; p.hidden = !text; }

  // ------------------------------------------------------------------ the board
  function drawBoard() {
    const svg = $("board");
    svg.replaceChildren();
    el("rect", {x: 0, y: 0, width: 440, height: 440, fill: "#16392c"}, svg);
    for (let i = 0; i < 8; i++) {
      const c = el("text", {x: 45 + 50 * i, y: 14, "text-anchor": "middle", fill: "#e8f3ee",
                            "font-size": 13}, svg);
      c.textContent = FILES[i];
      const r = el("text", {x: 10, y: 50 + 50 * i, "text-anchor": "middle", fill: "#e8f3ee",
                            "font-size": 13}, svg);
      r.textContent = String(i + 1);
    }
    const legal = new Set(st.legal);
    const myTurn = !st.over && (human() === "" || st.side === human()) && !busyEngine();
    const last = lastMove();
    svg.setAttribute("data-ply", String(st.moves.length));
    svg.setAttribute("data-turn", st.over ? "over" : myTurn ? "you" : "engine");
    for (let s = 0; s < 64; s++) {
      const col = s % 8, row = Math.floor(s / 8), name = FILES[col] + (row + 1);
      const x = 20 + 50 * col, y = 20 + 50 * row;
      const sq = el("rect", {x: x, y: y, width: 50, height: 50, fill: "#2e8b57",
                             stroke: "#143d28", "stroke-width": 1, class: "square",
                             "data-square": name}, svg);
      const cell = st.board[s];
      if (cell === "X" || cell === "O") {
        el("circle", {cx: x + 25, cy: y + 25, r: 20, fill: cell === "X" ? "#111" : "#f4f4f4",
                      stroke: "#333", "stroke-width": 1, "data-disc": cell,
                      "pointer-events": "none"}, svg);
        if (name === last) {
          el("circle", {cx: x + 25, cy: y + 25, r: 4, fill: "#d9534f"}, svg);
        }
      } else if (legal.has(name)) {
        sq.setAttribute("class", "square legal");
        el("circle", {cx: x + 25, cy: y + 25, r: 6, class: "legal",
                                  fill: st.side === "X" ? "#0b1f16" : "#cfe9dc",
                                  "fill-opacity": myTurn ? 0.7 : 0.25, "pointer-events": "none"}, svg);
        if (name in hints) {
          const t = el("text", {x: x + 25, y: y + 44, "text-anchor": "middle",
                                "font-size": 11, fill: "#fff", class: "hint-score",
                                "pointer-events": "none"}, svg);
          t.textContent = fmt(hints[name], 1);
        }
        if (myTurn) sq.addEventListener("click", () => play(name));
      }
    }
  }

  function lastMove() {
    for (let k = st.moves.length - 1; k >= 0; k--) {
      if (st.moves[k] !== "PS") return st.moves[k];
    }
    return null;
  }
  function human() { return $("human").value; }
  function busyEngine() { return busy === "reply"; }

  function render() {
    drawBoard();
    $("status").textContent = st.over ? st.status :
      `${st.status} · black ${st.black}, white ${st.white}` +
      (busyEngine() ? " · the engine is thinking…" : "");
    $("notice").textContent = st.notice || note;
    $("moves").textContent = st.moves.length ? st.moves.join(" ") : "(no moves yet)";
    $("undo").disabled = st.moves.length === 0 || busyEngine();
    $("redo").disabled = redo.length === 0 || busyEngine();
    for (const id of ["hint", "analyse", "solve", "graph-button", "load", "new-game", "human", "level"]) {
      $(id).disabled = busy !== null;
    }
    for (const id of ["hint", "analyse"]) $(id).disabled = busy !== null || st.over;
    $("solve").disabled = busy !== null || st.over || st.empties > Number(root.dataset.maxSolve);
    $("stop").disabled = busy === null;
    $("save-ggf").href = ggfLink();
    drawGraph();
  }

  function ggfLink() {
    const q = new URLSearchParams({start: st.start, moves: st.moves.join("")});
    const h = human();
    q.set("black", h === "X" ? "you" : h === "O" ? engineName() : "black");
    q.set("white", h === "O" ? "you" : h === "X" ? engineName() : "white");
    const ev = st.moves.map((m, k) => {
      const v = points[k + 1];
      if (v === undefined) return "";
      return String(st.sides[k] === "X" ? v : -v);
    });
    if (ev.some((x) => x !== "")) q.set("evals", ev.join(","));
    return "/reversi/game.ggf?" + q.toString();
  }
  function engineName() {
    const [kind, n] = $("level").value.split(":");
    return kind === "depth" ? `gameopt depth ${n}` : `gameopt ${n} s`;
  }

  // ------------------------------------------------------------------ the game
  async function api(path, body) {
    const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || `error ${r.status}`);
    return data;
  }

  async function setMoves(moves, keepRedo, fresh) {
    note = "";
    try {
      const s = await api("/reversi/api/state", {start: st.start, moves: moves.join("")});
      if (!keepRedo) redo = [];
      changed(s, fresh);
    } catch (e) {
      showError("error", e.message);
    }
  }

  function changed(s, fresh) {
    const samePrefix = s.start === st.start &&
      s.moves.slice(0, st.moves.length).join() === st.moves.join();
    if (!samePrefix) points = {};
    const moved = s.start !== st.start || s.moves.join() !== st.moves.join();
    st = s;
    hints = {};
    showError("error", "");
    if (fresh) $("engine-note").textContent = "";
    if ((moved || fresh) && busy === null) {  // what was shown was about another position
      $("hint-table").hidden = true;
      $("search-table").hidden = true;
      $("solve-progress").textContent = "";
    }
    for (const k in points) if (Number(k) > st.moves.length) delete points[k];
    render();
    maybeEngine();
  }

  function play(square) { stopNow(); setMoves(st.moves.concat([square])); }

  function undo() {
    stopNow();
    const h = human();
    let k = st.moves.length - 1;
    // back to the last position where the person moved (passes and engine moves go too)
    while (k > 0 && (st.moves[k] === "PS" || (h !== "" && st.sides[k] !== h))) k--;
    if (k < 0) return;
    redo.push(st.moves.slice(k));
    $("engine-note").textContent = "";
    setMoves(st.moves.slice(0, k), true);
  }

  function redoStep() {
    if (!redo.length) return;
    stopNow();
    const step = redo.pop();
    $("engine-note").textContent = "";
    setMoves(st.moves.concat(step), true);
  }

  function newGame() {
    stopNow();
    st = Object.assign({}, st, {start: ""});
    points = {};
    setMoves([], false, true);
  }

  async function load() {
    showError("load-error", "");
    try {
      const s = await api("/reversi/api/load", {text: $("paste").value});
      redo = [];
      points = {};
      st = Object.assign({}, st, {start: s.start, moves: []});
      changed(s, true);
      note = `loaded a ${s.format}`;
      render();
    } catch (e) {
      showError("load-error", e.message);
    }
  }

  function maybeEngine() {
    if (st.over || human() === "" || st.side === human() || busy !== null) return;
    const [kind, n] = $("level").value.split(":");
    const req = {op: "reply", start: st.start, moves: st.moves.join("")};
    req[kind] = Number(n);
    const book = $("book").value;  // "best", "off" or a variety in discs
    if (book === "off") req.book = false;
    else if (book !== "best") req.variety = Number(book);
    replyFor = st.start + ":" + req.moves;
    send(req);
  }

  // ------------------------------------------------------------------ searches
  function connect() {
    if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) {
      return wsReady;
    }
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host +
      "/reversi/ws";
    ws = new WebSocket(url);
    wsReady = new Promise((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("no connection to the server's search"));
    });
    ws.onmessage = (ev) => receive(JSON.parse(ev.data));
    ws.onclose = () => {
      if (busy !== null) { showError("error", "the connection to the server closed"); done(); }
    };
    return wsReady;
  }

  async function send(req) {
    busy = req.op;
    lines = [];
    $("search-state").textContent = req.op === "reply" ? "" : `${req.op}: waiting for the engine…`;
    if (req.op === "hint") { $("hint-table").hidden = false; $("hint-table").tBodies[0].replaceChildren(); }
    if (req.op === "analyse" || req.op === "reply") {
      $("search-table").hidden = false; $("search-table").tBodies[0].replaceChildren();
    }
    if (req.op === "solve") $("solve-progress").textContent = "solving…";
    render();
    try {
      await connect();
      ws.send(JSON.stringify(req));
    } catch (e) {
      showError("error", e.message);
      done();
    }
  }

  function stopNow() {  // during the engine's reply: it plays its best move so far
    if (busy !== null && ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({op: "stop"}));
    }
  }

  function done() { busy = null; render(); }

  function receive(m) {
    const op = busy;
    if (m.type === "error") {
      showError("error", `${m.message} (${m.status})`);
      $("search-state").textContent = "";
      done();
      if (op === "reply") $("engine-note").textContent = "the engine could not answer";
      return;
    }
    if (m.type === "search") return searchLine(op, m);
    if (m.type === "solve") {
      if (op === "reply") {
        $("search-state").textContent = `the engine is solving the endgame: ${m.done}/${m.total} ` +
          `moves, best so far ${fmt(m.score, 0)}`;
        return;
      }
      $("solve-progress").textContent = `root moves ${m.done}/${m.total} solved, best so far ` +
        `${fmt(m.score, 0)} (window ${m.window[0]}..${m.window[1]}), ` +
        `${m.nodes.toLocaleString()} nodes, ${m.nps.toLocaleString()} nodes/s`;
      return;
    }
    if (m.type === "point") {
      points[m.ply] = m.black;
      $("search-state").textContent = `evaluating the game: ${m.done}/${m.total} positions`;
      drawGraph();
      return;
    }
    if (m.type === "result") result(op, m);
  }

  function searchLine(op, m) {
    if (op === "hint") {
      lines.push(m);
      lines.sort((a, b) => b.score - a.score);
      const body = $("hint-table").tBodies[0];
      body.replaceChildren();
      for (const x of lines) addRow(body, [x.move, fmt(x.score, 2) + (x.exact ? " (exact)" : ""),
                                            x.depth, x.pv]);
      $("search-state").textContent = `hint: ${m.done}/${m.total} moves valued, ` +
        `${m.nodes.toLocaleString()} nodes, ${m.nps.toLocaleString()} nodes/s`;
      return;
    }
    const body = $("search-table").tBodies[0];
    addRow(body, [m.depth, fmt(m.score, 2), m.pv || m.move, m.nodes.toLocaleString(),
                  m.nps.toLocaleString()], true);
    $("search-state").textContent = (op === "reply" ? "the engine is thinking: " : "searching: ") +
      `depth ${m.depth}, best ${m.move} ${fmt(m.score, 2)}`;
  }

  function addRow(body, cells, first) {
    const tr = document.createElement("tr");
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = String(c);
      tr.appendChild(td);
    }
    if (first) body.insertBefore(tr, body.firstChild); else body.appendChild(tr);
  }

  function result(op, m) {
    const stopped = m.stopped ? ` (stopped: ${m.why})` : "";
    const stats = `${(m.nodes || 0).toLocaleString()} nodes in ${m.seconds.toFixed(2)} s, ` +
      `${(m.nps || 0).toLocaleString()} nodes/s`;
    busy = null;
    if (op === "reply") {
      $("search-state").textContent = "";
      if (replyFor !== st.start + ":" + st.moves.join("")) { render(); return; }  // moved on
      $("engine-note").textContent = `engine played ${m.move}: ${m.note}` +
        (m.stopped ? ` (stopped: ${m.why})` : "");
      setMoves(st.moves.concat([m.move]));
      return;
    }
    if (op === "hint") {
      hints = {};
      for (const x of m.moves) hints[x.move] = x.score;
      const best = m.moves[0];
      $("search-state").textContent = best ?
        `hint: ${best.move} ${fmt(best.score, 2)}${best.exact ? " (exact)" : ""}; ` +
        `${m.evaluated}/${m.total} moves valued${stopped}; ${stats}` : `hint: nothing${stopped}`;
    } else if (op === "analyse") {
      const b = m.best;
      $("search-state").textContent = b ?
        `analysis: depth ${b.depth}, ${b.move} ${fmt(b.score, 2)}${b.exact ? " (exact)" : ""}, ` +
        `line ${b.pv}${stopped}; ${stats}` : `analysis: no depth completed${stopped}`;
    } else if (op === "solve") {
      $("solve-progress").textContent = m.exact ?
        `exact: ${m.move} ${fmt(m.score, 0)} (perfect play: ${m.pv}); ${stats}` :
        `solve stopped before the end${stopped}; ${stats}`;
      $("search-state").textContent = "";
    } else if (op === "graph") {
      $("search-state").textContent = `evaluated ${m.points.length} positions at depth ` +
        `${m.depth}${stopped}; ${stats}`;
    }
    render();
    maybeEngine();
  }

  function depth() { return Number($("depth").value) || 8; }

  // ------------------------------------------------------------------ the graph
  function drawGraph() {
    const svg = $("graph");
    svg.replaceChildren();
    const W = 600, H = 200, L = 36, R = 10, T = 10, B = 22;
    const n = Math.max(st.moves.length, 1);
    const ks = Object.keys(points).map(Number).sort((a, b) => a - b);
    let top = 8;
    for (const k of ks) top = Math.max(top, Math.abs(points[k]));
    top = Math.min(64, Math.ceil(top / 8) * 8);
    const x = (k) => L + (W - L - R) * k / n;
    const y = (v) => T + (H - T - B) * (top - v) / (2 * top);
    el("rect", {x: L, y: T, width: W - L - R, height: H - T - B, fill: "#fbfcfc",
                stroke: "#d6dde1"}, svg);
    el("line", {x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#888", "stroke-dasharray": "4 3"}, svg);
    for (const v of [top, 0, -top]) {
      const t = el("text", {x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 11,
                            fill: "#5f6b73"}, svg);
      t.textContent = v > 0 ? "+" + v : String(v);
    }
    const lab = el("text", {x: W - R, y: H - 6, "text-anchor": "end", "font-size": 11,
                            fill: "#5f6b73"}, svg);
    lab.textContent = `ply (${st.moves.length} moves)`;
    const cur = el("line", {x1: x(st.moves.length), x2: x(st.moves.length), y1: T, y2: H - B,
                            stroke: "#1f6f50", "stroke-width": 1}, svg);
    cur.setAttribute("class", "graph-now");
    if (!ks.length) {
      const t = el("text", {x: W / 2, y: H / 2, "text-anchor": "middle", "font-size": 13,
                            fill: "#5f6b73"}, svg);
      t.textContent = "“Evaluate the game” draws black's evaluation after every move";
      return;
    }
    const pts = ks.map((k) => `${x(k).toFixed(1)},${y(points[k]).toFixed(1)}`).join(" ");
    el("polyline", {points: pts, fill: "none", stroke: "#111", "stroke-width": 2,
                    id: "graph-line"}, svg);
    for (const k of ks) {
      const c = el("circle", {cx: x(k), cy: y(points[k]), r: 2.5, fill: "#111",
                              class: "graph-point"}, svg);
      const tip = el("title", {}, c);
      tip.textContent = `ply ${k}: ${fmt(points[k], 2)}`;
    }
  }

  // ------------------------------------------------------------------ wiring
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redoStep);
  $("new-game").addEventListener("click", newGame);
  $("load").addEventListener("click", load);
  $("stop").addEventListener("click", stopNow);
  $("human").addEventListener("change", () => { render(); maybeEngine(); });
  $("hint").addEventListener("click", () =>
    send({op: "hint", start: st.start, moves: st.moves.join(""), depth: depth(), top: 4}));
  $("analyse").addEventListener("click", () =>
    send({op: "analyse", start: st.start, moves: st.moves.join(""), depth: Number(root.dataset.maxDepth)}));
  $("solve").addEventListener("click", () =>
    send({op: "solve", start: st.start, moves: st.moves.join("")}));
  $("graph-button").addEventListener("click", () => {
    points = {};
    send({op: "graph", start: st.start, moves: st.moves.join(""),
          depth: Math.min(depth(), maxGraphDepth, 6)});
  });
  render();
  connect().catch(() => {});
  maybeEngine();
})();
