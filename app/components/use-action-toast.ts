import { useEffect } from "react";
import { toastToShow, type AnswerMessages } from "~/domain/action-result";
import { showToast } from "~/lib/toast";

/**
 * Shows the toast an action returned (actions that stay on their page), unless its form says the
 * refusal already (`toastToShow`): an error appears once. `failuresShownHere`: the component shows
 * every refusal itself (a dialog that stays open with the server's message).
 */
export function useActionToast(
  actionData: AnswerMessages | undefined | null,
  options: { failuresShownHere?: boolean } = {},
): void {
  const { failuresShownHere = false } = options;
  useEffect(() => {
    const toast = toastToShow(actionData, { failuresShownHere });
    if (toast) showToast(toast);
  }, [actionData, failuresShownHere]);
}
