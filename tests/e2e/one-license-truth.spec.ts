import type { Page } from "@playwright/test";
import { LICENSE_STATE_NAMES } from "../../app/domain/license-state";
import { DEMO_ADMIN, DEMO_USER, type Account, expect, openAllLicenses, test } from "./support";

/**
 * One license truth (decision 0030), in the browser: every seeded customer whose licenses cover the
 * license states signs in and reads each license's badge and status line on /licenses; the admin
 * opens the same customer's page and reads the same license's badge and line. They are the same
 * for every license, and between them the seeded licenses show every state the state function
 * (app/domain/license-state.ts) knows. Read only: nothing is changed.
 */

const SUPPORT_PASSWORD = "support-demo-1";
/** The seeded customers (app/server/seed*.server.ts) whose licenses cover the states. */
const CUSTOMERS: (Account & { name: string })[] = [
  { ...DEMO_USER, name: "Dana Developer" },
  { email: "sam.renewal@forgekit.example", password: SUPPORT_PASSWORD, name: "Sam Renewal" },
  { email: "pat.pastdue@forgekit.example", password: SUPPORT_PASSWORD, name: "Pat Pastdue" },
  {
    email: "lou.locked@forgekit.example",
    password: SUPPORT_PASSWORD,
    name: "Lou Locked",
    totpSecret: "FORGEKITDEMOLOCKEDCUSTOMER234567",
  },
  { email: "cai.converting@forgekit.example", password: SUPPORT_PASSWORD, name: "Cai Converting" },
  { email: "dee.dispute@forgekit.example", password: SUPPORT_PASSWORD, name: "Dee Dispute" },
];

interface Shown {
  badge: string;
  line: string;
}

/** Each license on the customer's /licenses page, by its id: the row's badge and the card's status line. */
async function customerView(page: Page): Promise<Map<string, Shown>> {
  await page.goto("/licenses");
  // A customer whose only license has ended (charged back, say) sees it under "Inactive licenses", closed.
  await expect(page.getByTestId("license-card").first()).toBeAttached();
  await openAllLicenses(page);
  const shown = new Map<string, Shown>();
  for (const card of await page.getByTestId("license-card").all()) {
    const id = (await card.getAttribute("id"))!.replace(/^license-/, "");
    const badge = (await card.getByTestId("license-badge").innerText()).trim();
    const line = (await card.getByTestId("license-status").innerText()).trim();
    shown.set(id, { badge, line });
  }
  return shown;
}

/** Each license on the admin's /admin/users/:id page, by its id: the badge, the line and the state's name. */
async function adminView(page: Page, customer: { email: string; name: string }) {
  await page.goto("/admin/users");
  await page.getByLabel("Search users").fill(customer.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: `Open ${customer.name}` }).click();
  await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}/);
  await expect(page.getByTestId("admin-license").first()).toBeVisible();
  const shown = new Map<string, Shown>();
  const states = new Set<string>();
  for (const license of await page.getByTestId("admin-license").all()) {
    const id = (await license.getAttribute("id"))!.replace(/^license-/, "");
    const state = license.getByTestId("admin-license-state");
    const badge = (await state.getByTestId("license-badge").innerText()).trim();
    const line = (await state.getByTestId("license-line").innerText()).trim();
    shown.set(id, { badge, line });
    states.add((await state.getAttribute("data-state"))!);
  }
  return { shown, states };
}

test("the customer's page and the admin's page show every seeded license in the same state", async ({
  page,
  signIn,
}) => {
  test.setTimeout(180_000);
  const seen = new Set<string>();
  for (const customer of CUSTOMERS) {
    await page.context().clearCookies();
    await signIn(customer);
    const mine = await customerView(page);

    await page.context().clearCookies();
    await signIn(DEMO_ADMIN);
    const { shown, states } = await adminView(page, customer);

    // Side by side: the same licenses, each with the same badge and status line.
    expect([...shown.keys()].sort(), customer.email).toEqual([...mine.keys()].sort());
    for (const [id, view] of mine) expect(shown.get(id), `${customer.email}: license ${id}`).toEqual(view);
    for (const state of states) seen.add(state);
  }
  // Every state the state function knows is among the seeded licenses.
  expect([...seen].sort()).toEqual([...LICENSE_STATE_NAMES].sort());
});
