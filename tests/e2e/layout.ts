import { expect, type Page } from "@playwright/test";

/**
 * The page fits its screen: nothing makes it scroll sideways. On failure it names the page and the
 * widest elements that stick out, so a CI log says what to fix.
 */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scroll, client, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.body.querySelectorAll<HTMLElement>("*")]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ right }) => right > width + 0.5)
      .sort((a, b) => b.right - a.right)
      .slice(0, 3)
      .map(({ element, right }) => {
        const name =
          element.tagName.toLowerCase() +
          (element.className ? `.${String(element.className).split(" ").slice(0, 3).join(".")}` : "");
        return `${name} to ${Math.round(right)}px: "${(element.textContent ?? "").trim().slice(0, 60)}"`;
      });
    return { scroll: document.documentElement.scrollWidth, client: width, culprits: wide };
  });
  const where = new URL(page.url()).pathname;
  expect(scroll, `${where} is ${scroll}px wide on a ${client}px screen; ${culprits.join("; ")}`).toBeLessThanOrEqual(
    client,
  );
}
