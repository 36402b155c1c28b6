/** A refused action: the HTTP status and the text the user sees (docs/product.md where it names one). */
export class ActionError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404 | 409 | 422 | 429 | 502,
    message: string,
  ) {
    super(message);
    this.name = "ActionError";
  }
}

/** Whether a value is a UUID (ids from forms and payloads are checked before any query). */
export { isUuid } from "~/domain/route-params";
