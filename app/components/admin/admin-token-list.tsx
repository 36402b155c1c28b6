import { Ban } from "~/components/lucide-icons";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import type { TokenStatus } from "~/domain/api-token";
import { TOKEN_TEXTS } from "~/domain/api-token-texts";
import { formatReleaseDate } from "~/domain/release-format";
import type { ApiTokenView } from "~/domain/views";
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

const STATUS_BADGE: Record<TokenStatus, { label: string; variant: "success" | "warning" | "destructive" }> = {
  active: { label: "Active", variant: "success" },
  expired: { label: "Expired", variant: "warning" },
  revoked: { label: "Revoked", variant: "destructive" },
};

const day = (iso: string) => formatReleaseDate(iso.slice(0, 10));

/** The tokens, newest first: name, start of the token, scopes, expiry, last use, and Revoke. */
export function TokenList({
  tokens,
  status,
}: {
  tokens: ApiTokenView[];
  status: (token: ApiTokenView) => TokenStatus;
}) {
  return (
    <ul className="flex flex-col gap-3" aria-label="API tokens">
      {tokens.map((token) => (
        <TokenRow key={token.id} token={token} status={status(token)} />
      ))}
    </ul>
  );
}

function TokenRow({ token, status }: { token: ApiTokenView; status: TokenStatus }) {
  const badge = STATUS_BADGE[status];
  return (
    <li data-testid="api-token" className="flex flex-col gap-2 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {token.name} <Badge variant={badge.variant}>{badge.label}</Badge>
          </p>
          <p className="font-mono text-xs text-muted-foreground">{token.token_prefix}…</p>
        </div>
        {status === "revoked" ? null : <RevokeButton token={token} />}
      </div>
      <p className="flex flex-wrap gap-1.5">
        {token.scopes.map((scope) => (
          <Badge key={scope} variant="outline" className="font-mono">
            {scope}
          </Badge>
        ))}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Created</dt>
        <dd>{day(token.created_at)}</dd>
        <dt className="text-muted-foreground">{status === "expired" ? "Expired" : "Expires"}</dt>
        <dd>{day(token.expires_at)}</dd>
        <dt className="text-muted-foreground">Last used</dt>
        <dd data-testid="token-last-used">{token.last_used_at ? day(token.last_used_at) : "Never"}</dd>
        {token.revoked_at ? (
          <>
            <dt className="text-muted-foreground">Revoked</dt>
            <dd>{day(token.revoked_at)}</dd>
          </>
        ) : null}
      </dl>
    </li>
  );
}

function RevokeButton({ token }: { token: ApiTokenView }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : null);
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" aria-label={`Revoke ${token.name}`}>
          <Ban aria-hidden /> Revoke
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke {token.name}?</AlertDialogTitle>
          <AlertDialogDescription>{TOKEN_TEXTS.revokeConfirm(token.name)}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            onClick={() => fetcher.submit({ intent: "revoke-token", id: token.id }, { method: "post" })}
          >
            Revoke
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
