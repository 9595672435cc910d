/**
 * The faces an engine Worker reads from its FONTS binding (Workers static assets, made by
 * scripts/fonts-assets.mjs), each fetched the first time a document needs it and kept for the
 * isolate's life: a face costs a fetch once, and no bundle carries one. The converters ask for
 * faces synchronously (FontFiles), so a run loads what its document needs first (face-needs.ts)
 * and converts with `load`'s answer.
 */
import { ALL_FACE_FILES, type FontFiles } from './catalog';
import type { Coverage, FaceSource } from '../contracts/faces';

/** What the FONTS binding answers: a file of the assets folder by its path (an assets binding's fetch). */
export interface AssetFetcher {
  fetch(input: string): Promise<Response>;
}

/** Any origin: an assets binding serves by path alone. */
const ASSETS_ORIGIN = 'https://fonts.assets/';

export class FaceShelf implements FaceSource {
  private readonly faces = new Map<string, Uint8Array>();
  private readonly fetching = new Map<string, Promise<void>>();
  private coverageRead?: Promise<Coverage>;
  /**
   * All faces loaded so far, by file. A new function whenever a face is added: the layout's
   * FontBook is kept per FontFiles and remembers what a face lacked, which a face added later
   * must not inherit.
   */
  private view: FontFiles = this.viewOfLoaded();

  constructor(private assets: AssetFetcher) {}

  /** The binding of the latest invocation (the isolate's shelf outlives the env it was made with). */
  useAssets(assets: AssetFetcher): void {
    this.assets = assets;
  }

  /** Which characters each family draws, read once (coverage.json). */
  coverage(): Promise<Coverage> {
    this.coverageRead ??= this.read('coverage.json')
      .then((bytes) => JSON.parse(new TextDecoder().decode(bytes)) as Coverage)
      .catch((err: unknown) => {
        this.coverageRead = undefined; // a failed read is tried again by the next conversion
        throw err;
      });
    return this.coverageRead;
  }

  holdsAll(): boolean {
    return ALL_FACE_FILES.every((file) => this.faces.has(file));
  }

  /** Fetches the files not loaded yet; answers with every face loaded so far. */
  async load(files: Iterable<string>): Promise<FontFiles> {
    await Promise.all([...new Set(files)].filter((file) => !this.faces.has(file)).map((file) => this.fetchOnce(file)));
    return this.view;
  }

  private fetchOnce(file: string): Promise<void> {
    let pending = this.fetching.get(file);
    if (!pending) {
      pending = this.read(file)
        .then((bytes) => {
          this.faces.set(file, bytes);
          this.view = this.viewOfLoaded();
        })
        .finally(() => this.fetching.delete(file));
      this.fetching.set(file, pending);
    }
    return pending;
  }

  private async read(file: string): Promise<Uint8Array> {
    const response = await this.assets.fetch(ASSETS_ORIGIN + file.split('/').map(encodeURIComponent).join('/'));
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`the FONTS assets have no ${file} (${response.status}): run scripts/fonts-assets.mjs before wrangler`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }

  private viewOfLoaded(): FontFiles {
    const faces = this.faces;
    // The stored bytes themselves, as the bundled Data modules gave them: every reader copies before it edits.
    return (file) => faces.get(file);
  }
}

let isolateShelf: FaceShelf | undefined;

/** The isolate's one shelf, reading through the latest FONTS binding. */
export function facesFrom(assets: AssetFetcher): FaceShelf {
  if (isolateShelf) isolateShelf.useAssets(assets);
  else isolateShelf = new FaceShelf(assets);
  return isolateShelf;
}
