import { data } from "react-router";
import { InvitationCard, type InvitationPageView } from "~/components/team/invitation-card";
import { INVITATION_ERRORS, invitationPath } from "~/domain/team-invitations";
import { pageTitle } from "~/lib/meta";
import { ActionError } from "~/server/action-error.server";
import { getCurrentSession } from "~/server/auth/session.server";
import { requireUser } from "~/http/session-guards.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import { acceptInvitation, invitationByToken } from "~/server/teams/team-accept.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/team.invitation";

/**
 * An invitation's accept page (decision 0047), `/team/invitation?token=…` (the token stays out of the
 * request log, which writes paths, never queries). Anyone with the link sees the team's name and
 * the invited address; accepting needs that address, signed in and confirmed.
 */
async function viewOf(request: Request, token: string, error: string | null = null) {
  const found = await invitationByToken(token);
  if (!found) return { view: { kind: "unknown", message: INVITATION_ERRORS.unknown } as const, status: 404 };
  const { teamName, email } = found;
  if (found.state !== "open")
    return { view: { kind: "closed", teamName, message: INVITATION_ERRORS[found.state] } as const, status: 410 };
  const { user } = await getCurrentSession(request);
  const expiresAt = found.expiresAt.toISOString();
  if (!user)
    return {
      view: { kind: "signed-out", teamName, email, expiresAt, back: invitationPath(token) } as const,
      status: 200,
    };
  if (user.email.toLowerCase() !== email.toLowerCase()) {
    const message = INVITATION_ERRORS.wrongAddress(email);
    return { view: { kind: "wrong-address", teamName, email, signedInAs: user.email, message } as const, status: 403 };
  }
  if (!user.emailVerified)
    return {
      view: { kind: "unconfirmed", teamName, email, message: INVITATION_ERRORS.unconfirmed } as const,
      status: 403,
    };
  return { view: { kind: "open", teamName, email, expiresAt, token, error } as const, status: error ? 409 : 200 };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { view, status } = await viewOf(request, token);
  return data<{ view: InvitationPageView }>({ view }, { status });
}

/** Accepts for the signed-in user; the service checks the link, the address, the free seat under the team's lock. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const token = String(form.get("token") ?? "");
  try {
    const { teamName, shortId } = await acceptInvitation({ token, userId: user.id });
    return redirectWithToast("/licenses", {
      title: `Welcome to ${teamName}`,
      description: `Your seat license ${shortId} is below, provided by ${teamName}.`,
      variant: "success",
    });
  } catch (error) {
    if (!(error instanceof ActionError)) {
      getLogger().error({ err: error }, "accepting an invitation failed");
      throw error;
    }
    const { view } = await viewOf(request, token, error.message);
    return data<{ view: InvitationPageView }>({ view }, { status: error.status });
  }
}

export default function TeamInvitationRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <InvitationCard view={actionData?.view ?? loaderData.view} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Team invitation"),
  { name: "description", content: "Accept an invitation to a team's seat." },
  { name: "robots", content: "noindex" },
];
