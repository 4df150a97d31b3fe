// animc export --to js: `final` of examples/spinner.anim, which repeats forever (settled by 0 s, then every 1.5 s at the longest).
//
//   import { duration, play } from "./this-module.js";
//   const animation = play(document, { onEvent: (name, time) => console.log(name, time) });
//   animation.finished.then(() => …);  // also pause(), play(), seek(t), cancel(), currentTime (s)
//
// Each `emit NAME` is dispatched on root as CustomEvent("animc:NAME", {detail: {time}}) as playback passes it.
//
// The elements draw with the custom properties as the player page draws them (the stylesheet's rules):
//
//   [data-view="spinner"] {
//     transform: rotate(calc(var(--animc-rotation) * 1deg));
//     transform-origin: center;
//     width: calc(max(0, var(--animc-size)) * 1px);
//     height: calc(max(0, var(--animc-size)) * 1px);
//     background-color: var(--animc-color);
//   }
//   [data-view="dot"] {
//     opacity: var(--animc-opacity);
//     transform: scale(var(--animc-scale));
//     transform-origin: center;
//     width: calc(max(0, var(--animc-radius)) * 2px);
//     height: calc(max(0, var(--animc-radius)) * 2px);
//     border-radius: 50%;
//     background-color: var(--animc-color);
//   }

const EXPORT = {
  "format":"animc-waapi 1",
  "source":"examples/spinner.anim",
  "binding":"final",
  "duration":"Infinity",
  "settled":0,
  "period":1.5,
  "window":3,
  "cancelled":false,
  "properties":[
    {"name":"--animc-color","syntax":"<color>","initialValue":"rgb(0 0 0 / 0)"},
    {"name":"--animc-rotation","syntax":"<number>","initialValue":"0"},
    {"name":"--animc-size","syntax":"<number>","initialValue":"0"},
    {"name":"--animc-opacity","syntax":"<number>","initialValue":"0"},
    {"name":"--animc-radius","syntax":"<number>","initialValue":"0"},
    {"name":"--animc-scale","syntax":"<number>","initialValue":"0"}
  ],
  "elements":[
    {"view":"spinner","selector":"[data-view=\"spinner\"]",
     "channels":[
      {"property":"spinner.color","variable":"--animc-color","kind":"color","start":"rgb(58 100 216)"},
      {"property":"spinner.rotation","variable":"--animc-rotation","kind":"number","start":"0"},
      {"property":"spinner.size","variable":"--animc-size","kind":"number","start":"40"}],
     "animations":[
      {"property":"spinner.rotation","options":{"duration":1500,"iterations":"Infinity"},"keyframes":[
        {"offset":0,"--animc-rotation":"0"},
        {"offset":0.9999999999,"--animc-rotation":"360"},
        {"offset":0.9999999999,"--animc-rotation":"0"},
        {"offset":1,"--animc-rotation":"0"}]}]},
    {"view":"dot","selector":"[data-view=\"dot\"]",
     "channels":[
      {"property":"dot.color","variable":"--animc-color","kind":"color","start":"rgb(242 142 43)"},
      {"property":"dot.opacity","variable":"--animc-opacity","kind":"number","start":"0.4"},
      {"property":"dot.radius","variable":"--animc-radius","kind":"number","start":"8"},
      {"property":"dot.scale","variable":"--animc-scale","kind":"number","start":"1"}],
     "animations":[
      {"property":"dot.opacity","options":{"duration":1000,"iterations":"Infinity"},"keyframes":[
        {"offset":0,"--animc-opacity":"0.4","easing":"ease-in-out"},
        {"offset":0.5,"--animc-opacity":"1","easing":"ease-in-out"},
        {"offset":1,"--animc-opacity":"0.4"}]},
      {"property":"dot.scale","options":{"duration":1000,"iterations":"Infinity"},"keyframes":[
        {"offset":0,"--animc-scale":"1","easing":"ease-in-out"},
        {"offset":0.5,"--animc-scale":"1.6","easing":"ease-in-out"},
        {"offset":1,"--animc-scale":"1"}]}]}
  ],
  "events":[{"name":"lap","time":0}],
  "repeatingEvents":{"from":0,"period":1.5,"events":[{"name":"lap","time":1.5}]}
};

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

function keyframesOf(el, element, call) { return call.keyframes; }
