import { useEffect } from "react";
import { useFetcher } from "react-router";
import type { z } from "zod";
import type { AccountActionData, AccountIntent } from "~/domain/account-views";
import { useFormValidation } from "~/lib/form";
import { showToast } from "~/lib/toast";

/**
 * One account section's form: posts to the profile's action with its intent through its own
 * fetcher (so sections answer independently), checks fields in the browser with the server's
 * schema, and shows the answer's toast.
 */
export function useAccountForm<S extends z.ZodType>(intent: AccountIntent, schema: S, key: string = intent) {
  const fetcher = useFetcher<AccountActionData>({ key });
  const answer = fetcher.data?.intent === intent ? fetcher.data : undefined;
  const { errors, onSubmit } = useFormValidation(schema, answer?.fieldErrors);
  useEffect(() => {
    if (answer?.toast) showToast(answer.toast);
  }, [answer]);
  return { fetcher, answer, errors, onSubmit, busy: fetcher.state !== "idle" };
}
