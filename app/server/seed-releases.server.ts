/** The release history the demo site starts with (seedDemoData). */
export const SEED_RELEASES = [
  {
    version: "2.4.0",
    title: "Batch generation",
    release_date: "2026-11-03",
    /** The demo archive's size and SHA-256 (seedDemoData reads them from the archive itself). */
    installer: "demo",
    release_notes: [
      "Generate several components from one template in a single run, with a summary of every file written.",
      "The preview pane now shows a side-by-side diff of each generated file before it is saved.",
      "Templates can declare required parameters; the run stops early with a clear list of what is missing.",
      "Fixed a crash when a component folder contained a read-only file.",
    ],
  },
  {
    version: "2.3.2",
    title: "Stability fixes",
    release_date: "2026-09-18",
    release_notes: [
      "Fixed project loading on paths longer than 260 characters.",
      "Offline license activation now accepts computer names with lowercase letters.",
      "Reduced memory use when previewing solutions with more than 500 components.",
    ],
  },
  {
    version: "2.3.0",
    title: "Change sets",
    release_date: "2026-08-05",
    release_notes: [
      "Save a set of changes under a name and apply it to other components later.",
      "Change sets can be exported to a file and shared with your team.",
      "New keyboard shortcut Ctrl+Shift+P opens the preview for the current change set.",
    ],
  },
  {
    version: "2.2.0",
    title: "Visual Studio 2026 support",
    release_date: "2026-05-21",
    release_notes: [
      "Loads solutions and project files created with Visual Studio 2026.",
      "Generated components keep the original file encoding and line endings.",
      "The component tree can be filtered by name, type and last-modified date.",
    ],
  },
  {
    version: "2.1.0",
    title: "Faster previews",
    release_date: "2026-03-02",
    release_notes: [
      "Previews render up to three times faster on large components.",
      "Undo and redo now cover every change in the definition editor.",
      "Fixed the preview not refreshing after a template file was renamed.",
    ],
  },
  {
    version: "2.0.0",
    title: "A new engine",
    release_date: "2026-01-12",
    release_notes: [
      "Rewritten generation engine with support for custom template functions.",
      "Projects open in the background, so you can start defining changes at once.",
      "Settings moved to a per-project file that can be committed with your code.",
      "Windows 10 version 1809 or later is now required.",
    ],
  },
];
