import { AccountAction, AccountLayout } from "./account-layout.server";
import { composeEmail, greeting, P, siteUrl, type Brand, type EmailMessage } from "./layout.server";

/**
 * The e-mails of signing up and signing in: confirm the address, someone registered with it
 * again, reset the password, confirm a new address. Links are absolute (PUBLIC_URL).
 */

export function confirmationEmail(brand: Brand, to: string, name: string, url: string): Promise<EmailMessage> {
  const subject = `Confirm your ${brand.productName} account`;
  return composeEmail(
    to,
    subject,
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name)}</P>
      <P>
        Thanks for creating a {brand.productName} account. Follow the link and log in with the password you chose to
        confirm your e-mail address. The link works for 24 hours.
      </P>
      <AccountAction label="Confirm my e-mail address" url={url} />
      <P>
        If you did not create this account, you can ignore this e-mail: nobody can log in with it until it is confirmed.
      </P>
    </AccountLayout>,
  );
}

export function alreadyRegisteredEmail(brand: Brand, to: string, name: string): Promise<EmailMessage> {
  const subject = "Someone tried to register with your e-mail address";
  return composeEmail(
    to,
    subject,
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name)}</P>
      <P>
        Someone (perhaps you) tried to create a new {brand.productName} account with this e-mail address. You already
        have an account, so nothing was created.
      </P>
      <P>If you forgot your password, you can choose a new one:</P>
      <AccountAction label="Reset my password" url={siteUrl(brand, "/forgot-password")} />
      <P>If it was not you, you can ignore this e-mail: your account is unchanged.</P>
    </AccountLayout>,
  );
}

/**
 * Someone registered again with an address whose account was never confirmed (decision 0059): the
 * owner of the address gets the confirmation link, where they log in or choose their own password.
 */
export function registeredAgainEmail(brand: Brand, to: string, name: string, url: string): Promise<EmailMessage> {
  const subject = `Confirm your ${brand.productName} account and choose your password`;
  return composeEmail(
    to,
    subject,
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name)}</P>
      <P>
        Someone (perhaps you) tried to create a {brand.productName} account with this e-mail address, which already has
        an account waiting for confirmation. Follow the link to confirm it: log in with your password, or choose a new
        one there. The link works for 24 hours.
      </P>
      <AccountAction label="Confirm and choose my password" url={url} />
      <P>If it was not you, you can ignore this e-mail: nobody can log in with this address until it is confirmed.</P>
    </AccountLayout>,
  );
}

/**
 * To the old address, once a change of address is made (decision 0059): when, the new address, and the
 * link that puts the old one back and ends every session (7 days).
 */
export function emailChangedEmail(
  brand: Brand,
  to: string,
  name: string,
  { newEmail, undoUrl, days }: { newEmail: string; undoUrl: string; days: number },
): Promise<EmailMessage> {
  const subject = `Your ${brand.productName} e-mail address was changed`;
  return composeEmail(
    to,
    subject,
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name)}</P>
      <P>
        The e-mail address of your {brand.productName} account was changed from {to} to {newEmail}. From now on you log
        in with {newEmail}.
      </P>
      <P>
        If you did not do this, undo it within {days} days: the link puts {to} back and logs out every session of the
        account. Then choose a new password.
      </P>
      <AccountAction label="Undo the change" url={undoUrl} />
      <P>{`If you made the change yourself, you can ignore this e-mail. Questions: ${brand.supportEmail}.`}</P>
    </AccountLayout>,
  );
}

/** "GitHub", "GitHub and Google", "A, B and C". */
function namesList(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * The password-reset link. `providers` are the sign-in providers connected to the account
 * ("GitHub", "Google"): the e-mail names them, so an owner who did not connect one notices.
 */
export function resetPasswordEmail(
  brand: Brand,
  to: string,
  name: string,
  url: string,
  providers: string[] = [],
): Promise<EmailMessage> {
  const subject = `Reset your ${brand.productName} password`;
  return composeEmail(
    to,
    subject,
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name)}</P>
      <P>We received a request to reset your password. The link below expires in 24 hours and works once.</P>
      {providers.length > 0 ? <P>{`You can also log in to this account with ${namesList(providers)}.`}</P> : null}
      <AccountAction label="Choose a new password" url={url} />
      <P>If you did not ask for this, you can ignore this e-mail: your password is unchanged.</P>
    </AccountLayout>,
  );
}

export function changeEmailEmail(brand: Brand, to: string, name: string, url: string): Promise<EmailMessage> {
  const subject = `Confirm your new ${brand.productName} e-mail address`;
  return composeEmail(
    to,
    subject,
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name)}</P>
      <P>
        Please confirm that you want to use {to} for your {brand.productName} account. Until you do, your current
        address stays in use.
      </P>
      <AccountAction label="Confirm my new address" url={url} />
      <P>If you did not ask for this change, ignore this e-mail and your address stays as it is.</P>
    </AccountLayout>,
  );
}
