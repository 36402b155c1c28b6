import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badRouteParam, paramNames } from "~/domain/route-params";
import { addressProblem } from "~/domain/url-encoding";
import { rawRequest, signIn } from "../support/raw-http";
import { REPO_ROOT, startServer, tempDir, type ServerProcess } from "../support/server-process";

/**
 * Generated bad addresses (docs/security.md), sent over HTTP to the built server (embedded PGlite, demo
 * checkout) for the GET (and HEAD) of every route in app/routes.ts, its data request (`.data`) and
 * its `?index` form, signed out, as a user and as an admin: route parameters of the wrong type and
 * shape, malformed percent-encodings (overlong, surrogates, cut-off, bare %) in the path and in the
 * query, and wrong-typed values for the query parameters the loaders read. Nothing may answer 5xx;
 * a malformed encoding or a control character in the path answers 400, and a well-encoded parameter
 * of the wrong shape 404. The
 * figures are printed. (fuzz.test.ts fuzzes the bodies of the actions.)
 */

const PORT = 4340;
const SEED = 22_2026;
const RUNS = Number(process.env.FUZZ_GET_RUNS ?? 1500);
const CONCURRENCY = 6;
const UUID = "0b0f7a52-6d2c-4a6e-9d1e-2f1f4c3b5a69";
const GOOD_PARAM: Record<string, string> = {
  userId: UUID,
  licenseId: UUID,
  paymentId: "txn_01fuzz",
  providerId: "github",
};
/** Addresses Express answers itself, before React Router (server/app.ts, server/api-v1.ts). */
const EXPRESS_ROUTES = [
  "healthz",
  "readyz",
  "api/auth/verify-email",
  "api/auth/callback/:providerId",
  "downloads/forgekit-latest.zip",
  "api/v1/keys",
  "api/v1/licenses/file",
  "api/v1/updates/latest",
  "api/v1/openapi.json",
];
/** The query parameters loaders read (searchParams.get), plus React Router's own. */
const QUERY_NAMES = [
  "redirectTo",
  "transactionId",
  "token",
  "tab",
  "secret",
  "linked",
  "license",
  "error",
  "error_description",
  "email",
  "q",
  "page",
  "action",
  "actor",
  "target",
  "from",
  "to",
  "two-factor",
  "current",
  "key",
  "nonce",
  "_routes",
  "index",
];
const MALFORMED = [
  "%C0%AE",
  "%E0%A4%A",
  "%ED%A0%80",
  "%",
  "%zz",
  "%FF",
  "%C3",
  "%F0%9F%98",
  "%E0%80%80",
  "%%41",
  "%u0041",
];
const WRONG_VALUES = [
  "",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "00000000-0000-0000-0000-00000000000z",
  `${UUID}-extra`,
  "txn_",
  "txn_x-y",
  "sub_demo_x",
  "-1",
  "0",
  "1e309",
  "NaN",
  "null",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "' or 1=1 --",
  "../../etc/passwd",
  "<script>",
  "A".repeat(3000),
  "\u0000",
  "\u202e",
  "é",
  "😀",
];
type Identity = "anon" | "user" | "admin";

/**
 * Every route path of the table ("" for the index, the rest as written: `licenses/:licenseId/file`),
 * then Express's own.
 */
const routePaths = memoize((): string[] => {
  const table = fs.readFileSync(path.join(REPO_ROOT, "app/routes.ts"), "utf8");
  const paths: string[] = [];
  for (const match of table.matchAll(/route\("([^"]+)",|index\("/g)) paths.push(match[1] ?? "");
  return [...paths, ...EXPRESS_ROUTES];
});

function memoize<T>(compute: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= compute());
}

/** A value as it goes into an address: percent-encoded, or (raw) a malformed sequence as is. */
const enc = (value: string) => encodeURIComponent(value);

interface GetCase {
  identity: Identity;
  method: "GET" | "HEAD";
  target: string;
  expect: "no-5xx" | "400" | "404";
}

