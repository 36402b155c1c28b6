import { lazy, Suspense, useState, type ComponentProps } from "react";
import type { DemoCheckoutDialog } from "./demo-checkout-dialog";
import type { PaddleCheckoutSummary } from "./paddle-checkout-summary";

// The pricing page's two checkout dialogs, loaded when a checkout first opens: a visitor who only reads
// the prices never downloads the dialog code (Radix's dialog, the demo payment form). Once open, a dialog
// stays mounted so that it can close with its animation and open again at once.
const LazyDemo = lazy(() => import("./demo-checkout-dialog").then((m) => ({ default: m.DemoCheckoutDialog })));
const LazyPaddle = lazy(() => import("./paddle-checkout-summary").then((m) => ({ default: m.PaddleCheckoutSummary })));

/** True from the first render where `value` is set, and from then on. */
function useOnceSet(value: unknown): boolean {
  const [seen, setSeen] = useState(false);
  if (!seen && value != null) setSeen(true);
  return seen || value != null;
}

export function DemoCheckout(props: ComponentProps<typeof DemoCheckoutDialog>) {
  const opened = useOnceSet(props.checkout);
  return opened ? (
    <Suspense fallback={null}>
      <LazyDemo {...props} />
    </Suspense>
  ) : null;
}

export function PaddleSummary(props: ComponentProps<typeof PaddleCheckoutSummary>) {
  const opened = useOnceSet(props.checkout);
  return opened ? (
    <Suspense fallback={null}>
      <LazyPaddle {...props} />
    </Suspense>
  ) : null;
}
