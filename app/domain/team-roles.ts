/**
 * Who may do what in a team (decision 0046), pure. The owner (the buyer, billing contact) may do
 * everything; a manager may invite and remove members but not pay, change seats or the plan, or rename; a member
 * only sees their own seat.
 */

export const TEAM_ROLE_NAMES = ["owner", "manager", "member"] as const;
export type TeamRoleName = (typeof TEAM_ROLE_NAMES)[number];

export const TEAM_ACTIONS = [
  "view-team",
  "invite",
  "withdraw-invitation",
  "remove-member",
  "change-seats",
  "change-plan",
  "pay",
  "rename",
  "domain-claim",
  "set-role",
  "take-seat",
] as const;
export type TeamAction = (typeof TEAM_ACTIONS)[number];

const ALLOWED: Record<TeamRoleName, readonly TeamAction[]> = {
  owner: TEAM_ACTIONS,
  manager: ["view-team", "invite", "withdraw-invitation", "remove-member", "take-seat"],
  member: [],
};

export const ROLE_ERRORS = {
  notMember: "Team not found.",
  forbidden: "Only the team's owner can do this.",
  managerOrOwner: "Only the team's owner or a manager can do this.",
  removeOwner: "The team's owner cannot be removed.",
  removeManager: "Only the team's owner can remove a manager.",
} as const;

export function isTeamRole(value: unknown): value is TeamRoleName {
  return typeof value === "string" && (TEAM_ROLE_NAMES as readonly string[]).includes(value);
}

/** Whether a role may do an action. */
export function canDo(role: TeamRoleName, action: TeamAction): boolean {
  return ALLOWED[role].includes(action);
}

/** The refusal's text when a role may not do an action (null: allowed). */
export function refusal(role: TeamRoleName | null, action: TeamAction): string | null {
  if (role === null) return ROLE_ERRORS.notMember;
  if (canDo(role, action)) return null;
  return ALLOWED.manager.includes(action) ? ROLE_ERRORS.managerOrOwner : ROLE_ERRORS.forbidden;
}

/**
 * Whether `actor` may remove `target` from the team: never the owner (the owner may give up their
 * own seat instead); a manager only plain members; the owner anyone else.
 */
export function removalRefusal(actor: TeamRoleName, target: TeamRoleName, self: boolean): string | null {
  const base = refusal(actor, "remove-member");
  if (base) return self ? null : base;
  if (target === "owner") return self ? null : ROLE_ERRORS.removeOwner;
  if (target === "manager" && actor !== "owner" && !self) return ROLE_ERRORS.removeManager;
  return null;
}
