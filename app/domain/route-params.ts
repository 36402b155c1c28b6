/**
 * The shape of every route parameter of app/routes.ts, by name (docs/security.md): an id of the wrong shape
 * answers 404 before any loader or action reads it, so it never reaches the database (where a
 * malformed uuid was "invalid input syntax for type uuid", a 500). Each `:name` in the route table
 * must be listed here: the server refuses to start otherwise (server/route-params.ts), and
 * tests/unit/http/route-params.test.ts walks the table.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A payment's id: the provider's transaction id (txn_…). */
const TRANSACTION_ID = /^txn_[A-Za-z0-9_]{1,100}$/;

export const ROUTE_PARAM_SHAPES: Readonly<Record<string, RegExp>> = {
  userId: UUID,
  licenseId: UUID,
  teamId: UUID,
  activationId: UUID,
  paymentId: TRANSACTION_ID,
};

/** Whether a value is a UUID (ids from routes, forms and payloads are checked before any query). */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** Whether a value is a transaction id (txn_…). */
export function isTransactionId(value: unknown): value is string {
  return typeof value === "string" && TRANSACTION_ID.test(value);
}

/** The first parameter whose value has the wrong shape (or has no declared shape), or null. */
export function badRouteParam(params: Readonly<Record<string, string | undefined>>): string | null {
  for (const [name, value] of Object.entries(params)) {
    if (name === "*" || value === undefined) continue;
    const shape = ROUTE_PARAM_SHAPES[name];
    if (!shape || !shape.test(value)) return name;
  }
  return null;
}

/** The `:name` parameters of a route path (`admin/users/:userId` → ["userId"]). */
export function paramNames(routePath: string): string[] {
  return [...routePath.matchAll(/:([A-Za-z0-9_]+)\??/g)].map((m) => m[1]!);
}
