// The requests the fuzz test (fuzz.test.ts) sends: what each route reads, the bad values, the
// request bodies, and how an answer is judged. The cases themselves are fixed-cases.ts and
// generated-cases.ts.
import fc from "fast-check";
import type { RawResponse } from "../../support/raw-http";

/** The port the fuzzed server listens on (its own origin is the "site" one). */
export const PORT = 4331;
export const SECRET = "whsec_fuzz_secret_0123456789abcdef";
export const PASSWORD = "fuzz-pass-1";

export const NO_SUCH_USER = "00000000-0000-4000-8000-00000000f022";
export const FORM_LIMIT = 64 * 1024;
export const LARGE_LIMIT = 1024 * 1024;

export type Identity = "anon" | "user" | "attacker" | "admin";
export const identityArb = fc.constantFrom<Identity>("anon", "user", "attacker", "admin");
export type Expectation = "no-5xx" | "400" | "413" | "home";
export interface FuzzCase {
  label: string;
  identity: Identity;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer | Buffer[];
  expect: Expectation;
}

/** The fields each action reads, and its intents. */
export const ROUTES: Record<string, { fields: string[]; intents?: string[]; signedIn?: boolean }> = {
  "/register": { fields: ["full_name", "email", "password", "company_name", "terms"] },
  "/login": { fields: ["email", "password", "redirectTo"] },
  "/forgot-password": { fields: ["email"] },
  "/confirm-email": { fields: ["email"] },
  "/email-change": { fields: ["token"] },
  "/email-confirmation": {
    fields: ["token", "password", "confirm", "redirectTo"],
    intents: ["sign-in", "set-password"],
  },
  "/reset-password": { fields: ["token", "password", "confirm"], intents: ["verify", "reset"] },
  "/profile": {
    fields: ["full_name", "company_name", "email", "password", "code", "currentPassword", "newPassword", "sessionId"],
    intents: [
      "two-factor-start",
      "two-factor-confirm",
      "two-factor-disable",
      "password-change",
      "session-revoke",
      "sessions-revoke-others",
      "account-delete",
    ],
    signedIn: true,
  },
  "/licenses": {
    fields: ["licenseId", "windows_username", "computer_name"],
    intents: ["offline-data", "cancel-renewal", "reenable-renewal", "request-refund"],
    signedIn: true,
  },
  "/extend-license": { fields: ["licenseId", "months", "years"], signedIn: true },
  "/pricing": {
    fields: ["plan", "seats", "transactionId", "discountCode"],
    intents: ["checkout", "demo-pay", "demo-checkout"],
    signedIn: true,
  },
  "/team": {
    fields: ["teamId", "userId", "invitationId", "name", "emails", "seats", "enabled", "role", "plan", "stamp"],
    intents: [
      "rename",
      "invite",
      "resend",
      "withdraw",
      "remove",
      "take-seat",
      "claim-seat",
      "quote-seats",
      "change-seats",
      "preview-plan",
      "change-plan",
      "domain-claim",
      "set-role",
    ],
    signedIn: true,
  },
  "/team/invitation": { fields: ["token"], signedIn: true },
  "/admin/releases": {
    fields: ["id", "flag", "version", "title", "release_date", "release_notes"],
    intents: ["save-release", "release-flag", "delete-release"],
    signedIn: true,
  },
  // A user's admin page (the path's :userId is a user that does not exist: garbage days would
  // otherwise rightly become a 30-day tester license for a real one, per the tester-days rule).
  "/admin/users/:userId": {
    fields: ["licenseId", "reason", "days"],
    intents: ["revoke", "add-tester", "reset-offline", "resend-license"],
    signedIn: true,
  },
  "/admin/users/:userId/machines": {
    fields: ["licenseId", "machineId", "js"],
    intents: ["deactivate-machine"],
    signedIn: true,
  },
  "/admin/jobs": { fields: ["jobId"], intents: ["job-retry", "job-discard"], signedIn: true },
  "/admin/tokens": {
    fields: ["name", "scopes", "expires_in_days", "id"],
    intents: ["create-token", "revoke-token"],
    signedIn: true,
  },
  "/admin/webhooks": {
    fields: ["url", "events", "id", "delivery_id"],
    intents: ["create-endpoint", "enable", "disable", "delete", "redeliver"],
    signedIn: true,
  },
  "/licenses/machines/deactivate": {
    fields: ["licenseId", "machineId", "js"],
    intents: ["deactivate-machine"],
    signedIn: true,
  },
  "/licenses/offline-activation": {
    fields: ["licenseId", "activation_request", "activation_request_file"],
    signedIn: true,
  },
  "/billing/payment-method": { fields: ["licenseId"], intents: ["start", "demo-pay"], signedIn: true },
  "/login/oauth": { fields: ["provider", "redirectTo"] },
  "/login/two-factor": { fields: ["code", "redirectTo"] },
  "/profile/billing-details": { fields: ["billing_name", "billing_address", "billing_tax_id"], signedIn: true },
  "/profile/reminders": { fields: ["reminder_emails"], signedIn: true },
  "/logout": { fields: [] },
  "/api/webhooks/paddle": { fields: [] },
  "/api/demo/renew": { fields: [] },
};

