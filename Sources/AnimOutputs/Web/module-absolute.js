
// No keyframe follows the element's start (module-relative.js is written in when one does).
function keyframesOf(el, element, call) { return call.keyframes; }
