import { expect, test } from "./support";
import AxeBuilder from "@axe-core/playwright";

const PUBLIC_PAGES = [
  { path: "/", heading: /Automate the repetitive part of programming/ },
  { path: "/download", heading: /Download ForgeKit/ },
  { path: "/pricing", heading: /Simple pricing/ },
  { path: "/contact", heading: /Contact Us/ },
  { path: "/release-notes", heading: /Release notes/ },
  { path: "/privacy-policy", heading: /Privacy Policy/ },
  { path: "/terms-of-service", heading: /Terms of Service/ },
  { path: "/refund-policy", heading: /Refund Policy/ },
  { path: "/login", heading: /Log in/ },
  { path: "/register", heading: /Create your account/ },
  { path: "/forgot-password", heading: /Forgot your password/ },
  { path: "/confirm-email", heading: /Check your e-mail/ },
  { path: "/no-such-page", heading: /Page not found/, status: 404 },
];

test.describe("every public page", () => {
  for (const { path, heading, status = 200 } of PUBLIC_PAGES) {
    test(`${path}: renders on the server with its own title and description, and passes axe`, async ({
      page,
      request,
    }) => {
      // Server-rendered: the heading is in the HTML before any JavaScript runs.
      const response = await request.get(path);
      expect(response.status()).toBe(status);
      const html = await response.text();
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
      expect(title, "a <title>").toBeTruthy();
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);

      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
        [],
      );
    });
  }

  test("titles are all different", async ({ request }) => {
    const titles = new Set<string>();
    for (const { path } of PUBLIC_PAGES) {
      const html = await (await request.get(path)).text();
      titles.add(/<title>([^<]+)<\/title>/.exec(html)![1]!);
    }
    expect(titles.size).toBe(PUBLIC_PAGES.length);
  });

  test("links work before JavaScript loads", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Release notes" }).click();
    await expect(page).toHaveURL("/release-notes");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Release notes");
    await page.getByRole("contentinfo").getByRole("link", { name: "Pricing" }).click();
    await expect(page.getByTestId("plan-yearly")).toContainText("$90");
    await context.close();
  });

  test("the web's conventions: robots, sitemap, security.txt, manifest, icons, canonical and link-preview tags", async ({
    request,
    baseURL,
  }) => {
    const robots = await request.get("/robots.txt");
    expect(robots.headers()["content-type"]).toContain("text/plain");
    expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    const sitemap = await (await request.get("/sitemap.xml")).text();
    expect(sitemap).toContain(`<loc>${baseURL}/release-notes</loc><lastmod>`);
    expect(await (await request.get("/.well-known/security.txt")).text()).toMatch(/^Contact: mailto:\S+@\S+$/m);
    const manifest = (await (await request.get("/site.webmanifest")).json()) as {
      name: string;
      icons: { src: string }[];
    };
    expect(manifest.name).toBe("ForgeKit");
    for (const icon of [
      "/favicon.ico",
      "/apple-touch-icon.png",
      "/icon-512.png",
      "/og-image.png",
      ...manifest.icons.map((i) => i.src),
    ]) {
      expect((await request.get(icon)).status(), icon).toBe(200);
    }
    const html = await (await request.get("/pricing")).text();
    expect(html).toContain(`<link rel="canonical" href="${baseURL}/pricing"/>`);
    expect(html).toContain(`<meta property="og:image" content="${baseURL}/og-image.png"/>`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toMatch(/<link [^>]*rel="manifest" href="\/site.webmanifest"/);
    expect(html).toMatch(/<link [^>]*rel="apple-touch-icon" href="\/apple-touch-icon.png"/);
  });
});
