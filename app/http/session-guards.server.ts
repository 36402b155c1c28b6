import { redirect } from "react-router";
import type { SessionUser } from "~/domain/views";
import { getCurrentSession, loginUrl } from "~/server/auth/session.server";

/** Guard: the signed-in user, or a redirect to /login (and back here afterwards). */
export async function requireUser(request: Request): Promise<SessionUser> {
  const { user } = await getCurrentSession(request);
  if (!user) throw redirect(loginUrl(request));
  return user;
}

/** Guard for sign-in and registration pages: signed-in users go to /. */
export async function requireAnonymous(request: Request): Promise<void> {
  const { user } = await getCurrentSession(request);
  if (user) throw redirect("/");
}
