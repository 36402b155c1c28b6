import { and, eq, inArray } from "drizzle-orm";
import { getCurrentSession } from "./auth/session.server";
import { getDb } from "./db/db.server";
import { team_members } from "./db/schema";
import { readToast, type FlashToast } from "./toast.server";

/** Whether the user owns or manages a team (the nav then links to /team, issue 30). */
async function runsTeam(userId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ team: team_members.team_id })
    .from(team_members)
    .where(and(eq(team_members.user_id, userId), inArray(team_members.role, ["owner", "manager"])))
    .limit(1);
  return Boolean(row);
}

/**
 * What the root loader gives every page: the signed-in user and role (so the nav renders
 * right on the server), whether they run a team, and the pending flash toast. `headers` carries
 * cookies to set.
 */
export async function getRootSession(request: Request) {
  const session = await getCurrentSession(request);
  const { toast, setCookie } = await readToast(request);
  const headers = new Headers(session.headers);
  if (setCookie) headers.append("Set-Cookie", setCookie);
  const team = session.user ? await runsTeam(session.user.id) : false;
  return { user: session.user, role: session.role, runsTeam: team, toast: toast as FlashToast | null, headers };
}
