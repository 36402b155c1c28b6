import type { PublicConfig } from "../app/server/env.server";

declare module "react-router" {
  interface AppLoadContext {
    /** The per-request nonce of the Content-Security-Policy, for inline scripts. */
    cspNonce: string;
    /** The configuration the browser may see. */
    publicConfig: PublicConfig;
    /** The client's address (Express `req.ip`, which honours TRUST_PROXY). */
    clientIp: string;
    /**
     * A signed-in page's loader allows its answer to be given again, from memory, to the same session
     * until `until` as long as nothing it shows changes (server/signed-in-page-cache.ts). Pages whose
     * loaders never call it are rendered for every request. `showsOtherUsers` (the admin area): any
     * user's change, not only the session's own user's, forgets it.
     */
    reuseAnswerUntil?: (until: Date, options?: { showsOtherUsers?: boolean }) => void;
  }
}

export {};
