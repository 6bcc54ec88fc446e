// The options page: where the extension dials, and with which token. Saving them makes the
// service worker dial again (it watches chrome.storage).
"use strict";

const form = document.getElementById("form");
const status = document.getElementById("status");

async function show() {
  const { url = "", token = "", state = {} } =
    await chrome.storage.local.get(["url", "token", "state"]);
  form.url.value = url;
  form.token.value = token;
  status.textContent = state.text || "";
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  await chrome.storage.local.set({ url: form.url.value.trim(), token: form.token.value });
});

chrome.storage.onChanged.addListener(show);
show();
