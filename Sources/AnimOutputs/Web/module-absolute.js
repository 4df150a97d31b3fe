function keyframesOf(el, element, call) { return call.keyframes; }
