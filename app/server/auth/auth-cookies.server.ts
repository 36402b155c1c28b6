/** The Set-Cookie headers of a Better Auth answer, to pass on with our own response. */
export function authCookies(from: Headers): Headers {
  const headers = new Headers();
  from.forEach((value, key) => {
    if (key.toLowerCase() === "set-cookie") headers.append("Set-Cookie", value);
  });
  return headers;
}
