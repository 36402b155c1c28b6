import { getEnv, type Env } from "../env.server";
import document from "./openapi.json";

/**
 * The deployment's values openapi.json names as {{NAME}}: the rest of the document is fixed. The
 * limits, codes and rules it states are the license API's own constants; tests/unit/api/openapi.test.ts
 * checks they agree, and that it documents exactly the routes server/api-v1.ts answers.
 */
export const OPENAPI_PLACEHOLDERS = [
  "PRODUCT_NAME",
  "PUBLIC_URL",
  "API_RATE_LIMIT",
  "API_KEY_RATE_LIMIT",
] as const satisfies (keyof Env)[];

/** GET /api/v1/openapi.json: the desktop API's contract (docs/desktop-api.md) as an OpenAPI 3.1 document. */
export function openApiDocument(): Record<string, unknown> {
  const env = getEnv();
  return fillIn(document, (name) =>
    (OPENAPI_PLACEHOLDERS as readonly string[]).includes(name) ? String(env[name as keyof Env]) : undefined,
  ) as Record<string, unknown>;
}

/** A copy of value with every {{NAME}} in its strings replaced by valueOf(NAME) (unknown names stay). */
function fillIn(value: unknown, valueOf: (name: string) => string | undefined): unknown {
  if (typeof value === "string")
    return value.replaceAll(/\{\{(\w+)\}\}/g, (whole, name: string) => valueOf(name) ?? whole);
  if (Array.isArray(value)) return value.map((item) => fillIn(item, valueOf));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillIn(item, valueOf)]));
  return value;
}
