import { eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { profiles, users } from "../db/schema";
import { getAuth } from "./auth.server";
import { announceSessionChange } from "../cache/caches.server";

export interface ProfileInput {
  full_name: string;
  company_name: string | null;
  email: string;
}

/** The profile page's data: names from profiles, the e-mail from the account. */
export async function getProfile(userId: string) {
  const [row] = await getDb()
    .select({ full_name: profiles.full_name, company_name: profiles.company_name, email: users.email })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  return { full_name: row?.full_name ?? "", company_name: row?.company_name ?? "", email: row?.email ?? "" };
}

/**
 * Saves names at once. A new e-mail address only takes effect when the link sent to it is
 * followed (Better Auth's change-email flow); returns whether such a link was sent.
 */
export async function updateProfile(
  userId: string,
  currentEmail: string,
  input: ProfileInput,
  request: Request,
): Promise<{ emailChangePending: boolean }> {
  const db = getDb();
  await db.transaction(async (tx) => {
    await tx
      .insert(profiles)
      .values({ id: userId, full_name: input.full_name, company_name: input.company_name })
      .onConflictDoUpdate({
        target: profiles.id,
        set: { full_name: input.full_name, company_name: input.company_name },
      });
    await tx.update(users).set({ name: input.full_name, updatedAt: new Date() }).where(eq(users.id, userId));
  });
  // The name shows on every signed-in page: remembered sessions of this user are forgotten everywhere.
  await announceSessionChange(userId);
  if (input.email.toLowerCase() === currentEmail.toLowerCase()) return { emailChangePending: false };
  await getAuth().api.changeEmail({
    body: { newEmail: input.email, callbackURL: "/profile" },
    headers: request.headers,
  });
  return { emailChangePending: true };
}
