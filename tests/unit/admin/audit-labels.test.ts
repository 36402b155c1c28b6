import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_LABELS, auditActionLabel } from "~/domain/admin-audit";

describe("audit actions read as words, not codes", () => {
  it("every recorded action has a sentence-case label in the past tense, never its code", () => {
    for (const [action, label] of Object.entries(AUDIT_ACTION_LABELS)) {
      expect(label, action).toMatch(/^[A-Z][a-z-]+ /);
      expect(label, action).not.toContain(action);
      expect(label, action).not.toMatch(/[._]/);
    }
  });

  it("shows the words for a known action and the code for one an older version recorded", () => {
    expect(auditActionLabel("team.remove_member")).toBe("Removed a team member");
    expect(auditActionLabel("legacy.thing")).toBe("legacy.thing");
  });
});
