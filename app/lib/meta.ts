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
