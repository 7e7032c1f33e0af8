// Hands a File from the library page to the viewer page across a client-side navigation (a File cannot
// travel in the URL, and it is never sent to the server). A reload loses it: the viewer then asks again.

let pending: File | null = null;

export function setPendingUpload(file: File): void {
  pending = file;
}

/** The handed-over file if its name matches the URL's `upload=` (kept, so back/forward can reopen it). */
export function pendingUpload(name: string): File | null {
  return pending && pending.name === name ? pending : null;
}
