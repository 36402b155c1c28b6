import { useFetcher } from "react-router";
import { REMINDER_TEXTS as T } from "~/domain/customer-mail";
import { FormError } from "./form-field";
import { Button } from "./ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card";
import { Checkbox } from "./ui/checkbox";
import { Label } from "./ui/label";
import { Spinner } from "./ui/spinner";
import { useActionToast } from "./use-action-toast";

interface ReminderAnswer {
  toast?: { title: string; description?: string; variant?: "default" | "success" | "destructive" } | null;
  fieldErrors?: { form?: string[] } | null;
}

/**
 * The profile's reminder e-mails switch (trial ends soon, renewal coming). Posts to
 * /profile/reminders, which answers with /profile and a toast: it works before the scripts load.
 */
export function ReminderEmailsForm({ enabled }: { enabled: boolean }) {
  const fetcher = useFetcher<ReminderAnswer>();
  const saving = fetcher.state !== "idle";
  useActionToast(fetcher.data);
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>{T.title}</CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          method="post"
          action="/profile/reminders"
          preventScrollReset
          className="flex flex-col gap-4"
          data-testid="reminder-emails-form"
        >
          <FormError errors={fetcher.data?.fieldErrors ?? {}} answer={fetcher.data} />
          <Label htmlFor="reminder_emails" className="cursor-pointer font-normal leading-snug">
            <Checkbox id="reminder_emails" name="reminder_emails" defaultChecked={enabled} key={String(enabled)} />
            {T.label}
          </Label>
          <div>
            <Button type="submit" variant="secondary" disabled={saving}>
              {saving ? <Spinner aria-label="Saving" /> : null}
              {T.save}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
