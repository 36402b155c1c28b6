/** A refused admin action: the HTTP status and the spec's text. */
export class AdminActionError extends Error {
  constructor(
    public readonly status: 400 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
    this.name = "AdminActionError";
  }
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
