/** A refused action: the HTTP status and the text the user sees (spec.md section 8 where it has one). */
export class ActionError extends Error {
  constructor(
    public readonly status: 400 | 404 | 409 | 422 | 502,
    message: string,
  ) {
    super(message);
    this.name = "ActionError";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a UUID (ids from forms and payloads are checked before any query). */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
