import { lazy, useEffect, useRef, useState, type ComponentProps } from "react";
import { isPlanId } from "~/domain/plans";
import { useHydrated } from "../use-hydrated";
import type { TeamSeatsForm } from "./team-seats-form";

type FormProps = ComponentProps<typeof TeamSeatsForm>;

const loadForm = () => import("./team-seats-form").then((module) => module.TeamSeatsForm);
/** The form itself: awaited by the server's render (no Suspense: it is in the page's HTML) and by a client navigation. */
const LazyForm = lazy(() => loadForm().then((Form) => ({ default: Form })));

/** Where the focus was in the server's copy: the same control is focused in the form that replaces it. */
function focusedControl(holder: HTMLElement): string | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !holder.contains(active)) return null;
  if (active instanceof HTMLInputElement && active.type === "radio")
    return `input[name="plan"][value="${active.value}"]`;
  if (active instanceof HTMLInputElement) return `input[name="${active.name}"]`;
  return active.tagName === "BUTTON" ? 'button[type="submit"]' : null;
}

/** The plan and seats the server's copy of the form holds now, and where its focus is. */
function readServerCopy(server: HTMLElement | null): { start: FormProps["start"]; focus: string | null } {
  const plan = server?.querySelector<HTMLInputElement>('input[name="plan"]:checked')?.value;
  const seats = server?.querySelector<HTMLInputElement>('input[name="seats"]')?.value;
  const start = isPlanId(plan) && seats !== undefined ? { planId: plan, seatsText: seats } : undefined;
  return { start, focus: server ? focusedControl(server) : null };
}

/**
 * The form once its code is in. What the server's copy holds is read as this first renders, while that
 * copy is still in the document (it goes when this render is committed), so that a keystroke typed while
 * the code was on its way is not lost between reading it and the swap; the focus goes where it was.
 */
function LiveForm({
  Form,
  props,
  read,
}: {
  Form: typeof TeamSeatsForm;
  props: FormProps;
  read: () => ReturnType<typeof readServerCopy>;
}) {
  const [taken] = useState(read);
  const own = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (taken.focus) own.current?.querySelector<HTMLElement>(taken.focus)?.focus();
  }, [taken]);
  return (
    <div ref={own} data-team-form="live">
      <Form {...props} start={taken.start} />
    </div>
  );
}

/**
 * The pricing page's team offer with its code loaded when used: the server renders the
 * whole form into the page, a GET form that works before and without scripts. Hydration keeps that
 * HTML as it is and loads nothing; the first pointer or focus on it loads the form's code, which then
 * takes its place with what the visitor chose or typed so far and the focus where it was (the same
 * markup: nothing moves). A client-side navigation to the page renders the form once its code is in.
 */
export function TeamOffer(props: FormProps) {
  const hydrated = useHydrated();
  // Rendered first during hydration: the server's HTML is there to keep.
  const [fromServer] = useState(!hydrated);
  const [live, setLive] = useState<{ Form: typeof TeamSeatsForm }>();
  const holder = useRef<HTMLDivElement>(null);
  const loading = useRef(false);

  if (typeof document === "undefined" || (!fromServer && !live))
    return (
      <div data-team-form="live">
        <LazyForm {...props} />
      </div>
    );
  if (live) return <LiveForm key="live" Form={live.Form} props={props} read={() => readServerCopy(holder.current)} />;
  const use = () => {
    if (loading.current) return;
    loading.current = true;
    void loadForm().then((Form) => setLive({ Form }));
  };
  return (
    <div
      key="server"
      ref={holder}
      // The server's copy of the form stays as it was rendered until the form's code is in.
      dangerouslySetInnerHTML={{ __html: "" }}
      suppressHydrationWarning
      onPointerEnter={use}
      onPointerDown={use}
      onFocus={use}
    />
  );
}
