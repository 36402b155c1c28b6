import type { ToastInput } from "./action-result";
import type { ApiTokenScope } from "./api-token";

/** The admin tokens page's texts (docs/product.md, "API tokens"). */
export const TOKEN_TEXTS = {
  intro:
    "Tokens let the vendor's build pipeline and other systems use the API (publish releases, read licenses and events). " +
    "A token is shown once; only its hash is kept.",
  loadFailed: "Failed to load the API tokens",
  actionFailed: "The token could not be changed. Please try again.",
  shownOnce: "Copy this token now: it is shown only once.",
  none: "No tokens yet.",
  revokeConfirm: (name: string) => `Revoke the token ${name}? Every system using it stops working at once.`,
  created: (name: string): ToastInput => ({
    title: "Token created",
    description: `Copy the token ${name} now: it is shown only once.`,
    variant: "success",
  }),
  revoked: (name: string): ToastInput => ({
    title: "Token revoked",
    description: `The token ${name} no longer works.`,
    variant: "success",
  }),
} as const;

export const SCOPE_DESCRIPTIONS: Record<ApiTokenScope, string> = {
  "releases:write": "Publish, edit and yank releases",
  "licenses:read": "Read licenses",
  "events:read": "Read events",
};
