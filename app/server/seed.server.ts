import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "./db/client.server";
import { accounts, licenses, profiles, releases, user_roles, users, type NewLicense } from "./db/schema";
import { licenseKeys } from "./licenses/keys.server";

/** The demo accounts created in embedded mode (printed by the start-up banner). */
export const DEMO_ACCOUNTS = [
  { role: "admin", email: "admin@forgekit.example", password: "admin-demo-1", fullName: "Avery Admin", company: "ForgeKit Ltd." },
  { role: "user", email: "demo@forgekit.example", password: "user-demo-1", fullName: "Dana Developer", company: "Northwind Tools" },
] as const;

export const SEED_RELEASES = [
  {
    version: "2.4.0",
    title: "Batch generation",
    release_date: "2026-11-03",
    release_notes: [
      "Generate several components from one template in a single run, with a summary of every file written.",
      "The preview pane now shows a side-by-side diff of each generated file before it is saved.",
      "Templates can declare required parameters; the run stops early with a clear list of what is missing.",
      "Fixed a crash when a component folder contained a read-only file.",
    ],
  },
  {
    version: "2.3.2",
    title: "Stability fixes",
    release_date: "2026-09-18",
    release_notes: [
      "Fixed project loading on paths longer than 260 characters.",
      "Offline license activation now accepts computer names with lowercase letters.",
      "Reduced memory use when previewing solutions with more than 500 components.",
    ],
  },
  {
    version: "2.3.0",
    title: "Change sets",
    release_date: "2026-08-05",
    release_notes: [
      "Save a set of changes under a name and apply it to other components later.",
      "Change sets can be exported to a file and shared with your team.",
      "New keyboard shortcut Ctrl+Shift+P opens the preview for the current change set.",
    ],
  },
  {
    version: "2.2.0",
    title: "Visual Studio 2026 support",
    release_date: "2026-05-21",
    release_notes: [
      "Loads solutions and project files created with Visual Studio 2026.",
      "Generated components keep the original file encoding and line endings.",
      "The component tree can be filtered by name, type and last-modified date.",
    ],
  },
  {
    version: "2.1.0",
    title: "Faster previews",
    release_date: "2026-03-02",
    release_notes: [
      "Previews render up to three times faster on large components.",
      "Undo and redo now cover every change in the definition editor.",
      "Fixed the preview not refreshing after a template file was renamed.",
    ],
  },
  {
    version: "2.0.0",
    title: "A new engine",
    release_date: "2026-01-12",
    release_notes: [
      "Rewritten generation engine with support for custom template functions.",
      "Projects open in the background, so you can start defining changes at once.",
      "Settings moved to a per-project file that can be committed with your code.",
      "Windows 10 version 1809 or later is now required.",
    ],
  },
];

const DAY = 24 * 60 * 60 * 1000;

/** One license for each state the licenses page distinguishes (spec section 4). */
export function demoLicenses(userId: string, email: string, now = new Date()): NewLicense[] {
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const base = { user_id: userId, email };
  const rows: Omit<NewLicense, "license_key">[] = [
    {
      ...base, license_type: "monthly", status: "active", start_date: at(-10), end_date: at(20),
      auto_renew: true, paddle_subscription_id: "sub_demo_seed_renewing", purchase_date: at(-10),
      refund_eligible_until: at(4), created_at: at(-10),
    },
    {
      ...base, license_type: "yearly", status: "active", start_date: at(-40), end_date: at(325),
      auto_renew: false, cancellation_requested: true, cancellation_requested_at: at(-2),
      paddle_subscription_id: "sub_demo_seed_cancelling", purchase_date: at(-40),
      refund_eligible_until: at(-26), created_at: at(-40),
    },
    {
      ...base, license_type: "trial", status: "active", start_date: at(-2), end_date: at(5),
      is_trial: true, trial_starts_at: at(-2), trial_ends_at: at(5), created_at: at(-2),
    },
    {
      ...base, license_type: "trial", status: "active", start_date: at(-120), end_date: at(-113),
      is_trial: true, trial_starts_at: at(-120), trial_ends_at: at(-113), created_at: at(-120),
    },
    {
      ...base, license_type: "6_months", status: "active", start_date: at(-200), end_date: at(-17),
      auto_renew: false, paddle_subscription_id: "sub_demo_seed_expired", purchase_date: at(-200),
      refund_eligible_until: at(-186), created_at: at(-200),
    },
    {
      ...base, license_type: "monthly", status: "revoked", start_date: at(-15), end_date: at(15),
      paddle_subscription_id: "sub_demo_seed_revoked", purchase_date: at(-15),
      refund_eligible_until: at(-1), created_at: at(-15),
    },
    {
      ...base, license_type: "yearly", status: "refund_requested", start_date: at(-5), end_date: at(360),
      auto_renew: true, paddle_subscription_id: "sub_demo_seed_refund_requested", purchase_date: at(-5),
      refund_eligible_until: at(9), created_at: at(-5),
    },
    {
      ...base, license_type: "6_months", status: "refunded", start_date: at(-30), end_date: at(152),
      paddle_subscription_id: "sub_demo_seed_refunded", purchase_date: at(-30),
      refund_eligible_until: at(-16), refunded: true, refund_amount: 4703, refunded_at: at(-25),
      created_at: at(-30),
    },
    {
      ...base, license_type: "tester", status: "active", start_date: at(-1), end_date: at(29),
      created_at: at(-1),
    },
  ];
  return rows.map((row) => ({
    ...row,
    license_key: licenseKeys().generate({ email, start_date: row.start_date!, end_date: row.end_date }),
  }));
}

/**
 * Demo content for embedded mode: releases, an admin and an ordinary user (e-mail
 * verified), and the ordinary user's licenses. Idempotent: what exists is left alone.
 */
export async function seedDemoData(db: Database, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    // Serialise concurrent seeds (several app servers on one PostgreSQL).
    await tx.execute(sql`select pg_advisory_xact_lock(727372002)`);
    for (const release of SEED_RELEASES) {
      const existing = await tx.select({ id: releases.id }).from(releases).where(eq(releases.version, release.version));
      if (existing.length === 0) await tx.insert(releases).values(release);
    }
    for (const account of DEMO_ACCOUNTS) {
      const existing = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${account.email}`);
      if (existing.length > 0) continue;
      const [user] = await tx
        .insert(users)
        .values({ name: account.fullName, email: account.email, emailVerified: true })
        .returning({ id: users.id });
      const userId = user!.id;
      await tx.insert(accounts).values({
        accountId: userId,
        providerId: "credential",
        userId,
        password: await hashPassword(account.password),
      });
      await tx.insert(profiles).values({ id: userId, full_name: account.fullName, company_name: account.company });
      await tx.insert(user_roles).values({ user_id: userId, role: account.role });
      if (account.role === "user") await tx.insert(licenses).values(demoLicenses(userId, account.email, now));
    }
  });
}
