import { getTableColumns, inArray, or } from "drizzle-orm";
import type { AdminLicenseView } from "~/domain/admin-user";
import { getDb } from "../db/db.server";
import { licenses, payments } from "../db/schema";
import { adminLicenseView } from "./admin-license-view.server";
import type { UserPage } from "./search-users.server";
import { renewalSeatsColumn } from "../teams/renewal-seats.server";

/**
 * The license a search result matched by (a short id, key, subscription or transaction), so the
 * result shows its state as its owner sees it (decision 0030): one query for the page's matches.
 */
export async function withMatchedLicenses(page: UserPage): Promise<UserPage> {
  const shortIds: string[] = [];
  const subscriptions: string[] = [];
  const transactions: string[] = [];
  for (const { match } of page.users) {
    if (match?.kind === "short_id" || match?.kind === "license_key") shortIds.push(match.value);
    if (match?.kind === "subscription") subscriptions.push(match.value);
    if (match?.kind === "transaction") transactions.push(match.value);
  }
  if (shortIds.length + subscriptions.length + transactions.length === 0) return page;
  const conditions = [
    shortIds.length ? inArray(licenses.short_id, shortIds) : undefined,
    subscriptions.length ? inArray(licenses.paddle_subscription_id, subscriptions) : undefined,
    transactions.length
      ? inArray(
          licenses.id,
          getDb().select({ id: payments.license_id }).from(payments).where(inArray(payments.id, transactions)),
        )
      : undefined,
  ];
  const rows = await getDb()
    .select({ ...getTableColumns(licenses), renewal_seats: renewalSeatsColumn })
    .from(licenses)
    .where(or(...conditions));
  const paid = transactions.length
    ? await getDb()
        .select({ id: payments.id, license_id: payments.license_id })
        .from(payments)
        .where(inArray(payments.id, transactions))
    : [];
  const find = (kind: string, value: string): AdminLicenseView | undefined => {
    const row =
      kind === "subscription"
        ? rows.find((l) => l.paddle_subscription_id === value)
        : kind === "transaction"
          ? rows.find((l) => l.id === paid.find((p) => p.id === value)?.license_id)
          : rows.find((l) => l.short_id === value);
    return row ? adminLicenseView(row) : undefined;
  };
  return {
    ...page,
    users: page.users.map((user) => {
      const license = user.match ? find(user.match.kind, user.match.value) : undefined;
      return license ? { ...user, license } : user;
    }),
  };
}