export const ODD_VALUES = [
  "",
  " ",
  "[]",
  "{}",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "0",
  "1e308",
  "1e309",
  "-0",
  "99999999999999999999999999",
  "-99999999999999999999",
  "9007199254740993",
  "0x7fffffff",
  "1_000",
  "½",
  "__proto__",
  "constructor",
  "toString",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "\ud800",
  "\udfff",
  "x\ud800y",
  "a\u0000b",
  "\u0000",
  "\u202e",
  "\ufeff",
  "%00",
  "%",
  "%zz",
  "\r\nSet-Cookie: x=1",
  "00000000-0000-0000-0000-000000000000",
  "not-a-uuid",
  "sub_demo_x",
  "txn_demo_x",
  "A".repeat(5000),
];
/** Control characters no text field takes; multi-line fields may keep tab, CR and LF. */
export const CONTROL = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u000b",
  "\u000c",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u009f",
];
export const CONTROL_MULTILINE = CONTROL.filter((c) => !"\t\n\r".includes(c));
export const NOT_NUMBERS = [
  "",
  "NaN",
  "-1",
  "-5",
  "1.5",
  "13",
  "1e308",
  "1e999",
  "99999999999999999999",
  "Infinity",
  "[]",
  "abc",
  "\u0000",
  "0x10",
];

export const garbage = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_VALUES) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);
export const originArb = fc.constantFrom<"site" | "none" | "foreign" | "null" | "malformed">(
  "site",
  "site",
  "site",
  "site",
  "none",
  "none",
  "foreign",
  "null",
  "malformed",
);

export function originHeader(kind: "site" | "none" | "foreign" | "null" | "malformed"): Record<string, string> {
  switch (kind) {
    case "site":
      return { Origin: `http://127.0.0.1:${PORT}` };
    case "foreign":
      return { Origin: "http://evil.example" };
    case "null":
      return { Origin: "null" };
    case "malformed":
      return { Origin: "::not a url::" };
    default:
      return {};
  }
}

/** x-www-form-urlencoded as a browser writes it (lone surrogates become U+FFFD on the way). */
export function urlencoded(fields: [string, string][]): Buffer {
  return Buffer.from(new URLSearchParams(fields).toString());
}

export function multipart(fields: [string, string][], boundary: string): Buffer {
  const parts = fields.map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, "%22")}"\r\n\r\n${v}\r\n`,
  );
  return Buffer.from(`${parts.join("")}--${boundary}--\r\n`);
}

export function check(c: FuzzCase, response: RawResponse): string | null {
  const { status } = response;
  if (status === "timeout") return "no answer within 60 s";
  if (status === "reset") return c.expect === "413" ? null : "connection closed without an answer";
  if (status >= 500) return `server error ${status}`;
  // A chunked body's size shows only as it is read: an answer from the headers alone (a signed-in
  // user sent away from /login, 401/403) need not read it.
  const answeredUnread = Array.isArray(c.body) && ((status >= 300 && status < 400) || status === 401 || status === 403);
  if (c.expect === "413" && status !== 413 && !answeredUnread) return "expected 413 for a body over the limit";
  if (c.expect === "400" && status !== 400) return "expected 400 for a control character in a text field";
  if (c.expect === "home") {
    const location = response.headers.location;
    if (status < 300 || status >= 400 || location !== "/")
      return `expected a redirect to / (Location: ${JSON.stringify(location)})`;
  }
  return null;
}

export function describeCase(c: FuzzCase): string {
  const ct = c.headers["Content-Type"] ?? "(no type)";
  const origin = c.headers.Origin ?? "(no Origin)";
  const body = Array.isArray(c.body)
    ? `chunked ${c.body.reduce((n, b) => n + b.length, 0)} bytes`
    : c.body
      ? JSON.stringify(c.body.subarray(0, 160).toString("latin1"))
      : "(no body)";
  return `[${c.label}] ${c.identity} ${c.method} ${c.path} ${ct} Origin=${origin} ${body}`;
}

/** The ids the cases name: the demo user's licenses (one of them never activated) and others. */
export interface FuzzIds {
  userLicenses: string[];
  freshLicense: string;
  demoUser: string;
  release: string;
}
