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
