import { Play } from "lucide-react";
import { useState } from "react";

/**
 * The tutorial video: a poster with a play button first; the player (and everything it
 * downloads) loads only on click. Without JavaScript the button is a link to the video.
 */
export function TutorialVideo({ url, title }: { url: string; title: string }) {
  const [playing, setPlaying] = useState(false);
  const src = `${url}${url.includes("?") ? "&" : "?"}autoplay=1&rel=0`;
  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-xl border border-border bg-card shadow-2xl shadow-black/40">
      {playing ? (
        <iframe
          src={src}
          title={title}
          className="absolute inset-0 size-full"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => {
            event.preventDefault();
            setPlaying(true);
          }}
          className="group absolute inset-0 block"
          aria-label={`Play video: ${title}`}
        >
          <VideoPoster />
          <span className="absolute inset-0 flex items-center justify-center bg-background/20 transition-colors group-hover:bg-background/5">
            <span className="flex size-20 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg shadow-primary/30 transition-transform group-hover:scale-105 group-focus-visible:scale-105">
              <Play aria-hidden className="ml-1 size-9 fill-current" />
            </span>
          </span>
          <span className="absolute bottom-4 left-4 rounded-md bg-background/80 px-3 py-1.5 text-sm font-medium text-foreground">
            Watch the 6-minute tutorial
          </span>
        </a>
      )}
    </div>
  );
}

/** A drawn still of the tool (component tree, change definition, preview diff): no image download. */
function VideoPoster() {
  const tree = ["Controls", "  OrderGrid.cs", "  OrderGrid.Designer.cs", "  CustomerCard.cs", "Services", "  OrderService.cs", "  CustomerService.cs"];
  const diff: [string, string][] = [
    [" ", "public partial class CustomerCard"],
    ["-", "  private Label nameLabel;"],
    ["+", "  private Label displayNameLabel;"],
    ["+", "  private Badge statusBadge;"],
    [" ", "  public CustomerCard()"],
    [" ", "  {"],
    ["+", "    statusBadge.Bind(Customer.Status);"],
  ];
  return (
    <span aria-hidden="true" className="absolute inset-0 flex flex-col bg-[oklch(0.15_0.01_265)] font-mono text-[clamp(7px,1.3vw,12px)] leading-relaxed">
      <span className="flex h-[8%] items-center gap-1.5 border-b border-border px-3">
        <span className="size-2 rounded-full bg-destructive/70" />
        <span className="size-2 rounded-full bg-warning/70" />
        <span className="size-2 rounded-full bg-success/70" />
        <span className="ml-3 text-muted-foreground">ForgeKit — Orders.sln</span>
      </span>
      <span className="flex flex-1">
        <span className="flex w-[30%] flex-col gap-0.5 border-r border-border p-3 text-muted-foreground">
          {tree.map((line, i) => (
            <span key={i} className={i === 3 ? "rounded bg-primary/15 text-primary" : undefined}>
              {line.replace(/^ {2}/, "\u00a0\u00a0")}
            </span>
          ))}
        </span>
        <span className="flex flex-1 flex-col gap-0.5 p-3">
          <span className="mb-1 text-muted-foreground">Preview · 3 changes</span>
          {diff.map(([sign, text], i) => (
            <span
              key={i}
              className={
                sign === "+"
                  ? "bg-success/10 text-success"
                  : sign === "-"
                    ? "bg-destructive/10 text-[oklch(0.75_0.15_25)]"
                    : "text-foreground/80"
              }
            >
              {sign} {text}
            </span>
          ))}
        </span>
      </span>
    </span>
  );
}
