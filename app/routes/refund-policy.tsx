import { publicPageMeta } from "~/lib/meta";
import { Link } from "react-router";
import { LegalPage, type LegalSection } from "~/components/legal-page";
import { extendedRefundExample, planRefundExamples } from "~/domain/plan-words";
import { REFUND_PERCENT } from "~/domain/plans";
import type { Route } from "./+types/refund-policy";

export const LEGAL_UPDATED = "2026-11-23";

const sections: LegalSection[] = [
  {
    id: "right-to-cancel",
    title: "Your right to cancel and get a refund",
    body: () => (
      <>
        <p>
          You may cancel a paid license and ask for a refund within <strong>14 days</strong> of the purchase date. The
          purchase date of a renewal is the day the renewal is charged, so the 14 days start again with each renewal
          payment.
        </p>
        <p>
          If you are a disabled person, a senior citizen (65 or older) or a new immigrant, as Israeli consumer
          protection law defines these groups, and the purchase was made by distance selling, you may cancel within{" "}
          <strong>4 months</strong> of the purchase date. Please tell us you belong to one of these groups when you ask.
        </p>
      </>
    ),
  },
  {
    id: "how-to-ask",
    title: "How to ask for a refund",
    body: ({ supportEmail }) => (
      <>
        <p>
          Log in, open <Link to="/licenses">your licenses</Link>, and choose <strong>Request Refund</strong> on the
          license. The confirmation lists each charge the refund covers and the total before you accept. The button
          appears while a license is refundable; when it cannot be refunded, the license says why (see below).
        </p>
        <p>
          You can also write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a> with the e-mail address of your
          account and the license concerned, in particular when you cancel within the 4-month period or the button is
          not shown.
        </p>
      </>
    ),
  },
  {
    id: "amount",
    title: "How much is refunded",
    body: () => (
      <>
        <p>
          A refund requested in the app returns <strong>{REFUND_PERCENT}% of the plan price</strong>, rounded up to the
          cent: for example {planRefundExamples()}.
        </p>
        <p id="extensions">
          <strong>Extensions are covered too.</strong> The refund covers the license&apos;s plan payment and every
          extension you paid for it, {REFUND_PERCENT}% of each charge, rounded up to the cent: {extendedRefundExample()}
          . Each charge is refunded separately and shows as refunded in your billing history.
        </p>
        <p>
          The 5% kept is the cancellation fee that the law allows:{" "}
          <strong>5% of the transaction or 100 NIS, whichever is lower</strong>. Where 100 NIS would be lower than 5% of
          your payment, we refund the difference so that the fee never exceeds 100 NIS. Taxes you paid are refunded in
          full.
        </p>
      </>
    ),
  },
  {
    id: "not-refundable",
    title: "What is not refundable",
    body: () => (
      <ul>
        <li>
          Free trials and tester licenses: nothing was paid for them. Cancel a trial before it ends and you are not
          charged.
        </li>
        <li>A license whose period has already ended, or that was already refunded.</li>
        <li>A license revoked for a breach of the Terms of Service, to the extent the law allows.</li>
      </ul>
    ),
  },
  {
    id: "processing",
    title: "How the refund is paid",
    body: () => (
      <>
        <p>
          Payments are processed by Paddle.com, our reseller and merchant of record. Paddle returns the money to the
          card or account you paid with, usually within 5 to 10 business days after it approves the refund.
        </p>
        <p>
          While a refund is pending, the license shows <strong>Refund requested</strong> and its key is hidden. Once
          refunded, the license stops working and its automatic renewal ends.
        </p>
      </>
    ),
  },
  {
    id: "cancel-renewal",
    title: "Cancelling renewal without a refund",
    body: () => (
      <p>
        You can turn off automatic renewal at any time from your licenses page. The license then stays active until the
        end of the period you paid for and is not charged again. You can turn renewal back on before that date.
      </p>
    ),
  },
  {
    id: "law",
    title: "Governing law",
    body: () => (
      <p>
        This policy is governed by the laws of the State of Israel. Nothing in it limits rights that consumer protection
        law gives you and that cannot be waived.
      </p>
    ),
  },
];

export default function RefundPolicy() {
  return (
    <LegalPage
      title="Refund Policy"
      updated={LEGAL_UPDATED}
      intro={({ product }) => (
        <p>
          We want you to be happy with {product}. This policy says when you can cancel a purchase, how much is refunded,
          and how to ask. It is part of our{" "}
          <Link to="/terms-of-service" className="text-primary underline underline-offset-4">
            Terms of Service
          </Link>
          .
        </p>
      )}
      sections={sections}
    />
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/refund-policy",
    title: "Refund Policy",
    description:
      "Refunds within 14 days (4 months for protected groups), 95% of the plan price and of every extension, cancellation fee of 5% or 100 NIS, whichever is lower.",
  });
