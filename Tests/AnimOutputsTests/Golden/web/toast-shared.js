// animc export --to js: `final` of examples/toast.anim, 1.6 s.
//
// Its player is the module it imports (`animc runtime` writes it), one copy for every module of a page;
// its opening comment says how to play this one (`duration`, `play(root, options)`).
//
// The elements draw with the custom properties as the player page draws them (the stylesheet's rules):
//
//   [data-view="toast"] {
//     opacity: var(--animc-opacity);
//     transform: translate(calc(var(--animc-x) * 1px), calc(var(--animc-y) * 1px));
//     transform-origin: center;
//   }

import { animcModule } from "./animc-runtime.js";

const EXPORT = {
  "format":"animc-waapi 1",
  "source":"examples/toast.anim",
  "binding":"final",
  "duration":1.6,
  "cancelled":false,
  "properties":[
    {"name":"--animc-opacity","syntax":"<number>","initialValue":"0"},
    {"name":"--animc-x","syntax":"<number>","initialValue":"0"},
    {"name":"--animc-y","syntax":"<number>","initialValue":"0"}
  ],
  "elements":[
    {"view":"toast","selector":"[data-view=\"toast\"]",
     "channels":[
      {"property":"toast.opacity","variable":"--animc-opacity","kind":"number","start":"0"},
      {"property":"toast.x","variable":"--animc-x","kind":"number","start":"0"},
      {"property":"toast.y","variable":"--animc-y","kind":"number","start":"40"}],
     "animations":[
      {"property":"toast.opacity","options":{"duration":1600,"fill":"both"},"keyframes":[
        {"offset":0,"--animc-opacity":"0"},
        {"offset":0.1875,"--animc-opacity":"1"},
        {"offset":0.8125,"--animc-opacity":"1"},
        {"offset":1,"--animc-opacity":"0"}]},
      {"property":"toast.x","options":{"duration":1600,"fill":"both"},"keyframes":[
        {"offset":0,"--animc-x":"0","relative":1},
        {"offset":1,"--animc-x":"0","relative":1}]},
      {"property":"toast.y","options":{"duration":1600,"fill":"both"},"keyframes":[
        {"offset":0,"--animc-y":"40","easing":"cubic-bezier(0.33333333, 1, 0.66666667, 1)","relative":1},
        {"offset":0.1875,"--animc-y":"16","relative":1},
        {"offset":0.8125,"--animc-y":"16","easing":"cubic-bezier(0.33333333, 0, 0.66666667, 0)","relative":1},
        {"offset":1,"--animc-y":"40","relative":1}]}]}
  ],
  "events":[]
};

export const { duration, play } = animcModule(EXPORT);
