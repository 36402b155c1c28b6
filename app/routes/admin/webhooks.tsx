import { data } from "react-router";
import { AdminWebhooks } from "~/components/admin/admin-webhooks";
import { BackToAdmin } from "~/components/admin/back-to-admin";
import type { ActionResult, FieldErrors } from "~/domain/action-result";
import { WEBHOOK_TEXTS } from "~/domain/webhook-texts";
import { webhookFormSchema } from "~/domain/webhooks";
import { parseValues } from "~/lib/form";
import { pageTitle } from "~/lib/meta";
import { ActionError } from "~/server/action-error.server";
import { failure } from "~/http/action-reply.server";
import { currentAdmin } from "~/http/admin-guard.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  redeliverWebhook,
  setWebhookEnabled,
  WebhookFieldError,
} from "~/server/webhooks/endpoints.server";
import type { Route } from "./+types/webhooks";

/** Webhook endpoints for the vendor's systems (decision 0044): admins only (the admin layout's guard). */
export async function loader({ context }: Route.LoaderArgs) {
  currentAdmin(context);
  try {
    return { endpoints: await listWebhookEndpoints(), error: null };
  } catch (error) {
    getLogger().error({ err: error }, "admin webhooks page failed");
    return data({ endpoints: null, error: WEBHOOK_TEXTS.loadFailed }, { status: 500 });
  }
}

/** Create (the secret is in this answer only), enable, disable, delete, redeliver; each audited by the service. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const fail = (status: number, description: string, fieldErrors?: FieldErrors) =>
    failure(status, { description, fieldErrors, formError: false });
  try {
    if (intent === "create-endpoint") {
      const parsed = parseValues(webhookFormSchema, {
        url: String(form.get("url") ?? ""),
        events: form.getAll("events").map(String),
      });
      if (!parsed.success) return fail(400, Object.values(parsed.fieldErrors)[0]![0]!, parsed.fieldErrors);
      const { secret } = await createWebhookEndpoint({ admin, form: parsed.data });
      return data({ ok: true, toast: WEBHOOK_TEXTS.created(parsed.data.url), secret, url: parsed.data.url });
    }
    if (intent === "enable" || intent === "disable") {
      const { url } = await setWebhookEnabled({ admin, id, enabled: intent === "enable" });
      return data<ActionResult>({ ok: true, toast: WEBHOOK_TEXTS[intent === "enable" ? "enabled" : "disabled"](url) });
    }
    if (intent === "delete") {
      const { url } = await deleteWebhookEndpoint({ admin, id });
      return data<ActionResult>({ ok: true, toast: WEBHOOK_TEXTS.deleted(url) });
    }
    if (intent === "redeliver") {
      const { url, type } = await redeliverWebhook({ admin, deliveryId: String(form.get("delivery_id") ?? "") });
      return data<ActionResult>({ ok: true, toast: WEBHOOK_TEXTS.redelivered(type, url) });
    }
    return fail(400, "Unknown action.");
  } catch (error) {
    if (error instanceof WebhookFieldError)
      return fail(error.status, error.message, { [error.field]: [error.message] });
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error, intent }, "admin webhook action failed");
    return fail(500, WEBHOOK_TEXTS.actionFailed);
  }
}

export default function AdminWebhooksPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-12 sm:px-6">
      <BackToAdmin />
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-muted-foreground">
          {WEBHOOK_TEXTS.intro} Payloads and signature: docs/webhooks.md in the repository.
        </p>
      </div>
      <AdminWebhooks endpoints={loaderData.endpoints} error={loaderData.error} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Webhooks"),
  { name: "description", content: "Webhook endpoints that receive the site's events." },
  { name: "robots", content: "noindex" },
];
