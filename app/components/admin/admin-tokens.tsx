import { KeyRound } from "~/components/lucide-icons";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { API_TOKEN_SCOPES, TOKEN_EXPIRY_DAYS, tokenStatus } from "~/domain/api-token";
import { SCOPE_DESCRIPTIONS, TOKEN_TEXTS } from "~/domain/api-token-texts";
import type { ApiTokenView } from "~/domain/views";
import { FieldErrors, FormError, FormMessage } from "../form-field";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Checkbox } from "../ui/checkbox";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { NativeSelect } from "../ui/native-select";
import { useActionToast } from "../use-action-toast";
import { TokenList } from "./admin-token-list";
import { ShownOnce } from "./shown-once";

type CreateAnswer = ActionResult & { token?: string; name?: string };

/** The tokens page: the form that creates a token (shown once after), and the list. */
export function AdminTokens({
  tokens,
  error,
  now,
}: {
  tokens: ApiTokenView[] | null;
  error: string | null;
  now: string;
}) {
  const fetcher = useFetcher<CreateAnswer>();
  const answer = fetcher.state === "idle" ? fetcher.data : null;
  useActionToast(answer);
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">New token</h2>
          </CardTitle>
          <CardDescription>
            Give it a name that says where it is used, only the scopes it needs, and an expiry.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <CreateTokenForm fetcher={fetcher} errors={answer?.fieldErrors ?? {}} />
          {answer?.token ? (
            <ShownOnce
              label={answer.name ?? ""}
              warning={TOKEN_TEXTS.shownOnce}
              secret={answer.token}
              testId="new-token"
            />
          ) : null}
        </CardContent>
      </Card>
      <section aria-labelledby="tokens-heading" className="flex flex-col gap-3">
        <h2 id="tokens-heading" className="text-xl font-semibold">
          Tokens
        </h2>
        {error ? <FormMessage>{error}</FormMessage> : null}
        {tokens?.length === 0 ? <p className="text-muted-foreground">{TOKEN_TEXTS.none}</p> : null}
        {tokens?.length ? (
          <TokenList tokens={tokens} status={(token) => tokenStatus(toDates(token), new Date(now))} />
        ) : null}
      </section>
    </div>
  );
}

const toDates = (token: ApiTokenView) => ({
  expires_at: new Date(token.expires_at),
  revoked_at: token.revoked_at ? new Date(token.revoked_at) : null,
});

function CreateTokenForm({
  fetcher,
  errors,
}: {
  fetcher: ReturnType<typeof useFetcher<CreateAnswer>>;
  errors: Record<string, string[]>;
}) {
  return (
    <fetcher.Form method="post" className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="intent" value="create-token" />
      <FormError errors={errors} />
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <div className="flex flex-col gap-2">
          <Label htmlFor="token-name">Name</Label>
          <Input
            id="token-name"
            name="name"
            placeholder="Build pipeline"
            maxLength={100}
            aria-invalid={errors.name ? true : undefined}
          />
          <FieldErrors errors={errors.name} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="token-expiry">Expires after</Label>
          <NativeSelect id="token-expiry" name="expires_in_days" defaultValue="90">
            {TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
          </NativeSelect>
          <FieldErrors errors={errors.expires_in_days} />
        </div>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Scopes</legend>
        {API_TOKEN_SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm">
            <Checkbox name="scopes" value={scope} defaultChecked={scope === "releases:write"} />
            <span className="font-mono">{scope}</span>
            <span className="text-muted-foreground">— {SCOPE_DESCRIPTIONS[scope]}</span>
          </label>
        ))}
        <FieldErrors errors={errors.scopes} />
      </fieldset>
      <Button type="submit" className="self-start" disabled={fetcher.state !== "idle"}>
        <KeyRound aria-hidden /> Create token
      </Button>
    </fetcher.Form>
  );
}
