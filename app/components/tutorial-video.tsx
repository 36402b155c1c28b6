import { useState } from "react";
import { PlayIcon } from "./icons";

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
          {/* A drawn still of the tool: component tree, change definition, preview diff. */}
          <img
            src="/tutorial-poster.svg"
            alt=""
            width={960}
            height={540}
            className="absolute inset-0 size-full object-cover"
          />
          <span className="absolute inset-0 flex items-center justify-center bg-background/20 transition-colors group-hover:bg-background/5">
            <span className="flex size-20 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg shadow-primary/30 transition-transform group-hover:scale-105 group-focus-visible:scale-105">
              <PlayIcon className="ml-1 size-9 fill-current" />
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
