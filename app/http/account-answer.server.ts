import { data } from "react-router";
import type { AccountActionData } from "~/domain/account-views";
import type { AccountReply } from "~/server/auth/account-replies.server";
import { redirectWithToast } from "./toast.server";

/** An account action's answer (accountAction) as HTTP: the page's data and status, or a redirect with its toast. */
export async function accountAnswer(answer: AccountReply) {
  if (answer.kind === "redirect") {
    return redirectWithToast(answer.to, answer.toast, { status: answer.status, headers: answer.headers });
  }
  return data<AccountActionData>(answer.body, { status: answer.status, headers: answer.headers });
}
