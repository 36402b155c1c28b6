import pg from "pg";
import type { Logger } from "pino";
import { PUBLIC_PAGES_CHANNEL } from "../app/server/public-pages.server";

/**
 * Listens on PostgreSQL for changes of the public pages made by any app server (NOTIFY on commit),
 * on a connection of its own, reconnecting after a failure — and forgetting every page then, since
 * a notification may have been missed while it was away.
 */
export async function listenForPublicPageChanges(
  url: string,
  onChange: () => void,
  logger: Logger,
): Promise<{ close: () => Promise<void> }> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === PUBLIC_PAGES_CHANNEL) onChange();
    });
    next.on("error", (error) => {
      logger.warn({ err: error }, "the public-pages listener lost its connection; reconnecting");
      void next.end().catch(() => {});
      if (client === next) client = null;
      onChange();
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    await next.connect();
    await next.query(`LISTEN ${PUBLIC_PAGES_CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  };
  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
