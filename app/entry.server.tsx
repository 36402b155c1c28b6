import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
// React's build for Bun: see pageStream.
import { renderToPipeableStream } from "react-dom/server.bun";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { SiteStylesProvider } from "./components/inline-styles";
import { NonceProvider } from "./components/nonce";
import { hasSessionCookie } from "./server/cache/caches.server";
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

/** What React's renderer writes into (`pipe`): a Node writable's few methods, over the page's strings. */
interface PageSink {
  write(chunk: string): boolean;
  flush(): void;
  end(): void;
  destroy(error?: unknown): void;
  on(event: string, listener: () => void): PageSink;
}

/**
 * The page as the response's body. React's string-writing build (decision 0086) hands over the page
 * as many short strings, and says when a pass is written (`flush`). They are joined into pieces of
 * about 16,000 characters, each encoded once (one string per page would be a large object for the
 * garbage collector, and joining thousands of strings at once costs several times more). A pass goes
 * out as one chunk: the whole page when nothing is deferred, a deferred part as soon as it is rendered.
 */
export function pageStream(nonce: string, on: { finished: () => void; cancelled: () => void }) {
  let text = "";
  let encoded: Buffer[] = [];
  let first = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      open = false;
      on.finished();
      on.cancelled();
    },
  });
  const sink: PageSink = {
    write(chunk) {
      text += chunk;
      if (text.length > PIECE) {
        encoded.push(Buffer.from(text));
        text = "";
      }
      return true;
    },
    flush() {
      if (text) encoded.push(Buffer.from(text));
      text = "";
      if (encoded.length === 0 || !open) return;
      let chunk = encoded.length === 1 ? encoded[0]! : Buffer.concat(encoded);
      encoded = [];
      if (first) {
        first = false;
        chunk = deferScriptsUntilPainted(chunk, nonce);
      }
      controller.enqueue(chunk);
    },
    end() {
      sink.flush();
      on.finished();
      if (open) controller.close();
      open = false;
    },
    destroy(error) {
      on.finished();
      if (open) controller.error(error);
      open = false;
    },
    on: () => sink,
  };
  return { sink, body };
}

/** Characters joined before they are encoded (a young-generation string, well under V8's large objects). */
const PIECE = 16_000;

/** Run by the page once it has painted: the scripts below are fetched and run from then on. */
const START_SCRIPTS =
  "(function(){var done=false;function go(){if(done)return;done=true;" +
  'document.querySelectorAll(\'link[rel="x-modulepreload"]\').forEach(function(l){l.rel="modulepreload"});' +
  "document.querySelectorAll('script[type=\"x-deferred-module\"]').forEach(function(s){" +
  'var n=document.createElement("script");n.type="module";n.nonce=s.nonce;n.textContent=s.textContent;s.replaceWith(n)})}' +
  "requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,250)})()";

/**
 * The page's scripts wait for its first paint (docs/decisions/0029): the page is whole without them
 * (server-rendered, stylesheet inline), so on a slow connection the text is painted before ≈ 120 KB
 * of JavaScript competes with it. React Router's `<link rel="modulepreload">` tags and its module
 * script are written inert (`x-modulepreload`, `x-deferred-module`) and a small script turns them
 * back on after the next frame (or 250 ms, for a page opened in the background). Left as it is when
 * the document does not arrive whole in one chunk.
 */
export function deferScriptsUntilPainted(chunk: Buffer, nonce: string): Buffer {
  const head = chunk.indexOf("</head>");
  const body = chunk.lastIndexOf("</body>");
  const firstModule = head === -1 ? -1 : chunk.indexOf(' type="module"', head);
  if (head === -1 || body === -1 || firstModule === -1) return chunk;
  // The page's markup up to the first module script is copied as bytes: only the head and the body's
  // scripts are read as text (a signed-in page's body is ≈ 100 KB).
  const scripts = Math.min(body, Math.max(head, chunk.lastIndexOf("<script", firstModule)));
  const tail = chunk.toString("utf8", scripts, body);
  if (!/<script[^>]* type="module"/.test(tail)) return chunk;
  const inertHead = chunk
    .toString("utf8", 0, head)
    .replaceAll('<link rel="modulepreload"', '<link rel="x-modulepreload"');
  const inertScripts = tail.replace(/(<script[^>]*) type="module"/g, '$1 type="x-deferred-module"');
  const starter = `<script nonce="${nonce}">${START_SCRIPTS}</script>`;
  return Buffer.concat([
    Buffer.from(inertHead),
    chunk.subarray(head, scripts),
    Buffer.from(inertScripts + starter),
    chunk.subarray(body),
  ]);
}
