import { getCurrentSession } from "./auth/session.server";
import { readToast, type FlashToast } from "./toast.server";

/**
 * What the root loader gives every page: the signed-in user and role (so the nav renders
 * right on the server), and the pending flash toast. `headers` carries cookies to set.
 */
export async function getRootSession(request: Request) {
  const session = await getCurrentSession(request);
  const { toast, setCookie } = await readToast(request);
  const headers = new Headers(session.headers);
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return { user: session.user, role: session.role, toast: toast as FlashToast | null, headers };
}
