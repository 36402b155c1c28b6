import { lazy, Suspense, useState, type ComponentProps, type ComponentType } from "react";
import type { DemoCheckoutDialog } from "./demo-checkout-dialog";
import type { PaddleCheckoutSummary } from "./paddle-checkout-summary";

/**
 * A checkout dialog whose code loads when a checkout first opens: a visitor who only reads the prices
 * never downloads it (Radix's dialog, the demo payment form). Once open, it stays mounted, so that it
 * closes with its animation and opens again at once.
 */
function openedOnDemand<Props extends { checkout: unknown }>(load: () => Promise<ComponentType<Props>>) {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
  return function OnDemand(props: Props) {
    const [opened, setOpened] = useState(false);
    if (!opened && props.checkout != null) setOpened(true);
    return opened || props.checkout != null ? (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    ) : null;
  };
}

export const DemoCheckout = openedOnDemand<ComponentProps<typeof DemoCheckoutDialog>>(() =>
  import("./demo-checkout-dialog").then((m) => m.DemoCheckoutDialog),
);
export const PaddleSummary = openedOnDemand<ComponentProps<typeof PaddleCheckoutSummary>>(() =>
  import("./paddle-checkout-summary").then((m) => m.PaddleCheckoutSummary),
);
