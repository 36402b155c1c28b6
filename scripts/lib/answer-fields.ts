// What `npm run license:verify` reads from a verified body beyond its signature: the entitlements and
// the perpetual fallback a validation answer or license file carries, and the rollout, critical flag
// and minimum version of an update check (docs/desktop-api.md). A body built before these fields has
// none: null, never a guess.

export interface Entitlements {
  names: string[];
  /** A license file's entitlements_as_of (the file's issued_at); null in an answer. */
  asOf: string | null;
}

/** The perpetual fallback (decision 0070): the version kept once the subscription ends, and until when every version is included. */
export interface FallbackFacts {
  version: string | null;
  updatesUntil: string | null;
}

export interface UpdateFacts {
  version: string | null;
  rollout: number | null;
  critical: boolean | null;
  minimumVersion: string | null;
  updateRequired: boolean | null;
  criticalUpdate: boolean | null;
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : null;

/** The entitlements of a license file's payload or of an answer's `license`, when it carries them. */
export function entitlementsIn(source: unknown): Entitlements | null {
  const fields = fieldsOf(source);
  if (!fields || !Array.isArray(fields.entitlements)) return null;
  return {
    names: fields.entitlements.map(String),
    asOf: typeof fields.entitlements_as_of === "string" ? fields.entitlements_as_of : null,
  };
}

/** The fallback of a license file's payload or of an answer's `license`, when it carries the fields. */
export function fallbackIn(source: unknown): FallbackFacts | null {
  const fields = fieldsOf(source);
  if (!fields || !("fallback_version" in fields)) return null;
  return {
    version: typeof fields.fallback_version === "string" ? fields.fallback_version : null,
    updatesUntil: typeof fields.updates_until === "string" ? fields.updates_until : null,
  };
}

/** An update check's answer (it has `update_available`), or null for any other body. */
export function updateFactsIn(body: unknown): UpdateFacts | null {
  const fields = fieldsOf(body);
  if (!fields || !("update_available" in fields)) return null;
  const latest = fieldsOf(fields.latest);
  const pick = <T>(value: unknown, type: "string" | "number" | "boolean") =>
    typeof value === type ? (value as T) : null;
  return {
    version: pick<string>(latest?.version, "string"),
    rollout: pick<number>(latest?.rollout, "number"),
    critical: pick<boolean>(latest?.critical, "boolean"),
    minimumVersion: pick<string>(fields.minimum_version, "string"),
    updateRequired: pick<boolean>(fields.update_required, "boolean"),
    criticalUpdate: pick<boolean>(fields.critical_update, "boolean"),
  };
}

/** The lines printed for them. */
export function describeEntitlements(entitlements: Entitlements | null): string {
  if (!entitlements) return "entitlements: (none in this body: made before entitlements)";
  const names = entitlements.names.length > 0 ? entitlements.names.join(", ") : "(empty)";
  return `entitlements: ${names}${entitlements.asOf ? ` (as of ${entitlements.asOf})` : ""}`;
}

export function describeFallback(fallback: FallbackFacts | null): string {
  if (!fallback) return "fallback_version: (none in this body: made before the perpetual fallback)";
  if (!fallback.version) return "fallback_version: (none earned); updates_until: (none)";
  return `fallback_version: ${fallback.version}; updates_until: ${fallback.updatesUntil ?? "(not stated)"}`;
}

export function describeUpdate(update: UpdateFacts): string[] {
  const latest =
    update.version === null
      ? "latest: (none offered)"
      : `latest: ${update.version}, rollout ${update.rollout ?? "(not stated)"}%` +
        `${update.critical ? ", critical" : ""}`;
  return [
    latest,
    `minimum_version: ${update.minimumVersion ?? "(none)"}; update_required: ${update.updateRequired ?? "(not stated)"}; ` +
      `critical_update: ${update.criticalUpdate ?? "(not stated)"}`,
  ];
}
