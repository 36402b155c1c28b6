import pg from "pg";
import type { Logger } from "pino";

export interface ChangeListener {
  close: () => Promise<void>;
}

/**
 * Listens on PostgreSQL for changes made by any app server (NOTIFY, delivered when the change
 * commits), on a connection of its own: `channels` maps each channel to what to do with a
 * notification's payload. `onConnection(true)` runs once listening, `onConnection(false)` when the
 * connection is lost (a notification may be missed until it is back: whatever was cached must be
 * forgotten and nothing cached meanwhile). Reconnects every second after a failure.
 */
export async function listenForChanges(
  url: string,
  channels: Record<string, (payload: string) => void>,
  onConnection: (listening: boolean) => void,
  logger: Logger,
): Promise<ChangeListener> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (first: boolean): Promise<void> => {
    // Keep-alive probes: a connection that dies silently (a dropped network path) still ends in "error".
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on("notification", (message) => {
      channels[message.channel]?.(message.payload ?? "");
    });
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      logger.warn({ err: error }, "the change listener lost its connection to PostgreSQL; reconnecting");
      void next.end().catch(() => {});
      if (client === next) client = null;
      onConnection(false);
      if (!closed) retry = setTimeout(() => void connect(false), 1000);
    };
    next.on("error", fail);
    try {
      await next.connect();
      for (const channel of Object.keys(channels)) await next.query(`LISTEN ${channel}`);
    } catch (error) {
      // At start-up the site does not start without it; later, it tries again.
      if (first) {
        failed = true;
        void next.end().catch(() => {});
        throw error;
      }
      fail(error);
      return;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    onConnection(true);
  };
  await connect(true);
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      onConnection(false);
      await client?.end().catch(() => {});
    },
  };
}
