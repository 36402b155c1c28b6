import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiV1 } from "../../../server/api-v1";
import { eventsApi } from "../../../server/api-v1-events";
import { leasesApi } from "../../../server/api-v1-leases";
import { releasesApi } from "../../../server/api-v1-releases";
import { parseEnv, setEnv } from "~/server/env.server";
import { MAX_KEY_LENGTH, MAX_MACHINE_LENGTH, OFFLINE_DATA_RULES } from "~/server/license-api/api-input.server";
import { LICENSE_FILE_REFRESH_DAYS } from "~/server/license-api/license-file.server";
import { OPENAPI_PLACEHOLDERS, openApiDocument } from "~/server/license-api/openapi.server";
import { CODE_DETAILS, LICENSE_CODES } from "~/server/license-api/validate-license.server";
import { LICENSE_TYPES } from "~/domain/plans";
import { LEASE_TTL_DEFAULT_MINUTES, LEASE_TTL_MAX_MINUTES, LEASE_TTL_MIN_MINUTES } from "~/domain/leases";
import { LEASE_CODE_DETAILS, LEASE_CODE_STATUS, LEASE_CODES } from "~/server/license-api/leases-api.server";

// The desktop API's contract is a data file: it must stay a valid OpenAPI 3.x document, state
// the license API's real limits and codes, and document exactly the routes server/api-v1.ts answers.

type Json = Record<string, unknown>;
const FILE = path.resolve(import.meta.dirname, "../../../app/server/license-api/openapi.json");
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const text = fs.readFileSync(FILE, "utf8");
const doc = JSON.parse(text) as Json;
const at = (value: unknown, ...keys: string[]): Json =>
  keys.reduce((node, key) => (node as Json)[key] as Json, value as Json);
const schema = (name: string) => at(doc, "components", "schemas", name);

/** Every string value in value, with where it is. */
function strings(value: unknown, where = "#"): [string, string][] {
  if (typeof value === "string") return [[where, value]];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => strings(item, `${where}/${key}`));
}

/** Every $ref in value. */
function refs(value: unknown): string[] {
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === "$ref" && typeof item === "string" ? [item] : refs(item),
  );
}

describe("openapi.json", () => {
  it("is an OpenAPI 3.x document: info, servers, paths with operations and responses, components", () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(typeof at(doc, "info").title).toBe("string");
    expect(typeof at(doc, "info").version).toBe("string");
    expect(Array.isArray(doc.servers)).toBe(true);
    const paths = Object.entries(at(doc, "paths"));
    expect(paths.length).toBeGreaterThan(0);
    for (const [route, item] of paths) {
      expect(route).toMatch(/^\//);
      const operations = Object.keys(item as Json);
      expect(operations.length).toBeGreaterThan(0);
      for (const method of operations) {
        expect(HTTP_METHODS).toContain(method);
        expect(Object.keys(at(item, method, "responses")).length).toBeGreaterThan(0);
      }
    }
  });

  it("resolves every $ref inside the document", () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(20);
    for (const ref of all) {
      expect(ref).toMatch(/^#\//);
      expect(at(doc, ...ref.slice(2).split("/")), ref).toBeDefined();
    }
  });

  it("names only the deployment values the server fills in, and the served document has none left", () => {
    const names = [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]);
    expect(new Set(names)).toEqual(new Set(OPENAPI_PLACEHOLDERS));
    setEnv({ ...parseEnv({ DATA_DIR: "/nonexistent" }), PRODUCT_NAME: 'Forge "Kit"', API_RATE_LIMIT: 7 });
    const served = openApiDocument();
    expect(strings(served).filter(([, value]) => value.includes("{{"))).toEqual([]);
    expect(at(served, "info").title).toBe('Forge "Kit" desktop API');
    expect(at(served, "info").description).toContain("limited to 7 a minute");
    expect(at(served, "servers", "0").url).toBe("http://localhost:3000/api/v1");
  });

  it("states the license API's own codes, limits and rules", () => {
    expect(schema("Code").enum).toEqual([...LICENSE_CODES]);
    expect(schema("Code").description).toBe(
      "Decided in this order: " + LICENSE_CODES.map((code) => `${code} (${CODE_DETAILS[code]})`).join(", "),
    );
    for (const request of ["ValidateRequest", "ActivateRequest"]) {
      expect(at(schema(request), "properties", "key").maxLength).toBe(MAX_KEY_LENGTH);
      for (const field of ["windows_username", "computer_name"] as const)
        expect(at(schema(request), "properties", field).maxLength).toBe(MAX_MACHINE_LENGTH);
    }
    for (const field of ["windows_username", "computer_name"] as const)
      expect(at(schema("ActivateRequest"), "properties", field).description).toContain(OFFLINE_DATA_RULES[field]);
    const fileKey = (at(doc, "paths", "/licenses/file", "get").parameters as Json[]).find((p) => p.name === "key");
    expect(at(fileKey, "schema").maxLength).toBe(MAX_KEY_LENGTH);
    expect(at(schema("LicenseFile"), "properties", "payload").description).toContain(
      `issued_at + ${LICENSE_FILE_REFRESH_DAYS} days`,
    );
  });

  it("states the floating leases' codes, their statuses and the time to live's bounds", () => {
    expect(schema("LeaseCode").enum).toEqual([...LEASE_CODES]);
    for (const code of LEASE_CODES) {
      expect(schema("LeaseCode").description).toContain(`${code} (${LEASE_CODE_STATUS[code]}:`);
      expect(LEASE_CODE_DETAILS[code]).toMatch(/\.$/);
    }
    const take = at(schema("LeaseRequest"), "properties", "ttl_minutes");
    expect([take.minimum, take.maximum, take.default]).toEqual([
      LEASE_TTL_MIN_MINUTES,
      LEASE_TTL_MAX_MINUTES,
      LEASE_TTL_DEFAULT_MINUTES,
    ]);
    const beat = at(schema("LeaseHeartbeatRequest"), "properties", "ttl_minutes");
    expect([beat.minimum, beat.maximum]).toEqual([LEASE_TTL_MIN_MINUTES, LEASE_TTL_MAX_MINUTES]);
  });

  it("lists the plan table's license types, no more and no fewer", () => {
    expect([...(at(schema("License"), "properties", "license_type").enum as string[])].sort()).toEqual(
      [...LICENSE_TYPES].sort(),
    );
  });

  it("documents every route the desktop API answers, and no other", () => {
    const answered = [...apiV1.stack, ...leasesApi.stack, ...releasesApi.stack, ...eventsApi.stack]
      .filter((layer) => layer.route)
      .flatMap((layer) =>
        Object.keys((layer.route as unknown as { methods: Json }).methods).map(
          (m) => `${m} ${String(layer.route!.path).replace(/:(\w+)/g, "{$1}")}`,
        ),
      );
    const documented = Object.entries(at(doc, "paths")).flatMap(([route, item]) =>
      Object.keys(item as Json).map((method) => `${method} ${route}`),
    );
    expect(answered.length).toBeGreaterThanOrEqual(6);
    expect(documented.sort()).toEqual(answered.sort());
  });
});
