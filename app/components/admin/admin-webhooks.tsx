import { Webhook } from "~/components/lucide-icons";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { EVENT_DESCRIPTIONS, WEBHOOK_TEXTS } from "~/domain/webhook-texts";
import { WEBHOOK_EVENT_TYPES, type WebhookEndpointView } from "~/domain/webhooks";
import { FieldErrors, FormError, FormMessage } from "../form-field";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Checkbox } from "../ui/checkbox";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { useActionToast } from "../use-action-toast";
import { WebhookList } from "./admin-webhook-list";
import { ShownOnce } from "./shown-once";

type CreateAnswer = ActionResult & { secret?: string; url?: string };

/** The webhooks page: the form that adds an endpoint (its secret shown once after), and the endpoints. */
export function AdminWebhooks({ endpoints, error }: { endpoints: WebhookEndpointView[] | null; error: string | null }) {
  const fetcher = useFetcher<CreateAnswer>();
  const answer = fetcher.state === "idle" ? fetcher.data : null;
  useActionToast(answer);
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">New endpoint</h2>
          </CardTitle>
          <CardDescription>
            An https address of the vendor&apos;s system, and the events it should receive.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <CreateEndpointForm fetcher={fetcher} errors={answer?.fieldErrors ?? {}} />
          {answer?.secret ? (
            <ShownOnce
              label={answer.url ?? ""}
              warning={WEBHOOK_TEXTS.shownOnce}
              secret={answer.secret}
              testId="new-webhook-secret"
            />
          ) : null}
        </CardContent>
      </Card>
      <section aria-labelledby="endpoints-heading" className="flex flex-col gap-3">
        <h2 id="endpoints-heading" className="text-xl font-semibold">
          Endpoints
        </h2>
        {error ? <FormMessage>{error}</FormMessage> : null}
        {endpoints?.length === 0 ? <p className="text-muted-foreground">{WEBHOOK_TEXTS.none}</p> : null}
        {endpoints?.length ? <WebhookList endpoints={endpoints} /> : null}
      </section>
    </div>
  );
}

function CreateEndpointForm({
  fetcher,
  errors,
}: {
  fetcher: ReturnType<typeof useFetcher<CreateAnswer>>;
  errors: Record<string, string[]>;
}) {
  return (
    <fetcher.Form method="post" className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="intent" value="create-endpoint" />
      <FormError errors={errors} />
      <div className="flex flex-col gap-2">
        <Label htmlFor="webhook-url">URL</Label>
        <Input
          id="webhook-url"
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://crm.example.com/webhooks/forgekit"
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={errors.url ? "webhook-url-error" : undefined}
        />
        <FieldErrors id="webhook-url-error" errors={errors.url} />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Events</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <div key={type} className="flex items-start gap-2 text-sm">
              <Checkbox id={`event-${type}`} name="events" value={type} defaultChecked className="mt-0.5" />
              <label htmlFor={`event-${type}`} className="flex flex-col">
                <span className="font-mono">{type}</span>
                <span className="text-muted-foreground">{EVENT_DESCRIPTIONS[type]}</span>
              </label>
            </div>
          ))}
        </div>
        <FieldErrors errors={errors.events} />
      </fieldset>
      <Button type="submit" className="self-start" disabled={fetcher.state !== "idle"}>
        <Webhook aria-hidden /> Add endpoint
      </Button>
    </fetcher.Form>
  );
}
