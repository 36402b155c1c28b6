import { FormError, FormField, FormMessage } from "~/components/form-field";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { codeOnlySchema, disableTwoFactorSchema, passwordOnlySchema } from "~/domain/account-schemas";
import type { AccountOverview, Enrolment } from "~/domain/account-views";
import { RecoveryCodeList, RecoveryCodesPanel } from "./recovery-codes";
import { useAccountForm } from "./use-account-form";

/**
 * Two-factor authentication: turn on (password → QR code, secret and ten recovery codes → a
 * current code); once on, the recovery codes left and "Generate new codes", and turning it off
 * (password and a current code; not for admins, who must keep it).
 */
export function TwoFactorSection({ account }: { account: AccountOverview }) {
  return (
    <Card id="two-factor">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-3 text-xl font-semibold">
            Two-factor authentication
            <Badge variant={account.twoFactorEnabled ? "default" : "secondary"}>
              {account.twoFactorEnabled ? "On" : "Off"}
            </Badge>
          </h2>
        </CardTitle>
        <CardDescription>
          After your password, logging in asks for a code from an authenticator app on your phone.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {account.twoFactorRequired ? (
          <FormMessage>Administrators must turn on two-factor authentication before using the admin area.</FormMessage>
        ) : null}
        {account.twoFactorEnabled ? (
          <>
            <RecoveryCodesPanel left={account.recoveryCodesLeft ?? 0} />
            {account.isAdmin ? (
              <p className="text-sm text-muted-foreground">Two-factor authentication stays on for administrators.</p>
            ) : (
              <DisableForm />
            )}
          </>
        ) : account.hasPassword ? (
          <EnableForms />
        ) : (
          <p className="text-sm text-muted-foreground">
            Two-factor authentication needs a password: your account signs in with a provider. Set a password with
            &ldquo;Forgot password?&rdquo; on the login page first.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function EnableForms() {
  const start = useAccountForm("two-factor-start", passwordOnlySchema);
  // The secret and recovery codes stay on screen while the code is typed (a separate form).
  const enrolment = start.answer?.enrolment ?? null;

  if (!enrolment) {
    return (
      <start.fetcher.Form
        method="post"
        action="/profile"
        noValidate
        onSubmit={start.onSubmit}
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="two-factor-start" />
        <FormError errors={start.errors} answer={start.answer} />
        <FormField
          id="two-factor-password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          errors={start.errors.password}
        />
        <div>
          <Button type="submit" disabled={start.busy}>
            {start.busy ? <Spinner aria-label="Setting up" /> : null}
            Set up two-factor authentication
          </Button>
        </div>
      </start.fetcher.Form>
    );
  }
  return <ConfirmEnrolment enrolment={enrolment} />;
}

function ConfirmEnrolment({ enrolment }: { enrolment: Enrolment }) {
  const confirm = useAccountForm("two-factor-confirm", codeOnlySchema);
  return (
    <div className="flex flex-col gap-5">
      <ol className="flex list-decimal flex-col gap-4 pl-5 text-sm">
        <li>
          Scan this QR code with your authenticator app.
          <div
            className="mt-3 w-48 rounded-md bg-white p-2"
            role="img"
            aria-label="QR code for your authenticator app"
            data-testid="two-factor-qr"
            // Drawn on the server by the qrcode package from the otpauth:// address: plain SVG shapes.
            dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
          />
          <p className="mt-3">
            Or type this key into the app:{" "}
            <code data-testid="two-factor-secret" className="rounded bg-muted px-1.5 py-0.5 font-mono break-all">
              {enrolment.secret}
            </code>
          </p>
        </li>
        <li>
          Save these recovery codes somewhere safe, apart from your phone: copy them or download them. Each signs you in
          once if you lose your phone; they are not shown again.
          <RecoveryCodeList codes={enrolment.recoveryCodes} madeAt={enrolment.madeAt} />
        </li>
        <li>Enter the 6-digit code the app shows now.</li>
      </ol>
      <confirm.fetcher.Form
        method="post"
        action="/profile"
        noValidate
        onSubmit={confirm.onSubmit}
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="two-factor-confirm" />
        <FormError errors={confirm.errors} answer={confirm.answer} />
        <FormField
          id="two-factor-code"
          name="code"
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          errors={confirm.errors.code}
        />
        <div>
          <Button type="submit" disabled={confirm.busy}>
            {confirm.busy ? <Spinner aria-label="Turning on" /> : null}
            Turn on two-factor authentication
          </Button>
        </div>
      </confirm.fetcher.Form>
    </div>
  );
}

function DisableForm() {
  const { fetcher, answer, errors, onSubmit, busy } = useAccountForm("two-factor-disable", disableTwoFactorSchema);
  return (
    <fetcher.Form
      id="two-factor-off"
      method="post"
      action="/profile"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="two-factor-off-title"
      className="flex flex-col gap-4 border-t pt-4"
    >
      <h3 id="two-factor-off-title" className="font-semibold">
        Turn off
      </h3>
      <input type="hidden" name="intent" value="two-factor-disable" />
      <FormError errors={errors} answer={answer} />
      <FormField
        id="disable-password"
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        required
        errors={errors.password}
      />
      <FormField
        id="disable-code"
        name="code"
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        errors={errors.code}
      />
      <div>
        <Button type="submit" variant="destructive" disabled={busy}>
          {busy ? <Spinner aria-label="Turning off" /> : null}
          Turn off two-factor authentication
        </Button>
      </div>
    </fetcher.Form>
  );
}
