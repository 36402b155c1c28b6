import type { RouterContextProvider } from "react-router";
import { getLogger } from "~/server/logger.server";

export type Attempted<T> = { value: T; error: null } | { value: null; error: string };

/**
 * The reads of one admin page: each failure is logged and gives the page's text instead of a 500.
 * `done()` lets the same admin session get the page again from memory for ten seconds (the job
 * queue's figures), unless any user's data, the audit log or a release changes first (decision
 * 0028); a page showing a failed read is not kept.
 */
export function adminReads(context: Readonly<RouterContextProvider>) {
  let failed = false;
  return {
    async attempt<T>(failure: string, read: () => Promise<T>): Promise<Attempted<T>> {
      try {
        return { value: await read(), error: null };
      } catch (error) {
        getLogger().error({ err: error }, failure);
        failed = true;
        return { value: null, error: failure };
      }
    },
    done() {
      if (!failed) context.reuseAnswerUntil?.(new Date(Date.now() + 10_000), { showsOtherUsers: true });
    },
  };
}
