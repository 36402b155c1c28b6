import { data } from "react-router";
import { AdminTokens } from "~/components/admin/admin-tokens";
import { BackToAdmin } from "~/components/admin/back-to-admin";
import type { ActionResult, FieldErrors } from "~/domain/action-result";
import { tokenFormSchema } from "~/domain/api-token";
import { TOKEN_TEXTS } from "~/domain/api-token-texts";
import { parseValues } from "~/lib/form";
import { pageTitle } from "~/lib/meta";
import { ActionError } from "~/server/action-error.server";
import { failure } from "~/http/action-reply.server";
import { createApiToken, listApiTokens, revokeApiToken } from "~/server/api-tokens/api-tokens.server";
import { currentAdmin } from "~/http/admin-guard.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/tokens";

/** API tokens for the vendor's systems (decision 0039): admins only (the admin layout's guard). */
export async function loader({ context }: Route.LoaderArgs) {
  currentAdmin(context);
  try {
    return { tokens: await listApiTokens(), error: null, now: new Date().toISOString() };
  } catch (error) {
    getLogger().error({ err: error }, "admin tokens page failed");
    return data({ tokens: null, error: TOKEN_TEXTS.loadFailed, now: new Date().toISOString() }, { status: 500 });
  }
}

/** Create (the token is in this answer only) or revoke; both audited by the service. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const fail = (status: number, description: string, fieldErrors?: FieldErrors) =>
    failure(status, { description, fieldErrors, formError: false });
  try {
    if (intent === "create-token") {
      const parsed = parseValues(tokenFormSchema, {
        name: String(form.get("name") ?? ""),
        scopes: form.getAll("scopes").map(String),
        expires_in_days: String(form.get("expires_in_days") ?? ""),
      });
      if (!parsed.success) return fail(400, Object.values(parsed.fieldErrors)[0]![0]!, parsed.fieldErrors);
      const { token } = await createApiToken({ admin, form: parsed.data });
      return data({ ok: true, toast: TOKEN_TEXTS.created(parsed.data.name), token, name: parsed.data.name });
    }
    if (intent === "revoke-token") {
      const { name } = await revokeApiToken({ admin, id: String(form.get("id") ?? "") });
      return data<ActionResult>({ ok: true, toast: TOKEN_TEXTS.revoked(name) });
    }
    return fail(400, "Unknown action.");
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error, intent }, "admin token action failed");
    return fail(500, TOKEN_TEXTS.actionFailed);
  }
}

export default function AdminTokensPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-12 sm:px-6">
      <BackToAdmin />
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">API tokens</h1>
        <p className="mt-1 text-muted-foreground">{TOKEN_TEXTS.intro}</p>
      </div>
      <AdminTokens tokens={loaderData.tokens} error={loaderData.error} now={loaderData.now} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "API tokens"),
  { name: "description", content: "Tokens for the vendor's build pipeline and systems on the API." },
  { name: "robots", content: "noindex" },
];
