import { sql } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { PUBLIC_PAGES_CHANNEL } from "./names.server";

const listeners = new Set<() => void>();

/** Runs `listener` whenever what the public pages show changes (the page cache forgets them). */
export function onPublicPagesChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Inside the transaction that changes what public pages show (releases): every app server
 * listening on PostgreSQL hears it when the transaction commits, never before, never if it rolls back.
 */
export async function announcePublicPagesChange(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_notify(${PUBLIC_PAGES_CHANNEL}, 'changed')`);
}

/** In this process, after the commit: PGlite has no other server; on PostgreSQL the others hear the NOTIFY. */
export function publicPagesChangedHere(): void {
  for (const listener of listeners) listener();
}
