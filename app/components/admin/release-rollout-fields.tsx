import { rolloutSummary } from "~/domain/release-rollout";
import type { ReleaseView } from "~/domain/views";
import { FieldErrors } from "../form-field";
import { Checkbox } from "../ui/checkbox";
import { Input } from "../ui/input";
import { Label } from "../ui/label";

/**
 * The release form's rollout (decision 0062): the percentage of machines the update check offers
 * it to (raise it as it proves itself; yanking stops it), whether the tool should install it, and
 * the version below which the tool must update before it runs on.
 */
export function ReleaseRolloutFields({
  release,
  errors,
}: {
  release: ReleaseView | null;
  errors: Record<string, string[]>;
}) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border p-4">
      <legend className="px-1 text-sm font-medium">Rollout</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor="release-rollout">Offered to this percentage of machines</Label>
          <Input
            id="release-rollout"
            name="rollout_percent"
            inputMode="numeric"
            defaultValue={String(release?.rollout_percent ?? 100)}
            aria-invalid={errors.rollout_percent ? true : undefined}
          />
          <FieldErrors errors={errors.rollout_percent} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="release-minimum-version">Tools older than this must update first (optional)</Label>
          <Input
            id="release-minimum-version"
            name="minimum_version"
            defaultValue={release?.minimum_version ?? ""}
            placeholder="2.3.0"
            aria-invalid={errors.minimum_version ? true : undefined}
          />
          <FieldErrors errors={errors.minimum_version} />
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        Each machine keeps its place as the percentage rises. A tool below the minimum version must update before it
        runs on.
      </p>
      <div className="flex items-start gap-2">
        <Checkbox
          id="release-critical"
          name="critical"
          defaultChecked={release?.critical ?? false}
          className="mt-0.5"
        />
        <Label htmlFor="release-critical" className="font-normal leading-snug">
          Critical: the tool should install it
        </Label>
      </div>
    </fieldset>
  );
}

/** The admin list's line about a release's rollout; nothing for a release to everyone that asks nothing. */
export function ReleaseRolloutLine({ release }: { release: ReleaseView }) {
  const summary = rolloutSummary(release);
  return summary ? (
    <p className="text-sm" data-testid="release-rollout">
      {summary}
    </p>
  ) : null;
}
