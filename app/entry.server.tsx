import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
// React's build for Bun (decision 0086): see server/page-stream.server.ts.
import { renderToPipeableStream } from "react-dom/server.bun";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { SiteStylesProvider } from "./components/inline-styles";
import { NonceProvider } from "./components/nonce";
import { hasSessionCookie } from "./server/cache/caches.server";
import { pageStream } from "./server/page-stream.server";
// The site's stylesheet as text (inlined for anonymous visitors) and as a hashed file (linked for
// signed-in pages): components/inline-styles.tsx.
import stylesText from "./app.css?inline";
import stylesHref from "./app.css?url";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;
  const signedIn = hasSessionCookie(request.headers.get("Cookie"));
  const styles = signedIn ? { href: stylesHref } : { css: stylesText };

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole document at once.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <SiteStylesProvider value={styles}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </SiteStylesProvider>
      </NonceProvider>,
      {
        nonce,
        // Every finished Suspense boundary stays in the page where it stands: past 12.8 KB React would
        // otherwise send the rest later behind a script (empty until it runs, never shown without
        // JavaScript, and the footer jumps when it does). The boundaries are there to hydrate in pieces.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const page = pageStream(nonce, {
            finished() {
              clearTimeout(timeoutId);
              timeoutId = undefined;
            },
            cancelled: () => abort(),
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // `pipe` is typed for Node's writables; React's Bun build calls only PageSink's methods.
          pipe(page.sink as unknown as NodeJS.WritableStream);
          resolve(new Response(page.body, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
