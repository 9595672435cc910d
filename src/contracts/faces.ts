/**
 * The font faces an engine Worker carries, as a conversion gets them: the Workers' FONTS static
 * assets behind a cache of the isolate (fonts/face-shelf.ts). Faces are data the Worker reads at
 * run time, not code in its bundle; the layout reads them synchronously, so a conversion loads the
 * ones its document needs (fonts/face-needs.ts) before it starts.
 */

/** The code points each family's regular face draws, as ascending [first, last] runs, by family. */
export type Coverage = Record<string, readonly (readonly [number, number])[]>;

export interface FaceSource {
  /** Which characters each family draws: decides the fallback faces a document needs before any is loaded. */
  coverage(): Promise<Coverage>;
  /** Loads the face files (paths of fonts/catalog.ts FACE_FILES); answers with every face loaded so far, by file. */
  load(files: Iterable<string>): Promise<(file: string) => Uint8Array | undefined>;
  /** Every face the Worker carries is loaded already (an isolate that converted a document asking for all): asking which a document needs is then no use. */
  holdsAll?(): boolean;
}
