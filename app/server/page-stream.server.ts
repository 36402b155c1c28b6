// The rendered page as a response body (decision 0086), and its scripts held until the first paint
// (decision 0029). Apart from app/entry.server.tsx so that bench/render-floor.ts times the same code.

/** What React's renderer writes into (`pipe`): a Node writable's few methods, over the page's strings. */
export interface PageSink {
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
      if (!open) return;
      if (text) encoded.push(Buffer.from(text));
      text = "";
      if (encoded.length === 0) return;
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

/**
 * Run by the page once its first text or image is on screen (the browser's first-contentful-paint
 * entry; where there is none, the frame after the next one, or 250 ms for a page opened in the
 * background). The module script goes in first (its imports start loading), then the preloads, four
 * to a task: Chromium spends up to a few milliseconds on each new preload, and forty of them in one
 * task made a long task of their own on a slow phone (decision 0088).
 */
const START_SCRIPTS =
  "(function(){var done=false;function go(){if(done)return;done=true;" +
  "document.querySelectorAll('script[type=\"x-deferred-module\"]').forEach(function(s){" +
  'var n=document.createElement("script");n.type="module";n.nonce=s.nonce;n.textContent=s.textContent;s.replaceWith(n)});' +
  "var links=[].slice.call(document.querySelectorAll('link[rel=\"x-modulepreload\"]'));" +
  '(function next(){links.splice(0,4).forEach(function(l){l.rel="modulepreload"});if(links.length)setTimeout(next,0)})()}' +
  'try{if(document.visibilityState!=="hidden"&&PerformanceObserver.supportedEntryTypes.indexOf("paint")>=0){' +
  'new PerformanceObserver(function(list,o){if(list.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}})' +
  '.observe({type:"paint",buffered:true});setTimeout(go,3000);return}}catch(e){}' +
  "requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,250)})()";

/**
 * The page's scripts wait for its first paint (docs/decisions/0029): the page is whole without them
 * (server-rendered, stylesheet inline), so on a slow connection the text is painted before ≈ 120 KB
 * of JavaScript competes with it. React Router's `<link rel="modulepreload">` tags and its module
 * script are written inert (`x-modulepreload`, `x-deferred-module`) and a small script turns them
 * back on once the page has painted. When the document comes in more than one chunk (a Suspense
 * boundary not ready with the shell: a lazy part on a fresh server, React Router's data stream), the
 * first chunk is rewritten the same way and the starter goes at its end. A chunk without the module
 * script is left as it is.
 */
export function deferScriptsUntilPainted(chunk: Buffer, nonce: string): Buffer {
  const head = chunk.indexOf("</head>");
  const closing = chunk.lastIndexOf("</body>");
  const body = closing === -1 ? chunk.length : closing;
  const firstModule = head === -1 ? -1 : chunk.indexOf(' type="module"', head);
  if (head === -1 || firstModule === -1) return chunk;
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
