import { data } from "react-router";
import type { AccountActionData, AccountIntent } from "~/domain/account-views";
import { redirectWithToast } from "../toast.server";

/** The answers of the profile's account actions (account-actions.server.ts, two-factor-actions.server.ts). */

export type AccountToast = NonNullable<AccountActionData["toast"]>;

export function reply(intent: AccountIntent, status: number, body: Partial<AccountActionData>, headers?: HeadersInit) {
  return data<AccountActionData>(
    { intent, ok: status < 400, toast: null, fieldErrors: null, ...body },
    { status, headers },
  );
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
) {
  if (new URL(request.url).pathname.endsWith(".data")) return reply(intent, 200, { toast }, headers);
  return redirectWithToast(`/profile#${section}`, toast, { status: 303, headers });
}

export function refuse(intent: AccountIntent, status: number, title: string, description: string, field = "form") {
  return reply(intent, status, {
    toast: { title, description, variant: "destructive" },
    fieldErrors: { [field]: [description] },
  });
}
