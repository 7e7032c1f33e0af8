// The questions this process asks of one index file take turns. node-sqlite3-wasm locks the file for the length of
// a statement or transaction, and a question (an update, a search) is a transaction held across turns of the event
// loop: another question of this process meeting it would wait out the busy timeout, or run inside it. Keyed by
// file, not by index object: an index opened anew (replaced, other settings) waits for the one before it.
const tails = new Map<string, Promise<void>>();

/** `run`, once every question asked of `file` before it has ended (however it ended). */
export function inTurn<T>(file: string, run: () => Promise<T>): Promise<T> {
  const result = (tails.get(file) ?? Promise.resolve()).then(run);
  const tail = result.then(
    () => {},
    () => {},
  );
  tails.set(file, tail);
  void tail.then(() => {
    if (tails.get(file) === tail) tails.delete(file);
  });
  return result;
}
