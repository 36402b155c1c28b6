import { data } from "react-router";
import { EmailChangeCard, type EmailChangeView } from "~/components/account/email-change-card";
import { EMAIL_CHANGE_TEXTS as T } from "~/domain/email-change-texts";
import { pageTitle } from "~/lib/meta";
import { readForm } from "~/http/read-form.server";
import { confirmEmailChange, emailChangeLink, undoEmailChange } from "~/server/auth/email-change.server";
import { getEnv } from "~/server/env.server";
import type { Route } from "./+types/email-change";

/**
 * `/email-change?token=…` (decision 0059): the link sent to a new address (confirm the
 * change) or to the old one (undo it). A GET only shows what the button will do; the POST acts,
 * once. The token stays out of the request log, which writes paths, never queries.
 */
async function viewOf(token: string, error: string | null = null) {
  const { state, link } = await emailChangeLink(token);
  if (state === "open" && link) {
    const view: EmailChangeView = {
      kind: "open",
      link: link.kind,
      token,
      oldEmail: link.old_email,
      newEmail: link.new_email,
      error,
    };
    return { view, status: error ? 409 : 200 };
  }
  const message = error ?? (state === "used" ? T.used : state === "expired" ? T.expired : T.unknown);
  const view: EmailChangeView = {
    kind: "closed",
    link: link?.kind ?? null,
    message,
    supportEmail: getEnv().SUPPORT_EMAIL,
  };
  return { view, status: error ? 409 : state === "unknown" ? 404 : 410 };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { view, status } = await viewOf(token);
  return data<{ view: EmailChangeView }>({ view }, { status });
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = String(form.get("token") ?? "");
  const { link } = await emailChangeLink(token);
  const outcome = link?.kind === "undo" ? await undoEmailChange(token) : await confirmEmailChange(token);
  if (outcome.ok) {
    const view: EmailChangeView =
      outcome.link.kind === "undo"
        ? { kind: "undone", oldEmail: outcome.link.old_email }
        : { kind: "confirmed", newEmail: outcome.link.new_email };
    return data<{ view: EmailChangeView }>({ view });
  }
  if (outcome.state) {
    const { view, status } = await viewOf(token);
    return data<{ view: EmailChangeView }>({ view }, { status });
  }
  const view: EmailChangeView = {
    kind: "closed",
    link: link?.kind ?? null,
    message: outcome.message,
    supportEmail: getEnv().SUPPORT_EMAIL,
  };
  return data<{ view: EmailChangeView }>({ view }, { status: outcome.status });
}

export default function EmailChangeRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <EmailChangeCard view={actionData?.view ?? loaderData.view} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Change of e-mail address"),
  { name: "description", content: "Confirm or undo a change of your account's e-mail address." },
  { name: "robots", content: "noindex" },
];
