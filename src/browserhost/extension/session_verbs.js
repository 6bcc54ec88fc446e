// The verbs cookies and set_cookies, as the chromium provider answers them, on the cookies
// of the agent's tab's browser (CDP Network, through the debugger the extension already
// holds: no cookies or host permission to add).

import { cdp } from "./cdp.js";
import { COOKIES_HELP, COOKIES_SCHEMA, SET_COOKIES_HELP, SET_COOKIES_SCHEMA } from "./contract.js";
import { location } from "./page.js";
import { Refusal } from "./refusals.js";

// Their descriptions and arguments are the Python ones (providers/session_verbs.py, through contract.js).
export const VERBS = [
  {
    name: "cookies",
    description: COOKIES_HELP,
    inputSchema: COOKIES_SCHEMA,
    changesPage: false,
  },
  {
    name: "set_cookies",
    description: SET_COOKIES_HELP,
    inputSchema: SET_COOKIES_SCHEMA,
    changesPage: true,
  },
];
const FIELDS = ["name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite"];
const given = (value) => value !== undefined && value !== null;

export async function cookies(tabId, { urls }) {
  let asked = urls;
  if (!given(asked)) {
    const { url } = await location(tabId);
    if (!/^https?:\/\//.test(url)) {
      throw new Refusal(`The page is ${url}, which has no cookies; open a page or give urls. ` +
        "Nothing was read.");
    }
    asked = [url];
  }
  const { cookies: found } = await cdp(tabId, "Network.getCookies", { urls: asked });
  return {
    cookies: found.map((cookie) => Object.fromEntries(FIELDS.map((field) => [
      field, field === "sameSite" ? cookie.sameSite || "Lax" : cookie[field],
    ]))),
  };
}

export async function setCookies(tabId, { cookies: wanted }) {
  const problems = wanted.map((cookie, index) => {
    const problem = cookieProblem(cookie);
    return problem && `cookie ${index} (${cookie.name}) ${problem}`;
  }).filter(Boolean);
  if (problems.length) throw new Refusal(`${problems.join("; ")}. No cookie was set.`);
  const sent = wanted.map((cookie) =>
    Object.fromEntries(Object.entries(cookie).filter(([, value]) => given(value))));
  await cdp(tabId, "Network.setCookies", { cookies: sent });
  return { set: wanted.map((cookie) => cookie.name) };
}

// providers/session_verbs.py cookie_problem
function cookieProblem({ url, domain, path, sameSite, secure }) {
  if (given(url) && (given(domain) || given(path))) return "give url, or domain and path, not both";
  if (!given(url) && !(given(domain) && given(path))) return "needs url, or domain and path";
  if (sameSite === "None" && !secure) return 'sameSite "None" needs secure: true';
  return null;
}
