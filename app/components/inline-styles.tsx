import { createContext, useContext } from "react";

/** The `id` of the element that carries the site's stylesheet (inline `<style>` or a `<link>`). */
export const SITE_CSS_ID = "site-css";

/** What the server puts in the head: the stylesheet's text, or its address. */
export type SiteStyles = { css: string } | { href: string };

const SiteStylesContext = createContext<SiteStyles | null>(null);

/** Provides the stylesheet to the document's head (server only: entry.server.tsx). */
export const SiteStylesProvider = SiteStylesContext.Provider;

let fromDocument: SiteStyles | undefined;

/** What the page the browser loaded has: kept for the whole visit (client navigation keeps the head). */
function stylesInDocument(): SiteStyles {
  const element = document.getElementById(SITE_CSS_ID);
  if (element instanceof HTMLLinkElement) return { href: element.getAttribute("href") ?? "" };
  return { css: element?.innerHTML ?? "" };
}

/**
 * The site's stylesheet. Anonymous visitors' pages (the public pages, cached compressed) carry it
 * inline, so the first paint waits for no request; signed-in pages link the hashed file, which the
 * browser keeps, instead of sending the same 50 KB with every page. In the browser, hydration reuses
 * what the page already has, so the client's JavaScript carries no copy of the CSS.
 */
export function SiteStyles() {
  const provided = useContext(SiteStylesContext);
  const styles = provided ?? (typeof document === "undefined" ? { css: "" } : (fromDocument ??= stylesInDocument()));
  if ("href" in styles) return <link id={SITE_CSS_ID} rel="stylesheet" href={styles.href} />;
  return <style id={SITE_CSS_ID} dangerouslySetInnerHTML={{ __html: styles.css }} />;
}
