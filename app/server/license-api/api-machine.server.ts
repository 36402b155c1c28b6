import type { Machine } from "../db/schema";

/** A machine as the desktop API shows it (the fingerprint never: the site keeps only its hash). */
export interface ApiMachine {
  name: string;
  platform: string | null;
  app_version: string | null;
  activated_at: string;
  last_seen_at: string;
}

export function apiMachine(machine: Machine): ApiMachine {
  return {
    name: machine.name,
    platform: machine.platform,
    app_version: machine.app_version,
    activated_at: machine.activated_at.toISOString(),
    last_seen_at: machine.last_seen_at.toISOString(),
  };
}
