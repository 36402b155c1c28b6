import { describe, expect, it } from "vitest";
import {
  defaultTeamName,
  invitationTokenOf,
  joinTeamTitle,
  emailDomain,
  INVITATION_ERRORS,
  invitationExpiry,
  invitationPath,
  invitationState,
  MAX_ADDRESSES,
  parseAddresses,
} from "~/domain/team-invitations";
import {
  canDo,
  isTeamRole,
  refusal,
  removalRefusal,
  ROLE_ERRORS,
  TEAM_ACTIONS,
  TEAM_ROLE_NAMES,
  type TeamAction,
} from "~/domain/team-roles";

describe("team roles", () => {
  const manager: TeamAction[] = ["view-team", "invite", "withdraw-invitation", "remove-member", "take-seat"];
  it("the owner may do everything, a manager invite and remove, a member nothing on the team", () => {
    for (const action of TEAM_ACTIONS) {
      expect(canDo("owner", action)).toBe(true);
      expect(canDo("manager", action)).toBe(manager.includes(action));
      expect(canDo("member", action)).toBe(false);
    }
  });

  it("a refusal says who may", () => {
    expect(refusal(null, "invite")).toBe(ROLE_ERRORS.notMember);
    expect(refusal("owner", "change-seats")).toBeNull();
    expect(refusal("manager", "change-seats")).toBe(ROLE_ERRORS.forbidden);
    expect(refusal("manager", "pay")).toBe(ROLE_ERRORS.forbidden);
    expect(refusal("member", "invite")).toBe(ROLE_ERRORS.managerOrOwner);
    expect(refusal("member", "rename")).toBe(ROLE_ERRORS.forbidden);
  });

  it("removal: never the owner by another, a manager only plain members, anyone may leave", () => {
    const table: [string, string, boolean, string | null][] = [
      ["owner", "member", false, null],
      ["owner", "manager", false, null],
      ["owner", "owner", true, null],
      ["manager", "member", false, null],
      ["manager", "manager", false, ROLE_ERRORS.removeManager],
      ["manager", "owner", false, ROLE_ERRORS.removeOwner],
      ["manager", "manager", true, null],
      ["member", "member", false, ROLE_ERRORS.managerOrOwner],
      ["member", "member", true, null],
      ["member", "owner", false, ROLE_ERRORS.managerOrOwner],
    ];
    for (const [actor, target, self, expected] of table) {
      expect(removalRefusal(actor as "owner", target as "owner", self), `${actor} removes ${target}`).toBe(expected);
    }
  });

  it("knows its roles", () => {
    for (const role of TEAM_ROLE_NAMES) expect(isTeamRole(role)).toBe(true);
    expect(isTeamRole("admin")).toBe(false);
    expect(isTeamRole(undefined)).toBe(false);
  });
});

describe("invitation rules", () => {
  it("reads addresses separated by commas, semicolons, spaces and lines, lower-case and once each", () => {
    expect(parseAddresses("A@x.io, b@x.io;\nc@x.io  a@X.io")).toEqual({
      ok: true,
      emails: ["a@x.io", "b@x.io", "c@x.io"],
    });
    expect(parseAddresses(["a@x.io", " b@x.io "])).toEqual({ ok: true, emails: ["a@x.io", "b@x.io"] });
    expect(parseAddresses("")).toEqual({ ok: true, emails: [] });
    expect(parseAddresses("a@x.io, nope")).toEqual({ ok: false, error: INVITATION_ERRORS.badAddress("nope") });
    const many = Array.from({ length: MAX_ADDRESSES + 1 }, (_, i) => `p${i}@x.io`).join(",");
    expect(parseAddresses(many)).toEqual({ ok: false, error: INVITATION_ERRORS.tooManyAddresses });
  });

  it("an invitation is open for 7 days, then expired; withdrawn and accepted stay so", () => {
    const now = new Date("2026-05-01T10:00:00Z");
    const expires = invitationExpiry(now);
    expect(expires.toISOString()).toBe("2026-05-08T10:00:00.000Z");
    expect(invitationState({ status: "pending", expires_at: expires }, now)).toBe("open");
    expect(invitationState({ status: "pending", expires_at: expires }, expires)).toBe("expired");
    expect(invitationState({ status: "withdrawn", expires_at: expires }, now)).toBe("withdrawn");
    expect(invitationState({ status: "accepted", expires_at: expires }, now)).toBe("accepted");
  });

  it("names paths, domains and default team names", () => {
    expect(invitationPath("ab_c-d")).toBe("/team/invitation?token=ab_c-d");
    expect(emailDomain("Ann@Example.COM")).toBe("example.com");
    expect(defaultTeamName("  Acme   Tools ", { email: "a@x.io" })).toBe("Acme Tools");
    expect(defaultTeamName("x".repeat(150), { email: "a@x.io" })).toHaveLength(100);
  });

  it("/register reached from an invitation reads its token from the return address", () => {
    expect(invitationTokenOf(invitationPath("tok_A-1"))).toBe("tok_A-1");
    expect(invitationTokenOf("/pricing?plan=monthly")).toBeNull();
    expect(invitationTokenOf("/team/invitation")).toBeNull();
    expect(invitationTokenOf(null)).toBeNull();
    expect(invitationTokenOf(`/team/invitation?token=${"x".repeat(201)}`)).toBeNull();
    expect(joinTeamTitle("Acme Ltd")).toBe("Join Acme Ltd");
  });

  it("a team without a typed name takes the owner's company, else their full name, never the address", () => {
    const owner = { email: "tom@x.io", fullName: "Tom  Baker", companyName: "Baker Tools", billingName: "Baker Ltd" };
    expect(defaultTeamName(null, owner)).toBe("Baker Ltd");
    expect(defaultTeamName("", { ...owner, billingName: null })).toBe("Baker Tools");
    expect(defaultTeamName("  ", { ...owner, billingName: " ", companyName: null })).toBe("Tom Baker");
    // No name at all on the account: the address's local part, without "'s team".
    expect(defaultTeamName(null, { email: "tom@x.io", fullName: "" })).toBe("tom");
    for (const named of [owner, { ...owner, billingName: null, companyName: null }])
      expect(defaultTeamName(null, named)).not.toMatch(/tom@|'s team/);
  });
});
