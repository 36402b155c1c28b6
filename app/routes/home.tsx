import { productNameFrom, publicPageMeta } from "~/lib/meta";
import { Link } from "react-router";
import { ArrowRightIcon, DownloadIcon, EyeIcon, FolderOpenIcon, SparklesIcon } from "~/components/icons";
import { RotatingHeadline } from "~/components/rotating-headline";
import { TutorialVideo } from "~/components/tutorial-video";
import { Button } from "~/components/ui/button";
import { useRootData } from "~/components/use-root-data";
import { TRIAL_DAYS } from "~/domain/plans";
import type { Route } from "./+types/home";

export const HEADLINE_PHRASES = [
  "Load your existing components.",
  "Define the change once.",
  "Preview every result.",
  "Generate new components in seconds.",
] as const;

const FEATURES = [
  {
    icon: FolderOpenIcon,
    title: "Load existing components",
    description:
      "Open a solution or a folder and the tool reads your components as they are — classes, designers, resources and how they connect. Nothing changes until you say so.",
  },
  {
    icon: EyeIcon,
    title: "Define changes and preview results",
    description:
      "Describe a change once — rename, add a property, wire a binding — and preview every file it touches, side by side, before anything is saved.",
  },
  {
    icon: SparklesIcon,
    title: "Generate new components",
    description:
      "Turn a component into a template and generate new ones from it, in your naming, encoding and line endings.",
  },
];

/** The first screen: what the tool does, the two ways on (download, pricing) and the tutorial video. */
function Hero({ productName, tutorialVideoUrl }: { productName: string; tutorialVideoUrl: string }) {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 h-96 bg-[radial-gradient(ellipse_at_center,oklch(0.78_0.14_195/0.18),transparent_65%)]"
      />
      <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 pb-16 pt-14 sm:px-6 md:pt-20 lg:grid-cols-[1fr_1.1fr]">
        <div className="flex flex-col gap-6">
          <p className="w-fit rounded-full border border-border bg-card px-3 py-1 text-xs font-medium text-muted-foreground">
            For Windows developers · Visual Studio solutions
          </p>
          <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Automate the repetitive part of programming.
            <RotatingHeadline phrases={HEADLINE_PHRASES} />
          </h1>
          <p className="max-w-xl text-lg text-muted-foreground">
            {productName} loads the components you already have, applies the changes you define, shows you the result,
            and generates new components — so the work you do every week takes minutes.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link to="/download">
                <DownloadIcon className="size-4" />
                Download for Windows
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/pricing">
                See pricing
                <ArrowRightIcon className="size-4" />
              </Link>
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">
            {TRIAL_DAYS}-day free trial for new customers. Cancel anytime.
          </p>
        </div>
        <TutorialVideo url={tutorialVideoUrl} title={`${productName} tutorial`} />
      </div>
    </section>
  );
}

/** The three steps the tool takes, one card each. */
function Features() {
  return (
    <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="features-heading" className="text-2xl font-semibold tracking-tight sm:text-3xl">
        From the code you have to the code you need
      </h2>
      <p className="mt-2 max-w-2xl text-muted-foreground">Three steps, the same every time, done by the tool.</p>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {FEATURES.map((feature, i) => (
          <li key={feature.title}>
            {/* Card markup inline: the card primitive's module is not worth a request on the home page. */}
            <div className="flex h-full flex-col gap-4 rounded-xl border bg-card p-6 text-card-foreground shadow-sm">
              <div className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-lg bg-primary/15 text-primary">
                  <feature.icon className="size-5" />
                </span>
                <span className="font-mono text-sm text-muted-foreground">0{i + 1}</span>
              </div>
              <h3 className="text-lg font-semibold leading-tight">{feature.title}</h3>
              <p className="text-base text-muted-foreground">{feature.description}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function Home() {
  const config = useRootData()?.publicConfig;
  const productName = config?.productName ?? "ForgeKit";
  return (
    <>
      <Hero productName={productName} tutorialVideoUrl={config?.tutorialVideoUrl ?? ""} />

      <Features />

      <section className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
        <div className="flex flex-col items-start justify-between gap-6 rounded-xl border border-border bg-card p-8 md:flex-row md:items-center">
          <div>
            <h2 className="text-xl font-semibold">Try it on your own solution</h2>
            <p className="mt-1 text-muted-foreground">Download the installer, or see what changed lately.</p>
          </div>
          <div className="flex flex-wrap gap-3">
            <Button asChild>
              <Link to="/download">Download</Link>
            </Button>
            <Button asChild variant="secondary">
              <Link to="/release-notes">Release notes</Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const name = productNameFrom(matches);
  return publicPageMeta(matches, {
    path: "/",
    title: `${name} — automate repetitive programming work on Windows`,
    fullTitle: true,
    description: `${name} loads your existing components, applies the changes you define, previews the results and generates new components. Download for Windows.`,
  });
};
