import { describe, expect, it } from "vitest";
import { seatQuoteText } from "~/domain/team-page";

describe("a seat change's confirmation names its amounts in the team's currency (decision 0072)", () => {
  const renewsAt = "2027-01-01T00:00:00.000Z";
  it("US dollars, as before; euros for a euro team", () => {
    expect(
      seatQuoteText({ effect: "now", seats: 5, dueNowCents: 900, renewalCents: 4500, renewsAt }, "Jan 1, 2027"),
    ).toBe(
      "The team gets 5 seats now. $9 is charged today for the added seats (prorated to Jan 1, 2027), then $45 at each renewal.",
    );
    expect(
      seatQuoteText(
        { effect: "next-renewal", seats: 2, dueNowCents: 0, renewalCents: 1998, currency: "EUR", renewsAt },
        "Jan 1, 2027",
      ),
    ).toBe("The team keeps its seats until Jan 1, 2027, then renews with 2 seats for €19.98. Nothing is charged now.");
  });

  it("an amount not known in the team's currency is left out, never shown in dollars", () => {
    const unknown = { seats: 5, dueNowCents: null, renewalCents: null, currency: "EUR", renewsAt };
    expect(seatQuoteText({ ...unknown, effect: "now" }, "Jan 1, 2027")).toBe(
      "The team gets 5 seats now. The added seats are charged today, prorated to Jan 1, 2027.",
    );
    expect(seatQuoteText({ ...unknown, effect: "next-renewal" }, "Jan 1, 2027")).toBe(
      "The team keeps its seats until Jan 1, 2027, then renews with 5 seats. Nothing is charged now.",
    );
    expect(seatQuoteText({ ...unknown, effect: "cancel-reduction" }, "Jan 1, 2027")).toBe(
      "The scheduled reduction is cancelled: the team renews with 5 seats on Jan 1, 2027.",
    );
  });
});
