/** The product's name as the root loader gives it to every page (PRODUCT_NAME), for titles. */
export function productNameFrom(matches: readonly ({ id: string; data?: unknown } | undefined)[]): string {
  const root = matches.find((match) => match?.id === "root")?.data as
    { publicConfig?: { productName?: string } } | undefined;
  return root?.publicConfig?.productName ?? "ForgeKit";
}

/** "Page | Product", with the configured product name. */
export function pageTitle(
  matches: readonly ({ id: string; data?: unknown } | undefined)[],
  page: string,
): { title: string } {
  return { title: `${page} | ${productNameFrom(matches)}` };
}

type Matches = readonly ({ id: string; data?: unknown } | undefined)[];

function publicUrlFrom(matches: Matches): string {
  const root = matches.find((match) => match?.id === "root")?.data as
    { publicConfig?: { publicUrl?: string } } | undefined;
  return root?.publicConfig?.publicUrl ?? "";
}

/**
 * A public page's head: its title and description, its canonical address, and the Open Graph and
 * Twitter card tags (with the site's social image) that link previews read.
 */
export function publicPageMeta(
  matches: Matches,
  { path, title, description, fullTitle }: { path: string; title: string; description: string; fullTitle?: boolean },
) {
  const product = productNameFrom(matches);
  const base = publicUrlFrom(matches);
  const url = `${base}${path}`;
  const heading = fullTitle ? title : `${title} | ${product}`;
  return [
    { title: heading },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: product },
    { property: "og:title", content: heading },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: `${base}/og-image.png` },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: heading },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: `${base}/og-image.png` },
  ];
}
