import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpMailer } from "~/server/mail/mailer.server";
import { confirmationEmail } from "~/emails/account-emails.server";

describe("SMTP delivery (SMTP_URL)", () => {
  const received: { from: string; to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends the confirmation e-mail as HTML and plain text to a real SMTP server", async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, '"ForgeKit" <support@forgekit.example>');
    const brand = {
      productName: "ForgeKit",
      publicUrl: "https://www.example.com",
      supportEmail: "support@forgekit.example",
    };
    await mailer.send(
      await confirmationEmail(
        brand,
        "ada@example.com",
        "Ada",
        "https://www.example.com/api/auth/verify-email?token=abc",
      ),
    );
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe("support@forgekit.example");
    expect(mail.to).toEqual(["ada@example.com"]);
    expect(mail.raw).toMatch(/^Subject: Confirm your ForgeKit account/m);
    expect(mail.raw).toContain("Content-Type: text/plain");
    expect(mail.raw).toContain("Content-Type: text/html");
    expect(mail.raw.replace(/=\r?\n/g, "")).toContain("verify-email?token=3Dabc");
  });
});
