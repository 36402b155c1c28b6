/**
 * The channel on which the database announces, for every change of a row that a signed-in page
 * shows (licenses, payments, sessions, connected accounts, two-factor, role, user, profile), the
 * user it belongs to (migration 0015's triggers): whoever made the change, every app server hears
 * it when it commits (PostgreSQL LISTEN/NOTIFY; the embedded engine calls its listener as it commits).
 */
export const USER_CHANGES_CHANNEL = "forgekit_user_changes";
