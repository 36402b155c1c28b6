import { describe, expect, it } from "vitest";
import { formErrorTitle, toastToShow } from "~/domain/action-result";

/**
 * An error is said inline or as a toast, never both (decision 0060, docs/voice.md): the rule every page's
 * `useActionToast` and the profile's sections apply to an action's answer.
 */
describe("an answer's error is said once", () => {
  const refusal = { title: "Login Failed", description: "Invalid email or password", variant: "destructive" as const };

  it("a refusal with a message for the form or a field is said there: no toast", () => {
    expect(toastToShow({ ok: false, toast: refusal, fieldErrors: { form: [refusal.description] } })).toBeNull();
    expect(toastToShow({ toast: refusal, fieldErrors: { password: ["Wrong password."] } })).toBeNull();
  });

  it("a refusal with no message for the form is the toast", () => {
    expect(toastToShow({ ok: false, toast: refusal, fieldErrors: null })).toEqual(refusal);
    expect(toastToShow({ toast: refusal, fieldErrors: { form: [] } })).toEqual(refusal);
    expect(toastToShow({ toast: refusal })).toEqual(refusal);
  });

  it("a component that says every refusal itself (a dialog left open) shows none as a toast", () => {
    expect(toastToShow({ ok: false, toast: refusal }, { failuresShownHere: true })).toBeNull();
  });

  it("a success is always its toast, even from a dialog", () => {
    const done = { title: "Saved", variant: "success" as const };
    expect(toastToShow({ ok: true, toast: done }, { failuresShownHere: true })).toEqual(done);
    expect(toastToShow({ toast: done, fieldErrors: null })).toEqual(done);
    expect(toastToShow(null)).toBeNull();
    expect(toastToShow({ toast: null })).toBeNull();
  });

  it("the form's message carries the refusal's title, only beside the server's own message", () => {
    const answer = { toast: refusal, fieldErrors: { form: [refusal.description] } };
    expect(formErrorTitle(answer, refusal.description)).toBe("Login Failed");
    // A message the browser found (not the server's) has no server title.
    expect(formErrorTitle(answer, "Enter your e-mail address.")).toBeUndefined();
    expect(formErrorTitle(answer, undefined)).toBeUndefined();
    // A title that only repeats the message is not said twice.
    const same = { toast: { title: "Failed to update profile" }, fieldErrors: { form: ["Failed to update profile"] } };
    expect(formErrorTitle(same, "Failed to update profile")).toBeUndefined();
  });
});
