(() => {
  const overlay = document.getElementById("animc-live"), status = document.getElementById("animc-status");
  let version = STATE.version, pageVersion = STATE.pageVersion, controller = null;
  function start(data, drawn, time, playing) {
    if (controller) controller.abort();
    controller = new AbortController();
    animcPlayer(data, drawn, { signal: controller.signal, time, playing });
    (document.querySelector(".stage-panel") || document.body).append(overlay);
  }
  function swap(page) {
    const time = window.animc ? window.animc.time() : null, playing = window.animc ? window.animc.playing() : true;
    document.body.append(overlay);
    for (const old of document.querySelectorAll("body > header, body > main, body > footer")) old.remove();
    document.head.querySelector("style").textContent = page.style;
    document.title = page.title;
    document.body.insertAdjacentHTML("afterbegin", page.body);
    start(page.data, page.drawn, time, playing);
  }
  function show(state) {
    if (state.page && state.pageVersion !== pageVersion) swap(state.page);
    version = state.version;
    pageVersion = state.pageVersion;
    overlay.hidden = !state.problem;
    overlay.querySelector("h2").textContent = state.problem || "";
    overlay.querySelector("pre").textContent = state.diagnostics;
  }
  // A hidden page lets its request go (a browser opens only six connections to a server) and asks again when seen.
  let request = null;
  document.addEventListener("visibilitychange", () => { if (document.hidden && request) request.abort(); });
  const seen = () => new Promise((resolve) => {
    const check = () => { if (!document.hidden) { document.removeEventListener("visibilitychange", check); resolve(); } };
    document.addEventListener("visibilitychange", check);
    check();
  });
  async function follow() {
    for (;;) {
      await seen();
      request = new AbortController();
      try {
        const response = await fetch("/update?since=" + version, { cache: "no-store", signal: request.signal });
        if (!response.ok) throw new Error("HTTP " + response.status);
        show(await response.json());
        status.hidden = true;
      } catch (error) {
        if (request.signal.aborted) continue;
        status.hidden = false;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
  if (STATE.pageVersion) start(EXPORT, DRAWN, null, true);
  show(STATE);
  follow();
})();
