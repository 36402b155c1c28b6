import { useEffect } from "react";
import { useActionData, useFetcher } from "react-router";
import type { z } from "zod";
import type { AccountActionData, AccountIntent } from "~/domain/account-views";
import { useFormValidation } from "~/lib/form";
import { toastToShow } from "~/domain/action-result";
import { showToast } from "~/lib/toast";

/**
 * One account section's form: posts to the profile's action with its intent through its own
 * fetcher (so sections answer independently), checks fields in the browser with the server's
 * schema, and shows the answer's toast unless the form says it. Without JavaScript the fetcher's form posts the page
 * natively, and the page's action data is the answer (the enrolment's QR code, errors).
 */
export function useAccountForm<S extends z.ZodType>(intent: AccountIntent, schema: S, key: string = intent) {
  const fetcher = useFetcher<AccountActionData>({ key });
  // Without JavaScript the form is a native post: its answer is the page's action data.
  const pageAnswer = useActionData<AccountActionData | { intent?: undefined }>();
  const data = fetcher.data ?? pageAnswer;
  const answer = data?.intent === intent ? (data as AccountActionData) : undefined;
  const { errors, onSubmit } = useFormValidation(schema, answer?.fieldErrors);
  // A refusal the section's form says (its fields or its form message) is not a toast too.
  useEffect(() => {
    const toast = toastToShow(answer);
    if (toast) showToast(toast);
  }, [answer]);
  return { fetcher, answer, errors, onSubmit, busy: fetcher.state !== "idle" };
}
