/** What the profile's account sections are sent (plain data, shared by server and components). */

export interface Enrolment {
  uri: string;
  secret: string;
  qrSvg: string;
  recoveryCodes: string[];
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

export interface AccountOverview {
  isAdmin: boolean;
  twoFactorEnabled: boolean;
  twoFactorRequired: boolean;
  hasPassword: boolean;
  sessions: SessionView[];
  connected: ConnectedAccount[];
  providers: ("github" | "google")[];
}

export type AccountIntent =
  | "two-factor-start"
  | "two-factor-confirm"
  | "two-factor-disable"
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
}
