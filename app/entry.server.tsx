import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { SiteStylesProvider } from "./components/inline-styles";
import { NonceProvider } from "./components/nonce";
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
  const signedIn = (request.headers.get("Cookie") ?? "").includes("session_token");
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
        [readyOption]() {
          shellRendered = true;
          const body = coalescingStream(() => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
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

/**
 * React writes a page in 2 KB pieces; each would cross a web stream and become its own write to the
 * socket. This joins what React writes in one turn of the event loop into one chunk (a whole page when
 * nothing is deferred), and still sends a deferred part as soon as it is rendered.
 */
function coalescingStream(onFinal: () => void): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  const flush = (stream: Transform) => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    stream.push(chunk);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => flush(this));
      }
      callback();
    },
    // (A `final` option would replace Transform's own, which runs this.)
    flush(callback) {
      onFinal();
      flush(this);
      callback();
    },
  });
}
