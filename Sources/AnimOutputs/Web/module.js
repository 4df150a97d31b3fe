export const duration = EXPORT.duration === "Infinity" ? Infinity : EXPORT.duration;

export function play(root, options = {}) {
  const onEvent = options && typeof options.onEvent === "function" ? options.onEvent : null;
  if (typeof CSS !== "undefined" && CSS.registerProperty) {
    for (const property of EXPORT.properties) {
      // Registered already (the stylesheet's @property, or an earlier play): that registration stands.
      try { CSS.registerProperty({ name: property.name, syntax: property.syntax, inherits: false, initialValue: property.initialValue }); } catch (error) {}
    }
  }
  const D = duration;
  const W = Number.isFinite(D) ? D : EXPORT.window;
  const animations = [];
  const declared = [];
  for (const element of EXPORT.elements) {
    const found = Array.from(root.querySelectorAll(element.selector));
    if (root.matches && root.matches(element.selector)) found.unshift(root);
    for (const el of found) {
      // Read first: module-relative.js reads the element's values.
      const keyframes = element.animations.map((call) => keyframesOf(el, element, call));
      for (const channel of element.channels) {
        el.style.setProperty(channel.variable, channel.start);
        declared.push([el, channel.variable, channel.declared ?? channel.start]);
      }
      element.animations.forEach((call, index) => {
        const timing = Object.assign({}, call.options);
        if (timing.iterations === "Infinity") timing.iterations = Infinity;
        animations.push(el.animate(keyframes[index], timing));
      });
    }
  }
  // The clock: a silent animation of the whole duration (a window of it, repeated, when it never ends).
  const clock = new Animation(new KeyframeEffect(null, [], { duration: W * 1000, fill: "both", iterations: Number.isFinite(D) ? 1 : Infinity }),
                              document.timeline);
  clock.play();
  const all = [clock, ...animations];
  function fire(name, time) {
    root.dispatchEvent(new CustomEvent("animc:" + name, { detail: { time } }));
    if (onEvent) onEvent(name, time);
  }
/*include:passing-events.js*/
  let passed = -Infinity, frame = 0, cancelled = false;
  let settle = null, fail = null;
  const promise = () => { const p = new Promise((yes, no) => { settle = yes; fail = no; }); p.catch(() => {}); return p; };
  const now = () => Math.min(D, Math.max(0, (clock.currentTime || 0) / 1000));
  let finished = promise();
  const controller = {
    get finished() { return finished; },
    get currentTime() { return now(); },
    set currentTime(t) { controller.seek(t); },
    pause() {
      if (cancelled) return;
      for (const animation of all) animation.pause();
      // What playback passed since the last frame, up to where it stopped.
      const t = now();
      if (t > passed) { pass(passed, t); passed = t; }
    },
    play() {
      if (cancelled) return;
      if (Number.isFinite(D) && now() >= D) {
        passed = -Infinity;
        for (const animation of all) animation.currentTime = 0;
        finished = promise();
      }
      for (const animation of all) animation.play();
      watch();
    },
    seek(t) {
      if (cancelled) return;
      t = Math.min(D, Math.max(0, Number(t) || 0));
      for (const animation of all) animation.currentTime = t * 1000;
      passed = t;
      watch();
    },
    cancel() {
      if (cancelled) return;
      cancelled = true;
      if (frame) cancelAnimationFrame(frame);
      for (const animation of all) animation.cancel();
      for (const [el, variable, value] of declared) el.style.setProperty(variable, value);
      fail(new DOMException("the animation was cancelled", "AbortError"));
    },
  };
  // As playback passes events: once a frame while it runs, and once more at the end.
  function tick() {
    frame = 0;
    if (cancelled || clock.playState === "paused" || clock.playState === "idle") return;
    const t = now();
    if (clock.playState === "finished" || (Number.isFinite(D) && t >= D)) {
      pass(passed, D);
      passed = D;
      settle(controller);
      return;
    }
    pass(passed, t);
    passed = t;
    frame = requestAnimationFrame(tick);
  }
  function watch() { if (!frame) frame = requestAnimationFrame(tick); }
  watch();
  return controller;
}

