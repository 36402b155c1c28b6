import { eq } from "drizzle-orm";
import type { TeamOwnerNames } from "~/domain/team-invitations";
import type { Database, Transaction } from "../db/client.server";
import { profiles } from "../db/schema";

/** What a team's default name is read from (decision 0057): the owner's billing details' name, company and full name. */
export async function teamOwnerNames(
  db: Database | Transaction,
  userId: string,
  email: string,
): Promise<TeamOwnerNames> {
  const [profile] = await db
    .select({ billingName: profiles.billing_name, companyName: profiles.company_name, fullName: profiles.full_name })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return { ...profile, email };
}
