/** What the profile's account sections are sent (plain data, shared by server and components). */

export interface Enrolment {
  uri: string;
  secret: string;
  qrSvg: string;
  recoveryCodes: string[];
  /** ISO time the recovery codes were made (written in the saved file). */
  madeAt: string;
}

export interface SessionView {
  id: string;
  browser: string;
  ipAddress: string | null;
  lastActive: string;
  current: boolean;
}

export interface ConnectedAccount {
  provider: "github" | "google";
  name: string;
}

/** A renewing subscription that deleting the account would cancel. */
export interface SubscriptionToCancel {
  planName: string;
  shortId: string;
  /** ISO date of its next renewal (the license's end date). */
  renewsOn: string;
  /** A team's subscription (decision 0049): the members other than its owner who keep their seats until it ends. */
  teamMembers?: number;
}

/** Recovery codes just made (enrolment or "Generate new codes"): shown once, with copy and download. */
export interface NewRecoveryCodes {
  codes: string[];
  /** ISO time they were made (written in the saved file). */
  madeAt: string;
}

export interface AccountOverview {
  isAdmin: boolean;
  twoFactorEnabled: boolean;
  /** Unused recovery codes; null without two-factor. */
  recoveryCodesLeft: number | null;
  twoFactorRequired: boolean;
  hasPassword: boolean;
  sessions: SessionView[];
  connected: ConnectedAccount[];
  providers: ("github" | "google")[];
  subscriptionsToCancel: SubscriptionToCancel[];
}

export type AccountIntent =
  | "two-factor-start"
  | "two-factor-confirm"
  | "two-factor-disable"
  | "recovery-codes-regenerate"
  | "password-change"
  | "session-revoke"
  | "sessions-revoke-others"
  | "account-delete";

/** What every account section's form gets back (fetcher data, or the page's action data without JavaScript). */
export interface AccountActionData {
  intent: AccountIntent;
  ok: boolean;
  toast: { title: string; description?: string; variant: "success" | "destructive" } | null;
  fieldErrors: Record<string, string[]> | null;
  enrolment?: Enrolment;
  recoveryCodes?: NewRecoveryCodes;
}
