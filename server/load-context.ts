import type { PublicConfig } from "../app/server/env.server";

declare module "react-router" {
  interface AppLoadContext {
    /** The per-request nonce of the Content-Security-Policy, for inline scripts. */
    cspNonce: string;
    /** The configuration the browser may see. */
    publicConfig: PublicConfig;
    /** The client's address (Express `req.ip`, which honours TRUST_PROXY). */
    clientIp: string;
  }
}

export {};
