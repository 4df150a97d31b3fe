"use strict";
/*static{*/(() => {/*}*//*live:function animcPlayer(EXPORT, DRAWN, LIVE) {*/
  // An animation that repeats forever lasts Infinity; its scrubber shows a window of it.
  const D = EXPORT.duration === "Infinity" ? Infinity : EXPORT.duration;
  const W = Number.isFinite(D) ? D : EXPORT.window;
  const stage = document.getElementById("stage");
  const animations = [];
  const columns = [];
  for (const element of EXPORT.elements) {
    const el = document.querySelector(element.selector);
    for (const channel of element.channels) el.style.setProperty(channel.variable, channel.start);
    for (const call of element.animations) {
      const options = Object.assign({}, call.options);
      if (options.iterations === "Infinity") options.iterations = Infinity;
      const animation = el.animate(call.keyframes, options);
      animation.pause();
      animations.push(animation);
    }
  }
  for (const element of EXPORT.elements) {
    const el = document.querySelector(element.selector);
    for (const channel of element.channels) {
      columns.push({ key: channel.property, view: element.view, el, variable: channel.variable, color: channel.kind === "color", point: channel.kind === "point" });
    }
  }
  // The columns animc eval prints: every property, sorted by view.property (code points).
  const byCode = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = columns.slice().sort((a, b) => byCode(a.key, b.key));

  const read = (column) => getComputedStyle(column.el).getPropertyValue(column.variable).trim();
  // A point is its numbers, space-separated (`4 8`), as its custom property holds them.
  const numbersOf = (text) => text.trim().split(/[ ,]+/).filter((word) => word !== "").map(parseFloat);
  function values() {
    const out = {};
    for (const column of sorted) {
      const text = read(column);
      out[column.key] = column.color ? text : column.point ? numbersOf(text) : parseFloat(text);
    }
    return out;
  }

  // The readout: one row per property, grouped by view in stage order.
  const readout = document.getElementById("readout");
  const cells = [];
  let lastView = null;
  for (const column of columns) {
    if (column.view !== lastView) {
      const header = readout.insertRow();
      header.className = "view-row";
      const cell = header.insertCell();
      cell.colSpan = 2;
      cell.textContent = column.view;
      lastView = column.view;
    }
    const row = readout.insertRow();
    if (!DRAWN[column.key]) { row.className = "other"; row.title = "not drawn: shown here only"; }
    row.insertCell().textContent = column.key.slice(column.view.length + 1);
    row.cells[0].className = "name";
    const cell = row.insertCell();
    cell.className = "value";
    cells.push({ column, cell });
  }
  function formatNumber(x) {
    if (!isFinite(x)) return String(x);
    const a = Math.abs(x);
    return a !== 0 && (a >= 1e6 || a < 1e-3) ? x.toExponential(3) : x.toFixed(3);
  }
  function updateReadout() {
    for (const { column, cell } of cells) {
      const text = read(column);
      if (column.color) {
        cell.innerHTML = "";
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = text;
        cell.append(swatch, text);
      } else if (column.point) {
        cell.textContent = "(" + numbersOf(text).map(formatNumber).join(", ") + ")";
      } else {
        cell.textContent = formatNumber(parseFloat(text));
      }
    }
  }

  // Events fire as the playhead passes them: (previous, now], or [0, now] at first.
  const log = document.getElementById("log");
  let passed = -Infinity;
  function fire(name, time) {
    stage.dispatchEvent(new CustomEvent("animc-event", { bubbles: true, detail: { name, time } }));
    const none = log.querySelector(".none");
    if (none) none.remove();
    const item = document.createElement("li");
    item.innerHTML = '<span class="at"></span>';
    item.firstChild.textContent = time.toFixed(3) + " s";
    item.append(name);
    log.prepend(item);
    while (log.childElementCount > 200) log.lastElementChild.remove();
  }
/*include:passing-events.js*/
  // The clock: every animation shares the document timeline; the first
  // (or a silent one, when nothing moves) tells the time.
  const clock = document.body.animate([{ opacity: 1 }, { opacity: 1 }],
                                      { duration: W * 1000, fill: "both", iterations: Number.isFinite(D) ? 1 : Infinity });
  clock.pause();
  const all = [clock, ...animations];
/*live:  LIVE.signal.addEventListener("abort", () => { for (const animation of all) animation.cancel(); });
*/  const play = document.getElementById("play"), scrubber = document.getElementById("scrubber");
  const time = document.getElementById("time"), speed = document.getElementById("speed"), loop = document.getElementById("loop");
  scrubber.max = String(W);
  if (!Number.isFinite(D)) {
    // Nothing to loop: it never ends.
    loop.checked = false;
    loop.disabled = true;
    loop.parentElement.title = "it repeats forever";
  }
  let playing = false;

  function now() { return Math.min(D, Math.max(0, (clock.currentTime || 0) / 1000)); }
  function show(t) {
    scrubber.value = String(Math.min(t, W));
    time.value = t.toFixed(3) + " / " + (Number.isFinite(D) ? D.toFixed(3) : "∞") + " s";
    updateReadout();
  }
  function setTime(t) {
    for (const animation of all) animation.currentTime = t * 1000;
  }
  function seek(t) {
    t = Math.min(D, Math.max(0, Number(t) || 0));
    setTime(t);
    if (t >= passed) pass(passed, t);
    passed = t;
    show(t);
  }
  function pause() {
    for (const animation of all) animation.pause();
    playing = false;
    play.classList.remove("playing");
    play.setAttribute("aria-label", "Play");
  }
  function start() {
    if (D <= 0) return;
    if (now() >= D) { passed = -Infinity; setTime(0); }
    for (const animation of all) { animation.playbackRate = Number(speed.value); animation.play(); }
    playing = true;
    play.classList.add("playing");
    play.setAttribute("aria-label", "Pause");
  }
  function frame() {
    if (playing) {
      let t = now();
      if (t >= D) {
        pass(passed, D);
        if (loop.checked) { passed = -Infinity; setTime(0); t = 0; } else { pause(); t = D; }
      }
      pass(passed, t);
      passed = t;
      show(t);
    }
    /*live:if (!LIVE.signal.aborted) */requestAnimationFrame(frame);
  }

  play.addEventListener("click", () => (playing ? pause() : start()));
  const step = (frames) => { pause(); seek(now() + frames / 60); };
  document.getElementById("back").addEventListener("click", () => step(-1));
  document.getElementById("forward").addEventListener("click", () => step(1));
  scrubber.addEventListener("input", () => { pause(); seek(Number(scrubber.value)); });
  speed.addEventListener("change", () => { for (const animation of all) animation.playbackRate = Number(speed.value); });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || (event.target instanceof HTMLInputElement && event.target.type !== "range" && event.target.type !== "checkbox")) return;
    if (event.key === " ") { event.preventDefault(); playing ? pause() : start(); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    else if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
  }/*live:, LIVE*/);

  // Fit the stage to its panel (scrolling below the smallest zoom); labels keep their size on screen.
  function fit() {
    const panel = stage.parentElement;
    const width = Number(stage.dataset.width), height = Number(stage.dataset.height);
    const room = Math.min((panel.clientWidth - 32) / width, (panel.clientHeight - 32) / height);
    const zoom = Math.max(Number(stage.dataset.minimumZoom), Math.min(1.6, room));
    stage.style.width = width * zoom + "px";
    stage.style.height = height * zoom + "px";
    stage.style.setProperty("--zoom", String(zoom));
  }
  addEventListener("resize", fit/*live:, LIVE*/);
  fit();

  function fromAddress() {
    const match = /(?:^|[#&])t=([0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?)/i.exec(location.hash);
    if (match) { pause(); seek(parseFloat(match[1])); return true; }
    return false;
  }
  addEventListener("hashchange", fromAddress/*live:, LIVE*/);

  window.animc = { duration: D, window: W, cancelled: EXPORT.cancelled, seek(t) { pause(); seek(t); }, values/*live:, time: now, playing: () => playing*/ };
  if (EXPORT.cancelled) {
    document.querySelector(".stage-panel").innerHTML = '<p class="cancelled">This animation is cancelled: it has nothing to play.</p>';
  }
/*static{*/  /*}*//*live:  if (LIVE.time !== null) { seek(LIVE.time); if (LIVE.playing) start(); } else */if (!fromAddress()) { seek(0); start(); }
  requestAnimationFrame(frame);
/*static{*/})();/*}*//*live:}*/
