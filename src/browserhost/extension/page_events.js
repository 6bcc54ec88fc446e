// What a page says on its own, kept for the action's answer: its console problems, its
// dialogs, and the data of a drag it started (the chromium provider's words and limits).

import { PROBLEM_TEXT_MAX, PROBLEMS_MAX } from "./contract.js";
import { stops } from "./stopping.js";

// The page's console errors and warnings and its uncaught exceptions, kept until the next
// snapshot tells them.
const problems = new Map(); // tab id -> [{level, text, source?}]

export function heard(tabId, method, params) {
  let problem;
  if (method === "Runtime.exceptionThrown") {
    const details = params.exceptionDetails;
    const said = (details.exception && details.exception.description) || details.text;
    problem = { level: "error", text: `Uncaught ${String(said).split("\n")[0]}` };
  } else if (params.type === "error" || params.type === "warning") {
    const text = params.args.map((arg) => ("value" in arg ? String(arg.value) : arg.description))
      .join(" ");
    const frame = params.stackTrace && params.stackTrace.callFrames[0];
    problem = { level: params.type, text };
    if (frame && frame.url) {
      problem.source = frame.lineNumber > 0 ? `${frame.url}:${frame.lineNumber + 1}` : frame.url;
    }
  } else {
    return;
  }
  problem.text = problem.text.slice(0, PROBLEM_TEXT_MAX);
  const kept = problems.get(tabId) || [];
  kept.push(problem);
  problems.set(tabId, kept.slice(-PROBLEMS_MAX));
}

export function drainProblems(tabId) {
  const kept = problems.get(tabId) || [];
  problems.delete(tabId);
  return kept;
}

// A dialog during the agent's action is dismissed and told in the answer, as the chromium
// provider does by default: it would hold the page, and every later action with it. One that
// opens while no action runs is the person's to answer.
export const dialogs = new Map(); // tab id -> the dialogs of the running action

export function dialogOpened(source, { type, message }) {
  const { tabId } = source; // with a cross-origin frame's session, when it opened there
  if (!stops.has(tabId)) return;
  const seen = dialogs.get(tabId) || [];
  seen.push({ type, message: String(message).slice(0, PROBLEM_TEXT_MAX), answer: "dismissed" });
  dialogs.set(tabId, seen);
  chrome.debugger.sendCommand(source, "Page.handleJavaScriptDialog", { accept: false })
    .catch(() => {}); // closed meanwhile: nothing holds the page
}

export function takeDialogs(tabId) {
  const seen = dialogs.get(tabId);
  dialogs.delete(tabId);
  return seen && seen.length ? { dialogs: seen } : {};
}

export const drags = new Map(); // tab id -> what takes the data of the drag a page started in it