describe("fuzz: generated bad addresses to every route's GET of the built server", () => {
  let server: ServerProcess | undefined;
  let dataDir: string;
  const cookies: Record<Identity, string> = { anon: "", user: "", admin: "" };

  beforeAll(async () => {
    dataDir = tempDir("fk-fuzz-get-");
    server = await startServer({ port: PORT, dataDir, env: { AUTH_RATE_LIMIT: "1000000", API_RATE_LIMIT: "1000000" } });
    cookies.user = await signIn(PORT, "demo@forgekit.example", "user-demo-1");
    cookies.admin = await signIn(PORT, "admin@forgekit.example", "admin-demo-1");
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The expectation for an address: malformed, or a control character in the path (`/licenses/%00/file`)
   * → 400 before any route; else a wrong-shaped parameter → 404.
   */
  function expectationOf(route: string, target: string): GetCase["expect"] {
    if (addressProblem(target) !== null) return "400";
    if (EXPRESS_ROUTES.includes(route)) return "no-5xx";
    const names = paramNames(route);
    if (names.length === 0) return "no-5xx";
    const pathname = target.split("?")[0]!.replace(/\.data$/, "");
    // An empty last parameter leaves the address of a route of its own (`/admin/users/` is the users list).
    if (routePaths().includes(pathname.replace(/^\/|\/$/g, ""))) return "no-5xx";
    const segments = pathname.split("/").slice(1);
    const params: Record<string, string> = {};
    route.split("/").forEach((part, i) => {
      if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(segments[i] ?? "");
    });
    return badRouteParam(params) ? "404" : "no-5xx";
  }

  /** Systematic cases: each route, each parameter given each wrong value and each malformed sequence. */
  function fixedCases(): GetCase[] {
    const cases: GetCase[] = [];
    for (const route of routePaths()) {
      const names = paramNames(route);
      const fill = (wrongName: string | null, value: string) =>
        `/${route.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (name === wrongName ? value : GOOD_PARAM[name]!))}`.replace(
          "*",
          "anything",
        );
      const targets = [fill(null, ""), ...MALFORMED.map((m) => `${fill(null, "")}?x=${m}`)];
      for (const name of names) {
        targets.push(...WRONG_VALUES.map((v) => fill(name, enc(v))), ...MALFORMED.map((m) => fill(name, m)));
      }
      targets.push(`${fill(null, "")}/${MALFORMED[1]}`);
      for (const target of targets) {
        for (const identity of ["anon", "user", "admin"] as const) {
          for (const variant of [target, target.replace(/(\?|$)/, ".data$1")]) {
            cases.push({ identity, method: "GET", target: variant, expect: expectationOf(route, variant) });
          }
        }
      }
    }
    return cases;
  }

  function generatedCase(): fc.Arbitrary<GetCase> {
    const value = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...WRONG_VALUES).map(enc) },
      { weight: 3, arbitrary: fc.constantFrom(...MALFORMED) },
      { weight: 2, arbitrary: fc.string({ maxLength: 20 }).map((s) => enc(s.replace(/[\ud800-\udfff]/g, "x"))) },
      {
        weight: 1,
        arbitrary: fc
          .uint8Array({ maxLength: 6 })
          .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, "0")}`).join("")),
      },
      { weight: 1, arbitrary: fc.constantFrom(UUID, "txn_01fuzz") },
    );
    return fc
      .record({
        route: fc.constantFrom(...routePaths()),
        params: fc.array(value, { minLength: 3, maxLength: 3 }),
        query: fc.array(fc.tuple(fc.constantFrom(...QUERY_NAMES), value), { maxLength: 4 }),
        suffix: fc.constantFrom("", "", "", ".data", "?index", "/"),
        identity: fc.constantFrom<Identity>("anon", "user", "admin"),
        method: fc.constantFrom<"GET" | "HEAD">("GET", "GET", "GET", "HEAD"),
      })
      .map((r) => {
        let i = 0;
        let pathname = `/${r.route.replace(/:([A-Za-z0-9_]+)/g, () => r.params[i++ % 3]!)}`.replace("*", r.params[2]!);
        if (r.suffix === ".data") pathname = `${pathname}.data`;
        if (r.suffix === "/") pathname = `${pathname}/`;
        const query = r.query.map(([k, v]) => `${k}=${v}`).join("&");
        const search = r.suffix === "?index" ? `?index${query ? `&${query}` : ""}` : query ? `?${query}` : "";
        const target = `${pathname}${search}`;
        // Only the address check's 400 is sure here (a trailing slash or suffix changes which route matches).
        return {
          identity: r.identity,
          method: r.method,
          target,
          expect: addressProblem(target) !== null ? "400" : "no-5xx",
        };
      });
  }

  it(
    "answers no 5xx, 400 for every malformed address, 404 for every parameter of the wrong shape",
    { timeout: 600_000 },
    async () => {
      const fixed = fixedCases();
      const cases = [...fixed, ...fc.sample(generatedCase(), { seed: SEED, numRuns: RUNS })];
      const statuses = new Map<string, number>();
      const failures: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          const response = await rawRequest({
            port: PORT,
            method: c.method,
            path: c.target,
            headers: cookies[c.identity] ? { Cookie: cookies[c.identity] } : {},
            timeoutMs: 60_000,
          });
          const status = String(response.status);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const code = typeof response.status === "number" ? response.status : 0;
          const problem =
            code === 0 || code >= 500
              ? `[server error ${status}]`
              : c.expect === "400" && code !== 400
                ? "[expected 400 for a malformed address]"
                : c.expect === "404" && code !== 404
                  ? "[expected 404 for a parameter of the wrong shape]"
                  : null;
          if (problem)
            failures.push(
              `${problem} ${c.identity} ${c.method} ${c.target.slice(0, 200)} → ${status} ${response.body.slice(0, 120)}`,
            );
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const summary = [...statuses]
        .sort()
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ");
      const serverErrors = [...statuses].filter(([s]) => !/^[1-4]\d\d$/.test(s)).reduce((n, [, k]) => n + k, 0);
      console.log(
        `[fuzz-get] requests sent: ${cases.length} (${fixed.length} systematic, ${RUNS} generated, seed ${SEED}); ` +
          `statuses: ${summary}; 5xx or no answer: ${serverErrors}`,
      );
      if (failures.length) console.log(`[fuzz-get] ${failures.length} failures:\n${failures.slice(0, 30).join("\n")}`);
      expect((await fetch(`http://127.0.0.1:${PORT}/healthz`)).status).toBe(200);
      expect(failures).toEqual([]);
    },
  );
});
