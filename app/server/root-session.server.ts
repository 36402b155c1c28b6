import type { Role } from "./db/schema";

export interface SessionUser {
  id: string;
  email: string;
  fullName: string;
}

/**
 * The signed-in user and role for the root loader, so every page renders the right
 * navigation on the server. Accounts (sessions, Better Auth) arrive with the accounts
 * work; until then every visitor is signed out.
 */
export async function getRootSession(_request: Request): Promise<{ user: SessionUser | null; role: Role }> {
  return { user: null, role: "user" };
}
