// The generated cases of the fuzz test (fuzz.test.ts), one bad request at a time from fast-check:
// form posts to every page action here, the API routes and odd headers in api-cases.ts.
import fc from "fast-check";
import { headerCase, renewCase, webhookCase } from "./api-cases";
import {
  identityArb,
  CONTROL,
  NOT_NUMBERS,
  originArb,
  ROUTES,
  garbage,
  originHeader,
  urlencoded,
  multipart,
  type FuzzCase,
  type FuzzIds,
  type Identity,
} from "./requests";

/** One generated bad request (fast-check). */
export function generatedCase(ids: FuzzIds): fc.Arbitrary<FuzzCase> {
  const pageRoutes = Object.keys(ROUTES).filter((p) => !p.startsWith("/api/"));

  const idValue = (identity: Identity, intent: string | null) =>
    fc.oneof(
      garbage,
      fc.uuid().map(String),
      // Another user's licenses: the attacker may name them with any intent, the owner only with none that acts.
      identity === "attacker" ||
        (identity === "user" && (intent === null || !ROUTES["/licenses"]!.intents!.includes(intent)))
        ? fc.constantFrom(...ids.userLicenses)
        : fc.uuid().map(String),
    );

  const formCase = fc
    .record({
      identity: identityArb,
      route: fc.constantFrom(...pageRoutes),
      intentKind: fc.constantFrom("valid", "wrong", "missing", "duplicate"),
      intentPick: fc.nat(),
      wrongIntent: garbage,
      fieldMode: fc.array(fc.constantFrom("omit", "garbage", "duplicate", "array", "poison"), {
        minLength: 10,
        maxLength: 10,
      }),
      values: fc.array(garbage, { minLength: 30, maxLength: 30 }),
      extra: fc.array(fc.tuple(garbage, garbage), { maxLength: 3 }),
      origin: originArb,
      encoding: fc.constantFrom(
        "urlencoded",
        "urlencoded",
        "urlencoded",
        "urlencoded",
        "multipart",
        "multipart-broken",
        "json",
        "text",
        "none",
        "utf16",
        "raw-percent",
        "bytes",
      ),
      bytes: fc.uint8Array({ maxLength: 300 }),
      target: fc.constantFrom("plain", "plain", "plain", "data", "index", "query"),
      method: fc.constantFrom("POST", "POST", "POST", "POST", "POST", "PUT", "PATCH", "DELETE"),
      poison: fc.constantFrom(...CONTROL, "\ud800", "\udc00"),
      ids: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    })
    .chain((r) => {
      const spec = ROUTES[r.route]!;
      const intent =
        r.intentKind === "valid" && spec.intents
          ? spec.intents[r.intentPick % spec.intents.length]!
          : r.intentKind === "missing"
            ? null
            : r.wrongIntent;
      // Never a plan, e-mail or session change that could legitimately succeed: these keep it bad.
      return fc
        .constant({ r, spec, intent })
        .chain(({ r, spec, intent }) =>
          fc.tuple(
            fc.constant(r),
            fc.constant(spec),
            fc.constant(intent),
            idValue(r.identity, intent),
            fc.constantFrom(...NOT_NUMBERS),
          ),
        );
    })
    .map(([r, spec, intent, id, notNumber]): FuzzCase => {
      const fields: [string, string][] = [];
      if (intent !== null) fields.push(["intent", intent]);
      if (r.intentKind === "duplicate" && spec.intents)
        fields.push(["intent", spec.intents[(r.intentPick + 1) % spec.intents.length]!]);
      spec.fields.forEach((name, i) => {
        const mode = r.fieldMode[i % r.fieldMode.length]!;
        let value = r.values[i]!;
        if (name === "licenseId" || name === "userId" || name === "id" || name === "transactionId") value = id;
        if (name === "userId" || (r.identity === "admin" && name === "licenseId")) value = r.values[i]!; // never a real user or license for the admin
        if (name === "months") value = notNumber; // an extension is never valid
        if (name === "plan") value = `${r.values[i]!}${r.poison}`; // never a plan id
        if (name === "password") value = r.values[i]!.slice(0, 5); // too short for a new password, and never the real one
        if (name === "email") value = `${r.values[i]!}${r.poison}@`; // never a valid address
        if (mode === "omit") return;
        if (mode === "poison") value = `${value}${r.poison}`;
        if (mode === "array") name = `${name}[]`;
        fields.push([name, value]);
        if (mode === "duplicate") fields.push([name, r.values[i + 10]!]);
      });
      fields.push(...r.extra);
      const boundary = "----fuzz" + r.ids.join("");
      let contentType: string | undefined;
      let body: Buffer | undefined;
      switch (r.encoding) {
        case "urlencoded":
          [contentType, body] = ["application/x-www-form-urlencoded", urlencoded(fields)];
          break;
        case "multipart":
          [contentType, body] = [`multipart/form-data; boundary=${boundary}`, multipart(fields, boundary)];
          break;
        case "multipart-broken":
          [contentType, body] = [
            r.ids[0]! % 2 ? "multipart/form-data" : `multipart/form-data; boundary=${boundary}`,
            multipart(fields, boundary).subarray(0, 40 + (r.ids[1]! % 100)),
          ];
          break;
        case "json":
          [contentType, body] = ["application/json", Buffer.from(JSON.stringify(Object.fromEntries(fields)))];
          break;
        case "text":
          [contentType, body] = [
            "text/plain;charset=UTF-8",
            Buffer.from(fields.map(([k, v]) => `${k}=${v}`).join("\r\n")),
          ];
          break;
        case "none":
          [contentType, body] = [undefined, urlencoded(fields)];
          break;
        case "utf16":
          [contentType, body] = [
            "application/x-www-form-urlencoded; charset=utf-16",
            Buffer.from(new URLSearchParams(fields).toString(), "utf16le"),
          ];
          break;
        case "raw-percent":
          [contentType, body] = [
            "application/x-www-form-urlencoded",
            Buffer.concat([
              urlencoded(fields),
              Buffer.from(
                `&${r.values[29]!.length % 2 ? "email" : "intent"}=%E0%A4&x=%zz&y=%&z=%C0%AF&%ED%A0%80=%ED%A0%80`,
              ),
            ]),
          ];
          break;
        default:
          [contentType, body] = ["application/x-www-form-urlencoded", Buffer.from(r.bytes)];
      }
      let p = r.route;
      if (r.target === "data") p = `${p}.data`;
      if (r.target === "index") p = `${p}?index`;
      if (r.target === "query")
        p = `${p}?redirectTo=${encodeURIComponent(r.values[3]!)}&_data=routes%2F${r.route.slice(1)}`;
      const headers: Record<string, string> = { ...originHeader(r.origin) };
      if (contentType) headers["Content-Type"] = contentType;
      // Signing out is the one action any request may do: signed out only (cross-site sign-outs have their own test).
      const identity = r.route === "/logout" ? "anon" : r.identity;
      return { label: `form ${r.encoding}`, identity, method: r.method, path: p, headers, body, expect: "no-5xx" };
    });

  return fc.oneof(
    { weight: 14, arbitrary: formCase },
    { weight: 4, arbitrary: webhookCase() },
    { weight: 2, arbitrary: renewCase() },
    { weight: 1, arbitrary: headerCase() },
  );
}
