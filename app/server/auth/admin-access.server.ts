import type { SessionUser } from "~/domain/views";
import { getCurrentSession, TWO_FACTOR_ENROL_PATH, TWO_FACTOR_REQUIRED_MESSAGE } from "./session.server";

const SIGNED_OUT_MESSAGE = "Please log in again.";
const NOT_AN_ADMIN_MESSAGE = "Only administrators can do this.";

/** Why a request may not enter the admin area: its status, the text a post or file is told, the page a read goes to. */
export interface AdminRefusal {
  status: 401 | 403;
  message: string;
  pageTo: string;
}

/**
 * Who may enter /admin (decision 0026): the admin, or why not. Signed out: 401 (a page: sent to /);
 * a user: 403 (a page: sent to /); an admin without two-factor: 403 (a page: sent to turn it on). A
 * write reads the session and role from the database, never from a copy this server remembers
 * (getCurrentSession), so a demoted admin's next write is refused on every server. The answer is a
 * value: the route layer's adminGuard (app/http/admin-guard.server.ts) turns a refusal into HTTP.
 */
export async function adminAccess(
  request: Request,
): Promise<{ admin: SessionUser; refused: null } | { admin: null; refused: AdminRefusal }> {
  const { user, role, twoFactorEnabled } = await getCurrentSession(request);
  const refused = (status: 401 | 403, message: string, pageTo: string) => ({
    admin: null,
    refused: { status, message, pageTo },
  });
  if (!user) return refused(401, SIGNED_OUT_MESSAGE, "/");
  if (role !== "admin") return refused(403, NOT_AN_ADMIN_MESSAGE, "/");
  if (!twoFactorEnabled) return refused(403, TWO_FACTOR_REQUIRED_MESSAGE, TWO_FACTOR_ENROL_PATH);
  return { admin: user, refused: null };
}
