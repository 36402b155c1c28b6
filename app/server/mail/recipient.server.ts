import { eq } from "drizzle-orm";
import type { Brand } from "~/emails/layout.server";
import { getDb } from "../db/db.server";
import { profiles, users } from "../db/schema";
import { getEnv } from "../env.server";

/** The product's name, the site's address and the support address every e-mail shows. */
export function mailBrand(): Brand {
  const env = getEnv();
  return { productName: env.PRODUCT_NAME, publicUrl: env.PUBLIC_URL, supportEmail: env.SUPPORT_EMAIL };
}

/** Whom an e-mail about an account goes to: its address and the name to greet (the profile's, else the account's). */
export async function recipientOf(userId: string): Promise<{ email: string; name: string } | null> {
  const [row] = await getDb()
    .select({ email: users.email, name: users.name, full_name: profiles.full_name })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  return row ? { email: row.email, name: row.full_name || row.name } : null;
}
