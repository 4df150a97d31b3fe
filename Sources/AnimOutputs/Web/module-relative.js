
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
