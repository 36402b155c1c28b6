import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { BillingOverviewSections } from "~/components/billing/billing-overview";
import type { BillingOverview } from "~/domain/billing-overview";
import { fallbackSentence } from "~/domain/fallback";

function render(overview: BillingOverview): string {
  const router = createMemoryRouter([{ path: "/billing", element: <BillingOverviewSections overview={overview} /> }], {
    initialEntries: ["/billing"],
  });
  return renderToString(<RouterProvider router={router} />).replace(/<!-- -->/g, "");
}

const empty: BillingOverview = { upcoming: [], failed: [], refunds: [], keeps: [] };

describe("/billing's overview: what you keep (decision 0070)", () => {
  it("lists each license that keeps a version, in the card's sentence", () => {
    const text = fallbackSentence("2.3.2", true);
    const html = render({ ...empty, keeps: [{ licenseId: "l1", licenseShortId: "FK-ABCD-EFGH", text }] });
    expect(html).toContain("What you keep");
    expect(html).toContain(`FK-ABCD-EFGH</span>: ${text}`);
  });

  it("has no such section when no license keeps one", () => {
    expect(render(empty)).not.toContain("What you keep");
  });
});
