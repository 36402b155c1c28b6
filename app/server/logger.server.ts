import pino from "pino";
import { getEnv } from "./env.server";

let logger: pino.Logger | undefined;

/**
 * The process's JSON logger (one line per event, to stdout). Written asynchronously, so a request's
 * log line never waits for the terminal or the log collector (flushed when the site stops).
 */
export function getLogger(): pino.Logger {
  logger ??= pino({ level: getEnv().LOG_LEVEL, base: undefined }, pino.destination({ dest: 1, sync: false }));
  return logger;
}

/** Writes out what the logger still holds (at shutdown). */
export function flushLogs(): void {
  logger?.flush();
}
