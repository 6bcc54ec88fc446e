// The recording beside the live picture: what the agent did in a session, step by step, each
// with its outcome and time (failures marked); a click on a step shows the picture of the page
// right after it and the answer. It follows the session the picture shows (else the latest
// recorded), or the one chosen in its list. Uses viewer.js's token, api() and state.
"use strict";

const timeline = {
  sessions: [],
  shownKey: null, // the session whose steps are listed, as a key (see sessionKey)
  steps: new Map(), // seq -> step
  lastSeq: 0,
  chosenSeq: null,
  pictureUrl: null,
};
const POLL_MS = 2000;

// A session id as an option value: JSON, so the actions sent without a session ("null") and
// "follow" ("") stay apart from every id.
const sessionKey = (sessionId) => JSON.stringify(sessionId === undefined ? null : sessionId);

function sessionQuery(key) {
  const sessionId = JSON.parse(key);
  return sessionId === null ? "" : `session=${encodeURIComponent(sessionId)}`;
}

function followedKey() {
  const shown = (state.sessions || []).find((session) => session.shown && session.context);
  if (shown) return sessionKey(shown.context.sessionId);
  return timeline.sessions.length ? sessionKey(timeline.sessions[0].sessionId) : null;
}

function showRecordedSessions(answer) {
  timeline.sessions = answer.sessions;
  const select = $("recording-session");
  const chosen = select.value;
  const options = [new Option("Follow the picture", "", false, chosen === "")];
  for (const row of answer.sessions) {
    const label = `${row.sessionId === null ? "(no session)" : row.sessionId} · ${row.steps} steps`;
    const key = sessionKey(row.sessionId);
    options.push(new Option(label, key, false, key === chosen));
  }
  select.replaceChildren(...options);
  select.value = options.some((option) => option.value === chosen) ? chosen : "";
  $("recording-status").textContent = answer.recording
    ? answer.sessions.length ? "" : "Nothing recorded yet: the agent's actions appear here."
    : "This host records nothing now (serve --no-recording).";
}

async function refreshTimeline() {
  if (!token || document.hidden) return;
  try {
    showRecordedSessions(await api("GET", "/api/recordings"));
    const key = $("recording-session").value || followedKey();
    if (key !== timeline.shownKey) {
      timeline.shownKey = key;
      timeline.steps.clear();
      timeline.lastSeq = 0;
      closeStep();
    }
    if (key === null) return renderSteps();
    const query = [sessionQuery(key), `after=${timeline.lastSeq}`].filter(Boolean).join("&");
    const answer = await api("GET", `/api/recordings/steps?${query}`);
    if (timeline.shownKey !== key) return; // the choice changed while asking
    for (const step of answer.steps) {
      timeline.steps.set(step.seq, step);
      timeline.lastSeq = Math.max(timeline.lastSeq, step.seq);
    }
    if (answer.steps.length) renderSteps();
  } catch (error) {
    $("recording-status").textContent = `The recording could not be read: ${error.message}`;
  }
}

function renderSteps() {
  const ordered = [...timeline.steps.values()].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);
  const list = $("steps");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...ordered.map(stepItem));
  if (atEnd) list.scrollTop = list.scrollHeight; // keep up with the agent unless scrolled back
}

function stepItem(step) {
  const item = document.createElement("li");
  item.className = "step";
  item.dataset.seq = String(step.seq);
  item.dataset.outcome = step.outcome;
  const failed = step.outcome !== "ok";
  item.classList.toggle("failed", failed);
  item.classList.toggle("chosen", step.seq === timeline.chosenSeq);
  const button = document.createElement("button");
  button.type = "button";
  const action = document.createElement("span");
  action.className = "step-action";
  action.textContent = step.action;
  const outcome = document.createElement("span");
  outcome.className = "step-outcome";
  outcome.textContent = failed ? `✗ ${step.outcome}` : "✓";
  const time = document.createElement("span");
  time.className = "step-time muted";
  time.textContent = `${step.durationMs} ms`;
  button.append(action, outcome, time);
  button.title = failed && step.error ? step.error : new Date(step.startedAt * 1000).toLocaleTimeString();
  button.addEventListener("click", () => openStep(step));
  item.append(button);
  return item;
}

async function openStep(step) {
  timeline.chosenSeq = step.seq;
  renderSteps();
  const detail = $("step-detail");
  detail.hidden = false;
  const when = new Date(step.startedAt * 1000).toLocaleTimeString();
  const by = step.providerId ? ` by ${step.providerId}` : "";
  $("step-summary").textContent = `#${step.seq} ${step.action}: ${step.outcome} in ${step.durationMs} ms${by}, at ${when}`;
  $("step-error").textContent = step.error || "";
  $("step-parameters").textContent = JSON.stringify(step.parameters, null, 2);
  $("step-answer").textContent = step.answer === null || step.answer === undefined ? "" : JSON.stringify(step.answer, null, 2);
  const image = $("step-picture");
  if (timeline.pictureUrl) URL.revokeObjectURL(timeline.pictureUrl);
  timeline.pictureUrl = null;
  image.hidden = true;
  $("step-no-picture").hidden = Boolean(step.picture);
  if (!step.picture) return;
  const query = sessionQuery(timeline.shownKey);
  const response = await fetch(`/api/recordings/pictures/${step.seq}${query ? `?${query}` : ""}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok || timeline.chosenSeq !== step.seq) return;
  timeline.pictureUrl = URL.createObjectURL(await response.blob());
  image.src = timeline.pictureUrl;
  image.alt = `The page after step ${step.seq}`;
  image.hidden = false;
}

function closeStep() {
  timeline.chosenSeq = null;
  $("step-detail").hidden = true;
}

$("recording-session").addEventListener("change", (event) => {
  event.target.blur(); // the list keeps updating
  refreshTimeline();
});
$("step-close").addEventListener("click", () => {
  closeStep();
  renderSteps();
});
$("timeline-toggle").addEventListener("click", () => {
  const shown = $("timeline").hidden;
  $("timeline").hidden = !shown;
  $("timeline-toggle").setAttribute("aria-pressed", String(shown));
});

setInterval(refreshTimeline, POLL_MS);
refreshTimeline();
