import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "~/routes/licenses";

describe("the licenses page when its licenses cannot be read", () => {
  it("shows 'Failed to load licenses' and a way to try again", () => {
    const html = renderToString(<ErrorBoundary />);
    expect(html).toContain("Failed to load licenses");
    expect(html).toContain('href="/licenses"');
  });
});
