// When an action must stop: the host stopped waiting for it (its deadline passed, it
// cancelled, the connection closed). One action runs at a time in a tab, whichever agent
// session it is for; its stop signal is where every wait on that tab looks (cdp, loaded...).

/** The host stopped waiting for a call: what it waits for ends, and its answer says whether
 * it may have run. */
export class Stopped extends Error {
  constructor(code, why) {
    super(why);
    this.code = code;
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or the signal's reason as soon as it is aborted. */
export function until(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort;
  const stopped = new Promise((resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, stopped]).finally(() => signal.removeEventListener("abort", onAbort));
}

const tabLocks = new Map(); // tab id -> the end of the last action that asked for it
export const stops = new Map(); // tab id -> the stop signal of the action running in it

/** `work`, once every action that asked for the tab before it is done. */
export async function holdTab(tabId, signal, work) {
  const previous = tabLocks.get(tabId) || Promise.resolve();
  let release;
  const mine = new Promise((resolve) => { release = resolve; });
  const tail = previous.then(() => mine);
  tabLocks.set(tabId, tail);
  try {
    await until(previous, signal);
    stops.set(tabId, signal);
    return await work();
  } finally {
    if (stops.get(tabId) === signal) stops.delete(tabId);
    release();
    tail.then(() => { if (tabLocks.get(tabId) === tail) tabLocks.delete(tabId); });
  }
}

export function checkStopped(tabId) {
  const signal = stops.get(tabId);
  if (signal && signal.aborted) throw signal.reason;
}
