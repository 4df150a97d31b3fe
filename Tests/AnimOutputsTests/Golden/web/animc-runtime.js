// animc runtime: the player that `animc export --to js --runtime PATH` modules import
// (docs/exports.md §6, "A module for scripts"): one copy serves every module of a page. Write it with
// the animc that writes the modules: their JSON (as `--to waapi` writes it) is what it reads. Play a module so:
//
//   import { duration, play } from "./this-module.js";
//   const animation = play(document, { onEvent: (name, time) => console.log(name, time) });
//   animation.finished.then(() => …);  // also pause(), play(), seek(t), cancel(), currentTime (s)
//
// Each `emit NAME` is dispatched on root as CustomEvent("animc:NAME", {detail: {time}}) as playback passes it.
//
// A module holds `export const { duration, play } = animcModule(EXPORT);`, EXPORT its JSON.

export function animcModule(EXPORT) {
  const duration = EXPORT.duration === "Infinity" ? Infinity : EXPORT.duration;

  function play(root, options = {}) {
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
    // Repeating events: each at its time in (from, from + period], and every period after it, forever or `count` times.
    const REPEATING = EXPORT.repeatingEvents || null;
    const FIRINGS = 10000, SLACK = 1e-9;
    function pass(from, to) {
      const fired = [];
      for (const event of EXPORT.events) {
        if (event.time > from && event.time <= to) fired.push([event.time, event.name]);
      }
      if (REPEATING && REPEATING.period > 0) {
        const P = REPEATING.period;
        // A firing at t counts in (from, to] when from + SLACK < t ≤ to + SLACK: rounding of t never fires it twice.
        // Bounded loops: far out, k·P stops telling neighbouring k apart.
        for (const event of REPEATING.events) {
          const last = Math.min(Math.floor((to + SLACK - event.time) / P), REPEATING.count == null ? Infinity : REPEATING.count - 1);
          let k = Math.max(0, Math.floor((from - event.time) / P) - 1, last - FIRINGS + 1);
          for (let n = 0; n < FIRINGS + 2 && k <= last; n += 1, k += 1) {
            const t = event.time + k * P;
            if (t > from + SLACK && t <= to + SLACK) fired.push([t, event.name]);
          }
        }
        fired.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      }
      for (const [time, name] of fired) fire(name, time);
    }

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

  return { duration, play };
}

// Relative at play time (docs/exports.md §7.3), written in when a keyframe has "relative": W. A channel's
// marked keyframes play `value + W × (start − declared)` (a colour or a point: the start), where start is
// the element's computed value when something sets it (an animation on the element, a module's or a
// stylesheet's, or its own style, as an earlier play() or cancel() leaves it), else the declared value.
function keyframesOf(el, element, call) {
  if (!call.keyframes.some((k) => k.relative)) return call.keyframes;
  const channel = element.channels.find((c) => c.property === call.property), name = channel.variable;
  const declared = channel.declared ?? channel.start;
  const set = el.style.getPropertyValue(name) !== "" ||
    el.getAnimations().some((a) => a.effect && a.effect.getKeyframes().some((k) => name in k));
  const text = set ? getComputedStyle(el).getPropertyValue(name).trim() : "";
  const number = channel.kind === "number", read = parseFloat(text);
  const start = number ? (Number.isFinite(read) ? read : Number(declared)) : text || declared;
  return call.keyframes.map((k) => {
    if (!k.relative) return k;
    const moved = Object.assign({}, k);
    delete moved.relative;
    moved[name] = number ? String(Number(k[name]) + k.relative * (start - Number(declared))) : String(start);
    return moved;
  });
}
