import type { AccountActionData, AccountIntent } from "~/domain/account-views";

/**
 * The answers of the profile's account actions (account-actions.server.ts, two-factor-actions.server.ts),
 * as values: the profile route turns them into HTTP (app/http/account-answer.server.ts).
 */

export type AccountToast = NonNullable<AccountActionData["toast"]>;

/** What an account action answers: the page's data with a status, or a redirect that carries a toast. */
export type AccountReply =
  | { kind: "data"; status: number; body: AccountActionData; headers?: HeadersInit }
  | { kind: "redirect"; to: string; toast: AccountToast; status: 302 | 303; headers: Headers };

export function reply(
  intent: AccountIntent,
  status: number,
  body: Partial<AccountActionData>,
  headers?: HeadersInit,
): AccountReply {
  return { kind: "data", status, body: { intent, ok: status < 400, toast: null, fieldErrors: null, ...body }, headers };
}

/**
 * The answer to an action that renewed the session (Better Auth rotates it: the old cookie no longer
 * signs in). The page's scripts post to `/profile.data` and take the new cookie from this answer. A
 * native form post (no JavaScript) is followed by the page's loaders, which would still see the old
 * cookie and send the person to /login: it gets a redirect back to the profile that carries the new
 * cookie instead (post/redirect/get), and the next request's loaders see the new session.
 */
export function renewed(
  request: Request,
  intent: AccountIntent,
  toast: AccountToast,
  headers: Headers,
  section: string,
): AccountReply {
  if (new URL(request.url).pathname.endsWith(".data")) return reply(intent, 200, { toast }, headers);
  return { kind: "redirect", to: `/profile#${section}`, toast, status: 303, headers };
}

/** The sections whose forms are a button only: their refusals are toasts, with no form message to show them. */
const BUTTON_ONLY: readonly AccountIntent[] = ["session-revoke", "sessions-revoke-others"];

/**
 * A refusal: its message for the field (or the form) that the section shows, with the toast's
 * title; the page shows it there and not as a toast too (docs/voice.md), except in a button-only
 * section, where the toast is the one place it is said.
 */
export function refuse(
  intent: AccountIntent,
  status: number,
  title: string,
  description: string,
  field = "form",
): AccountReply {
  return reply(intent, status, {
    toast: { title, description, variant: "destructive" },
    fieldErrors: BUTTON_ONLY.includes(intent) ? null : { [field]: [description] },
  });
}
