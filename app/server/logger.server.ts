import pino from "pino";
import { getEnv } from "./env.server";

let logger: pino.Logger | undefined;

/** The process's JSON logger (one line per event, to stdout). */
export function getLogger(): pino.Logger {
  logger ??= pino({ level: getEnv().LOG_LEVEL, base: undefined });
  return logger;
}
