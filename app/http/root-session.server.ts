import { getCurrentSession } from "~/server/auth/session.server";
import { readToast, type FlashToast } from "./toast.server";

/**
 * What the root loader gives every page: the signed-in user and role (so the nav renders
 * right on the server), whether they run a team (read with the session), and the pending flash toast. `headers` carries
 * cookies to set.
 */
export async function getRootSession(request: Request) {
  const session = await getCurrentSession(request);
  const { toast, setCookie } = await readToast(request);
  const headers = new Headers(session.headers);
  if (setCookie) headers.append("Set-Cookie", setCookie);
  const { user, role, runsTeam } = session;
  return { user, role, runsTeam: Boolean(user) && runsTeam, toast: toast as FlashToast | null, headers };
}
