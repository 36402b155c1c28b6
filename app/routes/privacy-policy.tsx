import { publicPageMeta } from "~/lib/meta";
import { Link } from "react-router";
import { LegalPage, type LegalSection } from "~/components/legal-page";
import { LEGAL_UPDATED } from "./refund-policy";
import type { Route } from "./+types/privacy-policy";

const sections: LegalSection[] = [
  {
    id: "who",
    title: "Who is responsible",
    body: ({ product, supportEmail }) => (
      <p>
        The publisher of {product} (“we”) is responsible for the personal data described here. Write to{" "}
        <a href={`mailto:${supportEmail}`}>{supportEmail}</a> with any question or request about it.
      </p>
    ),
  },
  {
    id: "what",
    title: "What we collect",
    body: () => (
      <ul>
        <li>
          <strong>Account:</strong> your e-mail address, your password (stored only as a salted hash), whether you
          confirmed your address, and when you logged in. If you turn on two-factor authentication, its secret and
          recovery codes (stored encrypted). For each signed-in session: the browser, the IP address and when it was
          last active, which you can see and end on your profile.
        </li>
        <li>
          <strong>Log in with GitHub or Google:</strong> if you use it, the provider tells us your account id there,
          your name and your e-mail address and whether it has verified it. We do not post anything or read anything
          else.
        </li>
        <li>
          <strong>Profile:</strong> your full name and, if you give it, your company name.
        </li>
        <li>
          <strong>Licenses:</strong> the plan, dates, status, renewal and refund details of each license, the e-mail
          address it is issued to, and the Windows username and computer name you choose to enter for offline use.
        </li>
        <li>
          <strong>Payments:</strong> Paddle, our merchant of record, collects your payment details. We receive the
          transaction and subscription identifiers, the amounts, and your country for tax — never your card number.
        </li>
        <li>
          <strong>Technical data:</strong> server logs with the address requested, the time, the response and your IP
          address, kept to run and protect the service.
        </li>
        <li>
          <strong>Messages:</strong> what you write to support.
        </li>
      </ul>
    ),
  },
  {
    id: "why",
    title: "Why we use it",
    body: () => (
      <ul>
        <li>
          To provide your account and licenses, including license keys and offline activation (performing our contract
          with you).
        </li>
        <li>
          To take payments, renew subscriptions, issue refunds, and keep accounting records (contract and legal
          obligations).
        </li>
        <li>
          To send the e-mails the service needs: address confirmation, password reset, purchase and renewal notices.
        </li>
        <li>
          To keep the service secure, limit abuse such as password guessing, and investigate misuse (our legitimate
          interest).
        </li>
        <li>To answer your support requests.</li>
      </ul>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: () => (
      <p>
        We use one cookie to keep you logged in, and a short-lived one to show a message after a page change. Both are
        necessary for the site to work. We use no advertising or tracking cookies and no third-party analytics. The
        tutorial video is loaded from YouTube's privacy-enhanced domain only when you press play.
      </p>
    ),
  },
  {
    id: "sharing",
    title: "Who we share it with",
    body: () => (
      <>
        <p>We do not sell personal data. We share it only with the providers that run the service for us:</p>
        <ul>
          <li>Paddle.com, our reseller and merchant of record, for payments, invoices, taxes and refunds;</li>
          <li>our hosting and database providers;</li>
          <li>our e-mail delivery provider.</li>
        </ul>
        <p>
          They process the data under contract and only to provide their service. We may also disclose data when the law
          requires it. Some providers are outside Israel and the European Economic Area; transfers are protected by
          adequacy decisions or standard contractual clauses.
        </p>
      </>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    body: () => (
      <ul>
        <li>
          Account, profile and license data: while your account exists. When you delete your account on your profile
          page, your profile, login methods, sessions and two-factor settings are removed at once, and the licenses,
          payments and records of actions we must keep are kept with your name and e-mail address replaced.
        </li>
        <li>Payment and refund records: 7 years, as tax and accounting law requires.</li>
        <li>Server logs: up to 90 days.</li>
        <li>Password-reset and confirmation links expire after 24 hours.</li>
      </ul>
    ),
  },
  {
    id: "rights",
    title: "Your rights",
    body: ({ supportEmail }) => (
      <>
        <p>
          Under the Israeli Protection of Privacy Law, and the GDPR if you are in the European Union or the United
          Kingdom, you may ask to see the personal data we hold about you, to correct it, to delete it, to receive it in
          a portable form, and to object to or restrict its use. You can correct your name, company and e-mail address
          yourself on your profile page, download your data there as a JSON file (&ldquo;Export my data&rdquo;: your
          profile, licenses, payments and the records of your actions), and delete your account there (&ldquo;Delete
          account&rdquo;: active subscriptions are cancelled first, and we confirm the deletion by e-mail).
        </p>
        <p>
          Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a> from the address of your account; we answer
          within 30 days. You may also complain to the Israeli Privacy Protection Authority or your local data
          protection authority.
        </p>
      </>
    ),
  },
  {
    id: "security",
    title: "Security",
    body: () => (
      <p>
        Connections to the site are encrypted. Passwords are stored as salted hashes, sessions end when you log out, and
        resetting or changing your password ends every other session. You can protect your account with two-factor
        authentication; administrators must. Access to personal data is limited to the staff who need it to run the
        service, and administrative actions on licenses are recorded.
      </p>
    ),
  },
  {
    id: "children",
    title: "Children",
    body: () => (
      <p>
        The service is meant for professionals and is not directed at children under 16. We do not knowingly collect
        their data.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to this policy",
    body: () => (
      <p>
        We will post any change here and update the date above; if a change is material, we will also tell you by
        e-mail. See also our <Link to="/terms-of-service">Terms of Service</Link>.
      </p>
    ),
  },
];

export default function PrivacyPolicy() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated={LEGAL_UPDATED}
      intro={({ product }) => (
        <p>
          This policy explains what personal data the {product} website and licensing service collect, why, who else
          sees it, how long we keep it, and the rights you have. We collect as little as the service needs.
        </p>
      )}
      sections={sections}
    />
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/privacy-policy",
    title: "Privacy Policy",
    description: "What personal data we collect, why, who processes it, how long we keep it, and your rights.",
  });
