import { accountNotice as notice, dateAndTime } from "./account-layout.server";
import { SiteLink, type Brand, type EmailMessage } from "./layout.server";

/**
 * To every admin (decision 0044): a webhook endpoint failed for 24 hours and was disabled;
 * its events are no longer delivered until an admin enables it again.
 */
export function webhookDisabledEmail(
  brand: Brand,
  to: string,
  name: string,
  { url, failingSince, lastError }: { url: string; failingSince: Date; lastError: string },
): Promise<EmailMessage> {
  return notice(brand, to, "a webhook endpoint was disabled", name, [
    `Deliveries to the webhook endpoint ${url} have failed since ${dateAndTime(failingSince)}, so it was disabled. The last attempt: ${lastError}.`,
    <>
      Events are not sent to it until it is enabled again on <SiteLink brand={brand} path="/admin/webhooks" />, where
      each attempt is listed and can be redelivered.
    </>,
  ]);
}
