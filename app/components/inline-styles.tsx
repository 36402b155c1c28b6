import { createContext, useContext } from "react";

/** The `id` of the page's one style element (the site's stylesheet, inlined by the server). */
export const INLINE_STYLES_ID = "site-css";

const InlineStylesContext = createContext<string | null>(null);

/** Provides the stylesheet's text to the document's head (server only: entry.server.tsx). */
export const InlineStylesProvider = InlineStylesContext.Provider;

let fromDocument: string | undefined;

/**
 * The stylesheet inlined in the head, so the first paint waits for no request. The server renders
 * it from the build; in the browser, hydration reuses the text the page already has, so the client's
 * JavaScript does not carry a second copy.
 */
export function InlineStyles() {
  const provided = useContext(InlineStylesContext);
  let css = provided;
  if (css === null && typeof document !== "undefined") {
    fromDocument ??= document.getElementById(INLINE_STYLES_ID)?.innerHTML ?? "";
    css = fromDocument;
  }
  return <style id={INLINE_STYLES_ID} dangerouslySetInnerHTML={{ __html: css ?? "" }} />;
}
