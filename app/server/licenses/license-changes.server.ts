/**
 * The channel on which the database announces, for every inserted, updated or deleted license, the
 * user it belongs to (migration 0015's trigger): whoever made the change, every app server hears it
 * when it commits (PostgreSQL LISTEN/NOTIFY; the embedded engine calls its listener as it commits).
 */
export const LICENSES_CHANNEL = "forgekit_licenses";
