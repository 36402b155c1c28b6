import { formatDate } from "~/domain/format-date";
import { machinesPhrase } from "~/domain/machines";
import { LICENSES } from "./customer-email-types.server";
import { composeEmail, EmailLayout, Facts, greeting, P, type Brand, type EmailMessage } from "./layout.server";

/** What the e-mail about a newly activated machine shows (decision 0041). */
export interface MachineActivatedInput {
  brand: Brand;
  name: string;
  shortId: string;
  machineName: string;
  platform: string | null;
  appVersion: string | null;
  activatedAt: Date;
  active: number;
  limit: number;
}

export function MachineActivated(input: MachineActivatedInput) {
  const { brand } = input;
  const rows: [string, string][] = [
    ["Machine", input.machineName],
    ["Activated", formatDate(input.activatedAt)],
    ["In use", `${input.active} of ${machinesPhrase(input.limit)}`],
  ];
  if (input.platform) rows.splice(1, 0, ["Platform", input.platform]);
  if (input.appVersion) rows.splice(rows.length - 1, 0, ["App version", input.appVersion]);
  return (
    <EmailLayout
      brand={brand}
      shortId={input.shortId}
      heading="A new machine was activated"
      preview={`${input.machineName} now uses your ${brand.productName} license ${input.shortId}`}
      action={LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        {brand.productName} was just activated on a new machine with your license. Your licenses page lists every
        machine, and you can deactivate one there to free its seat.
      </P>
      <Facts rows={rows} />
      <P>
        Not you? Deactivate the machine on your licenses page and write to {brand.supportEmail}: your license key may
        have been shared.
      </P>
    </EmailLayout>
  );
}

export function machineActivatedEmail(to: string, input: MachineActivatedInput): Promise<EmailMessage> {
  return composeEmail(
    to,
    `${input.brand.productName}: ${input.machineName} was activated on your license`,
    <MachineActivated {...input} />,
  );
}
