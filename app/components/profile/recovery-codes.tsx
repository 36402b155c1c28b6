import { Copy, Download } from "~/components/lucide-icons";
import { FormError, FormField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { useHydrated } from "~/components/use-hydrated";
import { useRootData } from "~/components/use-root-data";
import { passwordOnlySchema } from "~/domain/account-schemas";
import type { NewRecoveryCodes } from "~/domain/account-views";
import { formatDate } from "~/domain/format-date";
import {
  RECOVERY_CODE_COUNT,
  RECOVERY_CODES_LOW,
  recoveryCodesFileName,
  recoveryCodesText,
  textDataUrl,
} from "~/domain/recovery-codes";
import { copyText } from "~/lib/copy-text";
import { cn } from "~/lib/utils";
import { useAccountForm } from "./use-account-form";

/**
 * Recovery codes just made (at set-up, or by "Generate new codes"), shown once: the list, Copy
 * (all codes, one a line; shown once scripts run) and Download as a .txt file (a data: link drawn
 * on the server, so it works before and without JavaScript).
 */
export function RecoveryCodeList({ codes, madeAt }: NewRecoveryCodes) {
  const hydrated = useHydrated();
  const root = useRootData();
  const productName = root?.publicConfig.productName ?? "ForgeKit";
  const file = recoveryCodesText({ productName, email: root?.user?.email ?? "", madeOn: formatDate(madeAt), codes });
  return (
    <div className="mt-3 flex flex-col gap-3">
      <ul
        data-testid="recovery-codes"
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border bg-background/60 p-3 font-mono text-sm tracking-wider"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <a href={textDataUrl(file)} download={recoveryCodesFileName(productName)}>
            <Download aria-hidden /> Download .txt
          </a>
        </Button>
        {hydrated ? (
          <Button
            type="button"
            variant="secondary"
            size="sm"
            onClick={() =>
              copyText(codes.join("\n"), {
                copied: "Recovery codes copied to the clipboard.",
                byHand: "Select the codes and copy them, or download them.",
              })
            }
          >
            <Copy aria-hidden /> Copy codes
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** "8 of 10 recovery codes left", with a nudge to make new ones when few are left. */
export function RecoveryCodesLeft({ left, total }: { left: number; total: number }) {
  const low = left <= RECOVERY_CODES_LOW;
  return (
    <p
      data-testid="recovery-codes-left"
      className={cn(
        "text-sm",
        low ? "rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-foreground" : "text-muted-foreground",
      )}
    >
      <strong className="font-semibold text-foreground">
        {left} of {total}
      </strong>{" "}
      recovery codes left.
      {left === 0
        ? " Make new ones now: without them, losing your phone locks you out."
        : low
          ? " Make new ones before you run out."
          : " Each signs you in once if you lose your phone."}
    </p>
  );
}

/**
 * The recovery codes of an account with two-factor on: how many are left, and "Generate new codes"
 * (password; the old codes stop working at once), whose answer shows the new codes once.
 */
export function RecoveryCodesPanel({ left }: { left: number }) {
  const { fetcher, answer, errors, onSubmit, busy } = useAccountForm("recovery-codes-regenerate", passwordOnlySchema);
  const fresh = answer?.recoveryCodes ?? null;
  return (
    <section id="two-factor-recovery" aria-labelledby="two-factor-recovery-title" className="flex flex-col gap-3">
      <h3 id="two-factor-recovery-title" className="font-semibold">
        Recovery codes
      </h3>
      {fresh ? (
        <div className="text-sm">
          <p role="status">
            Your new recovery codes. Save them now: they are not shown again, and your old codes no longer work.
          </p>
          <RecoveryCodeList codes={fresh.codes} madeAt={fresh.madeAt} />
        </div>
      ) : (
        <RecoveryCodesLeft left={left} total={RECOVERY_CODE_COUNT} />
      )}
      <fetcher.Form method="post" action="/profile" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="recovery-codes-regenerate" />
        <FormError errors={errors} answer={answer} />
        <FormField
          // A fresh field once new codes were made: the password does not stay typed in.
          key={fresh?.madeAt ?? "none"}
          id="regenerate-password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          hint="New codes replace all your current ones at once."
          errors={errors.password}
        />
        <div>
          <Button type="submit" variant="outline" disabled={busy}>
            {busy ? <Spinner aria-label="Generating" /> : null}
            Generate new codes
          </Button>
        </div>
      </fetcher.Form>
    </section>
  );
}
