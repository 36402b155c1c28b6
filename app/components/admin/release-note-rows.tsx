import { Plus, X } from "~/components/lucide-icons";
import { useState } from "react";
import { FieldErrors } from "../form-field";
import { Button } from "../ui/button";
import { Input } from "../ui/input";

/** The note rows (at least one), added and removed in the browser, sent as repeated release_notes fields. */
export function ReleaseNoteRows({ initial, errors }: { initial: string[]; errors: Record<string, string[]> }) {
  const [notes, setNotes] = useState<{ key: number; text: string }[]>(() =>
    (initial.length ? initial : [""]).map((text, key) => ({ key, text })),
  );
  const [nextKey, setNextKey] = useState(notes.length);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">Release notes</legend>
      {notes.map((note, index) => (
        <div key={note.key} className="flex gap-2">
          <Input
            name="release_notes"
            aria-label={`Note ${index + 1}`}
            value={note.text}
            onChange={(e) => setNotes(notes.map((n) => (n.key === note.key ? { ...n, text: e.target.value } : n)))}
          />
          {notes.length > 1 ? (
            <Button
              type="button"
              variant="outline"
              size="icon"
              aria-label={`Remove note ${index + 1}`}
              onClick={() => setNotes(notes.filter((n) => n.key !== note.key))}
            >
              <X aria-hidden />
            </Button>
          ) : null}
        </div>
      ))}
      <FieldErrors errors={errors.release_notes} />
      <Button
        type="button"
        variant="secondary"
        size="sm"
        className="self-start"
        onClick={() => {
          setNotes([...notes, { key: nextKey, text: "" }]);
          setNextKey(nextKey + 1);
        }}
      >
        <Plus aria-hidden /> Add note
      </Button>
    </fieldset>
  );
}
