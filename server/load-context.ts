import type { Request, Response } from "express";
import { RouterContextProvider } from "react-router";
import type { PublicConfig } from "../app/server/env.server";

/** What the Express server hands every loader and action (as `context.…`). */
interface ForgeKitLoadContext {
  /** The per-request nonce of the Content-Security-Policy, for inline scripts. */
  cspNonce: string;
  /** The configuration the browser may see. */
  publicConfig: PublicConfig;
  /** The client's address (Express `req.ip`, which honours TRUST_PROXY). */
  clientIp: string;
  /**
   * A signed-in page's loader allows its answer to be given again, from memory, to the same session
   * until `until` as long as nothing it shows changes (app/server/cache/signed-in-page-cache.server.ts). Pages whose
   * loaders never call it are rendered for every request. `showsOtherUsers` (the admin area): any
   * user's change, not only the session's own user's, forgets it.
   */
  reuseAnswerUntil?: (until: Date, options?: { showsOtherUsers?: boolean }) => void;
  /**
   * A public page's loader says its answer must not be kept by the page cache (part of it could not be
   * had: prices from a provider that did not answer, decision 0072).
   */
  keepOutOfPageCache?: () => void;
}

// With route middleware on (react-router.config.ts), loaders and actions get a RouterContextProvider;
// the server's fields are set on it as properties (React Router's migration path from AppLoadContext),
// so `context.clientIp` reads as before. AppLoadContext keeps them for code typed with it.
declare module "react-router" {
  // Merged into React Router's own interfaces: their members are ForgeKitLoadContext's.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ForgeKitLoadContext {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RouterContextProvider extends ForgeKitLoadContext {}
}

/** The context of one request: a RouterContextProvider (for middleware) carrying the server's fields. */
export function createLoadContext(req: Request, res: Response, config: PublicConfig): RouterContextProvider {
  const fields: ForgeKitLoadContext = {
    cspNonce: res.locals.cspNonce as string,
    publicConfig: config,
    clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
    reuseAnswerUntil: (until, { showsOtherUsers = false } = {}) => {
      const earlier = Math.min(Number(res.locals.reuseUntil ?? Infinity), until.getTime());
      res.locals.reuseUntil = earlier;
      if (showsOtherUsers) res.locals.reuseShared = true;
    },
    keepOutOfPageCache: () => {
      res.locals.keepOutOfPageCache = true;
    },
  };
  return Object.assign(new RouterContextProvider(), fields);
}
