import { Power, PowerOff, RotateCw, Trash2 } from "~/components/lucide-icons";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { formatDateTime } from "~/domain/format-date";
import { WEBHOOK_TEXTS } from "~/domain/webhook-texts";
import type { WebhookDeliveryView, WebhookEndpointView } from "~/domain/webhooks";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/alert-dialog";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { useActionToast } from "../use-action-toast";

const when = formatDateTime;

/** The endpoints, newest first: address, events, state, the actions, and the latest attempts. */
export function WebhookList({ endpoints }: { endpoints: WebhookEndpointView[] }) {
  return (
    <ul className="flex flex-col gap-4" aria-label="Webhook endpoints">
      {endpoints.map((endpoint) => (
        <EndpointRow key={endpoint.id} endpoint={endpoint} />
      ))}
    </ul>
  );
}

function useIntent() {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : null);
  return fetcher;
}

function EndpointRow({ endpoint }: { endpoint: WebhookEndpointView }) {
  const fetcher = useIntent();
  const busy = fetcher.state !== "idle";
  return (
    <li data-testid="webhook-endpoint" className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-mono text-sm font-medium [overflow-wrap:anywhere]">{endpoint.url}</p>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            {endpoint.enabled ? (
              <Badge variant="success">Enabled</Badge>
            ) : (
              <Badge variant={endpoint.disabled_reason === "failing" ? "destructive" : "warning"}>Disabled</Badge>
            )}
            {endpoint.disabled_reason === "failing" ? (
              <span className="text-muted-foreground">{WEBHOOK_TEXTS.disabledForFailing}</span>
            ) : null}
            {endpoint.enabled && endpoint.failing_since ? (
              <span className="text-muted-foreground">Failing since {when(endpoint.failing_since)}</span>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() =>
              fetcher.submit({ intent: endpoint.enabled ? "disable" : "enable", id: endpoint.id }, { method: "post" })
            }
          >
            {endpoint.enabled ? <PowerOff aria-hidden /> : <Power aria-hidden />}
            {endpoint.enabled ? "Disable" : "Enable"}
          </Button>
          <DeleteButton endpoint={endpoint} />
        </div>
      </div>
      <p className="flex flex-wrap gap-1.5">
        {endpoint.events.map((type) => (
          <Badge key={type} variant="outline" className="font-mono">
            {type}
          </Badge>
        ))}
      </p>
      <Deliveries deliveries={endpoint.deliveries} />
    </li>
  );
}

function DeleteButton({ endpoint }: { endpoint: WebhookEndpointView }) {
  const fetcher = useIntent();
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" aria-label={`Delete ${endpoint.url}`}>
          <Trash2 aria-hidden /> Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this endpoint?</AlertDialogTitle>
          <AlertDialogDescription className="[overflow-wrap:anywhere]">
            {WEBHOOK_TEXTS.deleteConfirm(endpoint.url)}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => fetcher.submit({ intent: "delete", id: endpoint.id }, { method: "post" })}>
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function Deliveries({ deliveries }: { deliveries: WebhookDeliveryView[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-muted-foreground">{WEBHOOK_TEXTS.noDeliveries}</p>;
  return (
    <details className="group">
      <summary className="cursor-pointer text-sm font-medium">Deliveries ({deliveries.length})</summary>
      <ul className="mt-2 flex flex-col divide-y divide-border text-sm" aria-label="Deliveries">
        {deliveries.map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} />
        ))}
      </ul>
    </details>
  );
}

function DeliveryRow({ delivery }: { delivery: WebhookDeliveryView }) {
  const fetcher = useIntent();
  return (
    <li data-testid="webhook-delivery" className="flex flex-wrap items-start justify-between gap-2 py-2">
      <div className="flex min-w-0 flex-col gap-0.5">
        <p className="flex flex-wrap items-center gap-2">
          <Badge variant={delivery.ok ? "success" : "destructive"}>{delivery.status_code ?? "No answer"}</Badge>
          <span className="font-mono">{delivery.event_type}</span>
          <span className="text-muted-foreground">
            {when(delivery.attempted_at)} · {delivery.manual ? "redelivery" : `attempt ${delivery.attempt}`}
          </span>
        </p>
        {delivery.error && !delivery.ok ? <p className="text-muted-foreground">{delivery.error}</p> : null}
        {delivery.response_excerpt ? (
          <p className="font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">
            {delivery.response_excerpt.slice(0, 200)}
          </p>
        ) : null}
        {delivery.next_attempt_at ? (
          <p className="text-muted-foreground">Next attempt {when(delivery.next_attempt_at)}</p>
        ) : null}
      </div>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        disabled={fetcher.state !== "idle"}
        onClick={() => fetcher.submit({ intent: "redeliver", delivery_id: delivery.id }, { method: "post" })}
      >
        <RotateCw aria-hidden /> Redeliver
      </Button>
    </li>
  );
}
