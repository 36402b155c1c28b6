import type { QuotedPrices } from "./plans";
import type { RetentionOffer } from "./retention-offer";
/**
 * What the server sends pages to show: plain data (dates as ISO strings), shared by the loaders
 * that build it and the components that render it, so components never
 * import server modules.
 */
import type { AdminLicenseView } from "./admin-user";

import type { SearchMatch } from "./admin-search";
import type { LedgerPayment } from "./refund-ledger";
import type { LicenseMachinesView } from "./machine-texts";
import type { MachineLimits } from "./machines";

export type Role = "admin" | "user";

/** The signed-in user as every page knows it (root loader). */
export interface SessionUser {
  id: string;
  email: string;
  fullName: string;
  emailVerified: boolean;
}

/** A license as its card shows it; the key and offline data are null while a refund is pending or done. */
export interface LicenseView {
  id: string;
  /** FK-XXXX-XXXX: what the customer names to support (app/domain/short-id.ts). */
  short_id: string;
  email: string;
  license_type: string;
  status: "active" | "revoked" | "refund_requested" | "refunded";
  license_key: string | null;
  windows_username: string | null;
  computer_name: string | null;
  start_date: string;
  end_date: string;
  is_trial: boolean;
  trial_ends_at: string | null;
  auto_renew: boolean;
  cancellation_requested: boolean;
  /** Backed by a provider subscription (whose id stays on the server). */
  has_subscription: boolean;
  purchase_date: string | null;
  refund_eligible_until: string | null;
  refunded: boolean;
  refund_amount: number | null;
  refunded_at: string | null;
  /** A renewal payment failed and is still due (decision 0023). */
  past_due_since: string | null;
  /** A switch to a shorter plan waiting for the next renewal (decision 0061); null or absent when none. */
  plan_next_renewal?: string | null;
  /** The cancel step's offer was made (taken or declined): it is not made again (decision 0065). */
  retention_offer_outcome?: string | null;
  /** The percent the cancel step's discount takes off the next renewal (decision 0065); null or absent when none. */
  renewal_discount_percent?: number | null;
  /** Every plan's price in the subscription's currency, as quoted at checkout (decision 0072); null when not kept. */
  quoted_prices?: QuotedPrices | null;
  /** The offer the cancel step makes now, computed by the licenses page's loader (decision 0065). */
  retention_offer?: RetentionOffer | null;
  /** Revoked because a payment was charged back (decision 0056); null otherwise. */
  charged_back_at?: string | null;
  /** The version the license keeps after its subscription ends (decision 0070); null or absent when none. */
  fallback_version?: string | null;
  /** Why the license was revoked, when the site says ("removed from team"); null otherwise. */
  revoked_reason?: string | null;
  /** A team's subscription ("billing") or a member's seat ("seat"); null for a person's own license. */
  team_role?: "billing" | "seat" | null;
  /** On a team's subscription: the seats its next renewal bills (what the state function prices). */
  renewal_seats?: number | null;
  /** The license's payments, oldest first: what a refund covers and its confirmation lists (decision 0036). */
  charges?: LedgerPayment[];
  /** The machines the license is activated on (decision 0041); absent where a page does not show them. */
  machines?: LicenseMachinesView;
  /**
   * The team the license belongs to (decision 0046): a member's seat ("provided by <team>": no billing
   * actions, those are the owner's) or the owner's team subscription. Absent for a person's own license.
   */
  team?: {
    name: string;
    role: "billing" | "seat";
    /** On the owner's team subscription: the members whose seat a refund would revoke. */
    members?: number;
  } | null;
}

/** A release as the download page, the release notes and the admin list show it. */
export interface ReleaseView {
  id: string;
  version: string;
  title: string | null;
  release_date: string;
  release_notes: string[];
  /** The installer's size and SHA-256 (lowercase hex), when the release records them. */
  installer_size_bytes: number | null;
  installer_sha256: string | null;
  /** "stable" or "beta" (release-channel.ts). */
  channel: string;
  /** The installer's own address; null: the site's download address. */
  download_url: string | null;
  /** ISO times; a draft has no published_at. */
  published_at: string | null;
  yanked_at: string | null;
  /** Decision 0062: the percentage of machines offered it, whether the tool should install it, its minimum version. */
  rollout_percent: number;
  critical: boolean;
  minimum_version: string | null;
}

/** An API token as the admin tokens page lists it (never the token or its hash). */
export interface ApiTokenView {
  id: string;
  name: string;
  token_prefix: string;
  scopes: string[];
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** A user found by the admin search. */
export interface UserSearchResult {
  id: string;
  email: string;
  full_name: string;
  company_name: string | null;
  /** When the account was created (sign-up). */
  created_at: string;
  /** Why a search found the user (decision 0033); absent in the plain list. */
  match?: SearchMatch;
  /** The license the match names (short id, key, subscription, transaction), for its state (decision 0030). */
  license?: AdminLicenseView;
}

/** The only configuration the browser sees (never a secret). */
export interface PublicConfig {
  productName: string;
  supportEmail: string;
  downloadUrl: string;
  storeUrl: string;
  tutorialVideoUrl: string;
  publicUrl: string;
  paymentProvider: "demo" | "paddle";
  paddleEnvironment: "sandbox" | "production";
  paddleClientToken: string | null;
  /** Machines a license of each type may have active at once (pricing, licenses page). */
  machinesPerPlan: MachineLimits;
}

/** What the root loader gives every page. */
export interface RootData {
  user: SessionUser | null;
  role: Role;
  /** The user owns or manages a team (decision 0047): the nav links to /team. */
  runsTeam: boolean;
  toast: { title: string; description?: string; variant?: "default" | "success" | "destructive" } | null;
  publicConfig: PublicConfig;
}
