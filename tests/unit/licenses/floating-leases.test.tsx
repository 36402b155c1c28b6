import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FloatingLeases } from "~/components/licenses/floating-leases";
import { formatDateTime } from "~/domain/format-date";
import { LEASE_TEXTS, type LicenseLeasesView } from "~/domain/leases";

// The license card's and the admin's floating leases (decision 0069): the count only for a plan with
// floating use; the admin's user page also lists each live lease.

const render = (floating: LicenseLeasesView | undefined, listed = false) =>
  renderToString(<FloatingLeases floating={floating} listed={listed} />).replace(/<!-- -->/g, "");

const view: LicenseLeasesView = {
  limit: 3,
  leases: [
    { id: "l1", name: "BUILD-AGENT-1", taken_at: "2026-11-28T10:00:00.000Z", expires_at: "2026-11-28T10:20:00.000Z" },
    { id: "l2", name: null, taken_at: "2026-11-28T10:05:00.000Z", expires_at: "2026-11-28T10:25:00.000Z" },
  ],
};

describe("floating leases on a license", () => {
  it("the card says how many of the plan's leases are in use", () => {
    const html = render(view);
    expect(html).toContain(LEASE_TEXTS.inUse(2, 3));
    expect(html).toContain("2 of 3 floating leases in use");
    expect(html).not.toContain("BUILD-AGENT-1");
    expect(render({ limit: 1, leases: [] })).toContain("0 of 1 floating lease in use");
  });

  it("a plan without floating use shows nothing", () => {
    expect(render(undefined)).toBe("");
  });

  it("the admin's user page lists each live lease with its name and end", () => {
    const html = render(view, true);
    expect(html).toContain(`BUILD-AGENT-1: ${LEASE_TEXTS.until(formatDateTime(view.leases[0]!.expires_at))}`);
    expect(html).toContain(`${LEASE_TEXTS.unnamed}: held until Nov 28, 2026, 10:25 UTC unless renewed`);
  });
});
