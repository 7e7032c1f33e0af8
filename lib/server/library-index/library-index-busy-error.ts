// What any library index throws when it could not get its turn in time: another writer (another process, another
// machine) held the index for longer than the index waits. Nothing is wrong with the index or the question: asked
// again later, it answers. Routes answer it with 503 and Retry-After (lib/server/serve-session.ts, errorResponse).

/** The index stayed held by another writer for longer than the index waits. The message is for a person. */
export class LibraryIndexBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LibraryIndexBusyError";
  }
}
