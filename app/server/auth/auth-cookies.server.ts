/** The Set-Cookie headers of a Better Auth answer, to pass on with our own response. */
export function authCookies(from: Headers): Headers {
  const headers = new Headers();
  from.forEach((value, key) => {
    if (key.toLowerCase() === "set-cookie") headers.append("Set-Cookie", value);
  });
  return headers;
}

/** Cookie header → name/value, as Better Auth reads it: the first of a name wins, values URL-decoded. */
export function parseCookieHeader(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // kept as sent, as Better Auth does
    }
    cookies.set(name, value);
  }
  return cookies;
}
