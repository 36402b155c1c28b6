// What bench/compare.ts adds to each server's database after its first boot (the demo seed): a team
// owner with 50 members, each with a seat license, and licenses with a machine for the desktop API.
// Rows only (the tables every compared commit has since teams, decision 0046), written with this tree's
// schema; keys made with the data directory's own secrets, the ones that server reads.
import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "../../app/server/db/client.server";
import { accounts, licenses, profiles, team_members, teams, users } from "../../app/server/db/schema";
import { parseEnv } from "../../app/server/env.server";
import { createLicenseKeys } from "../../app/server/license-keys/license-key.server";
import { seed as seedApiLicenses, type Call } from "../license-api/seed";

const DAY = 86_400_000;
export const TEAM_OWNER = { email: "team-owner@forgekit.example", password: "team-owner-1" };
export const TEAM_MEMBERS = 50;

export interface Seeded {
  demoUserId: string;
  ownerId: string;
  teamId: string;
  calls: Call[];
}

async function newUser(database: DatabaseHandle, email: string, name: string): Promise<string> {
  const [user] = await database.db
    .insert(users)
    .values({ email, name, emailVerified: true })
    .returning({ id: users.id });
  await database.db.insert(profiles).values({ id: user!.id, full_name: name });
  return user!.id;
}

/** The owner (a password account), the team's subscription license and 50 members with their seats. */
async function seedTeam(database: DatabaseHandle, dataDir: string): Promise<{ ownerId: string; teamId: string }> {
  const env = parseEnv({ NODE_ENV: "development", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const keys = createLicenseKeys(env.LICENSE_SECRET, env.LICENSE_SALT);
  const start = new Date(Date.now() - 10 * DAY);
  const end = new Date(Date.now() + 355 * DAY);
  const key = (email: string) =>
    keys.generate({ email, windows_username: null, computer_name: null, start_date: start, end_date: end });
  const ownerId = await newUser(database, TEAM_OWNER.email, "Olive Owner");
  await database.db.insert(accounts).values({
    accountId: ownerId,
    providerId: "credential",
    userId: ownerId,
    password: await hashPassword(TEAM_OWNER.password),
  });
  const subscription = "sub_bench_team";
  const [team] = await database.db
    .insert(teams)
    .values({
      name: "Bench Team",
      owner_id: ownerId,
      plan_type: "yearly",
      subscription_id: subscription,
      seats_paid: TEAM_MEMBERS,
    })
    .returning({ id: teams.id });
  const teamId = team!.id;
  const common = {
    license_type: "yearly" as const,
    status: "active" as const,
    start_date: start,
    end_date: end,
    auto_renew: true,
    purchase_date: start,
    refund_eligible_until: new Date(start.getTime() + 14 * DAY),
    team_id: teamId,
  };
  await database.db.insert(licenses).values({
    ...common,
    user_id: ownerId,
    email: TEAM_OWNER.email,
    license_key: key(TEAM_OWNER.email),
    paddle_subscription_id: subscription,
    team_role: "billing",
  });
  await database.db.insert(team_members).values({ team_id: teamId, user_id: ownerId, role: "owner" });
  for (let i = 0; i < TEAM_MEMBERS; i++) {
    const email = `member-${String(i).padStart(2, "0")}@bench-team.example`;
    const userId = await newUser(database, email, `Member ${i}`);
    await database.db.insert(team_members).values({ team_id: teamId, user_id: userId, role: "member" });
    const [seat] = await database.db
      .insert(licenses)
      .values({ ...common, user_id: userId, email, license_key: key(email), team_role: "seat" })
      .returning({ id: licenses.id });
    await database.db
      .update(team_members)
      .set({ seat_license_id: seat!.id })
      .where(sql`${team_members.team_id} = ${teamId} and ${team_members.user_id} = ${userId}`);
  }
  return { ownerId, teamId };
}

/** Seeds a booted server's database (its server stopped when it is PGlite). */
export async function seedForCompare(database: DatabaseHandle, dataDir: string): Promise<Seeded> {
  const [demo] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, "demo@forgekit.example"));
  if (!demo) throw new Error("the demo customer is missing: was the server booted with its embedded defaults?");
  const { ownerId, teamId } = await seedTeam(database, dataDir);
  const calls = await seedApiLicenses(database, dataDir, 50);
  return { demoUserId: demo.id, ownerId, teamId, calls };
}
