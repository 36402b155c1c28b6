import { publicPageMeta } from "~/lib/meta";
import { Link } from "react-router";
import { LegalPage, type LegalSection } from "~/components/legal-page";
import { planPricesInTerms } from "~/domain/plan-words";
import { TRIAL_DAYS } from "~/domain/plans";
import { LEGAL_UPDATED } from "./refund-policy";
import type { Route } from "./+types/terms-of-service";

const sections: LegalSection[] = [
  {
    id: "agreement",
    title: "The agreement",
    body: ({ product }) => (
      <>
        <p>
          These terms are an agreement between you and the publisher of {product} (“we”, “us”). They apply when you
          download or use {product}, create an account on this website, or buy a license. If you accept them for a
          company, you confirm that you may bind it, and “you” means the company.
        </p>
        <p>If you do not agree, do not use the software or the website.</p>
      </>
    ),
  },
  {
    id: "account",
    title: "Your account",
    body: () => (
      <ul>
        <li>You need an account, with a confirmed e-mail address, to buy and manage licenses.</li>
        <li>
          Give accurate details and keep them current. Keep your password secret; you are responsible for what happens
          under your account.
        </li>
        <li>Tell us at once if you think someone else has used your account.</li>
        <li>You must be at least 18 years old, or the age of majority where you live, to buy a license.</li>
      </ul>
    ),
  },
  {
    id: "licenses",
    title: "Licenses and what they allow",
    body: ({ product, coverage }) => (
      <>
        <p>
          A license lets one person use {product} for the license period, for their own work or their employer's:{" "}
          {coverage} You may not sell, rent or share a license, or use it on more computers at the same time than that.
        </p>
        <p>
          You may tie a license to a Windows username and computer name for offline use. These offline details can be
          set once per license; contact us if your computer changes.
        </p>
        <p>
          The software is licensed, not sold. We keep all rights we do not expressly grant. You may not reverse
          engineer, decompile or modify it, or remove or work around its license checks, except where the law allows
          this despite these terms.
        </p>
      </>
    ),
  },
  {
    id: "plans",
    title: "Plans, trials and automatic renewal",
    body: () => (
      <>
        <p>
          Licenses are sold per license as {planPricesInTerms()} subscriptions, plus any taxes. Each renews
          automatically at the end of its period for the same length and at the then-current price, until you cancel. We
          tell you in advance about a price change, and it applies from your next renewal.
        </p>
        <p>
          If you have never had a license, your first subscription may start with a {TRIAL_DAYS}-day free trial. You are
          charged when the trial ends unless you cancel before.
        </p>
        <p>
          You can cancel automatic renewal at any time from your licenses page; the license stays active until the end
          of the period you paid for. Extensions bought for a license add time to it at the price shown when you buy
          them.
        </p>
      </>
    ),
  },
  {
    id: "payment",
    title: "Payment through Paddle",
    body: () => (
      <p>
        Our order process is conducted by our online reseller Paddle.com. Paddle.com is the Merchant of Record for all
        our orders: it processes payments, issues invoices and receipts, handles sales tax, and provides customer
        service inquiries about payments and returns. Paddle's own buyer terms apply to the payment. We never receive
        your card details.
      </p>
    ),
  },
  {
    id: "refunds",
    title: "Refunds",
    body: () => (
      <p>
        You may cancel a purchase and get a refund as our <Link to="/refund-policy">Refund Policy</Link> describes:
        within 14 days of purchase (4 months for the groups Israeli law protects), less a cancellation fee of 5% of the
        transaction or 100 NIS, whichever is lower.
      </p>
    ),
  },
  {
    id: "acceptable-use",
    title: "Acceptable use and revocation",
    body: () => (
      <>
        <p>
          Do not use the software or the website to break the law, to infringe others' rights, or to attack, overload or
          probe our systems, and do not create accounts or licenses by automated means.
        </p>
        <p>
          We may suspend or revoke a license, or close an account, if it is used in breach of these terms — for example
          a shared, resold or fraudulently bought license. Where the breach can be fixed we tell you first and give you
          a reasonable time to fix it.
        </p>
      </>
    ),
  },
  {
    id: "updates",
    title: "Updates and support",
    body: ({ supportEmail }) => (
      <p>
        While a license is active you may install every update we publish; the{" "}
        <Link to="/release-notes">release notes</Link> list them. Support is by e-mail at{" "}
        <a href={`mailto:${supportEmail}`}>{supportEmail}</a>; we usually reply within 24 hours on business days.
      </p>
    ),
  },
  {
    id: "warranty",
    title: "Warranty and liability",
    body: () => (
      <>
        <p>
          The software generates and changes source code at your direction. Review what it produces, and keep backups
          and version control of your work. To the extent the law allows, the software is provided “as is”, without
          warranties of fitness for a particular purpose.
        </p>
        <p>
          To the extent the law allows, we are not liable for indirect or consequential loss, or for loss of data or
          profits, and our total liability for any claim is limited to what you paid us for the license concerned in the
          12 months before the claim. Nothing here limits liability that cannot be limited by law, or your rights as a
          consumer.
        </p>
      </>
    ),
  },
  {
    id: "privacy",
    title: "Privacy",
    body: () => (
      <p>
        How we handle personal data is described in our <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to these terms",
    body: () => (
      <p>
        We may change these terms. We announce material changes by e-mail or on this website at least 30 days before
        they take effect; they apply to renewals after that date. If you do not agree, cancel renewal before then.
      </p>
    ),
  },
  {
    id: "law",
    title: "Governing law and jurisdiction",
    body: () => (
      <p>
        These terms are governed by the laws of the State of Israel, and the competent courts of Tel Aviv-Yafo, Israel,
        have exclusive jurisdiction, except where consumer law gives you the right to bring a claim where you live.
      </p>
    ),
  },
];

export default function TermsOfService() {
  return (
    <LegalPage
      title="Terms of Service"
      updated={LEGAL_UPDATED}
      intro={({ product }) => (
        <p>
          These terms explain the rules for using {product} and this website, and for buying and managing licenses.
          Please read them before you buy.
        </p>
      )}
      sections={sections}
    />
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/terms-of-service",
    title: "Terms of Service",
    description:
      "The terms for using the software and the website, buying subscription licenses, renewals, refunds and support.",
  });
