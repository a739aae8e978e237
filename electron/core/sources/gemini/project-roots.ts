/**
 * Which folder a Gemini CLI project belongs to. A chat file stores no cwd: the project's temp
 * folder `tmp/<slug>/` holds `.project_root` (the absolute path), and `projects.json` maps every
 * root to its slug. Older CLIs named the folder `sha256(root)`, which the header's `projectHash`
 * also carries, so a hash is matched against the registered roots too.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** `.project_root` and `projects.json` are a few bytes; anything bigger is not one of them. */
const MAX_MARKER_BYTES = 64 * 1024;
const MAX_REGISTRY_BYTES = 4 * 1024 * 1024;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function readSmall(file: string, limit: number): string | null {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > limit) return null;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

interface Registry {
  bySlug: Map<string, string>;
  byHash: Map<string, string>;
}

export class ProjectRoots {
  /** `<project dir>` → root from its `.project_root` (null: none). */
  private readonly markers = new Map<string, string | null>();
  /** `<gemini dir>` → its projects.json, parsed. */
  private readonly registries = new Map<string, Registry>();

  /** Forget what was read: called when the store is listed again, so edits are picked up. */
  clear(): void {
    this.markers.clear();
    this.registries.clear();
  }

  /**
   * The project root of the chats in `projectDir` (`<gemini dir>/tmp/<slug>`), or null.
   * `projectHash`: the chat header's sha256 of the root, when known.
   */
  lookup(projectDir: string, projectHash: string | null): string | null {
    const marker = this.marker(projectDir);
    if (marker) return marker;
    const slug = path.basename(projectDir);
    const registry = this.registry(path.dirname(path.dirname(projectDir)));
    return registry.bySlug.get(slug) ?? registry.byHash.get(slug) ?? (projectHash ? registry.byHash.get(projectHash) : undefined) ?? null;
  }

  private marker(projectDir: string): string | null {
    let root = this.markers.get(projectDir);
    if (root === undefined) {
      const text = readSmall(path.join(projectDir, '.project_root'), MAX_MARKER_BYTES)?.trim();
      root = text && path.isAbsolute(text) ? text : null;
      this.markers.set(projectDir, root);
    }
    return root;
  }

  private registry(geminiDir: string): Registry {
    let reg = this.registries.get(geminiDir);
    if (!reg) {
      reg = { bySlug: new Map(), byHash: new Map() };
      const text = readSmall(path.join(geminiDir, 'projects.json'), MAX_REGISTRY_BYTES);
      try {
        const parsed: unknown = text ? JSON.parse(text) : null;
        const projects = typeof parsed === 'object' && parsed !== null ? (parsed as { projects?: unknown }).projects : null;
        if (typeof projects === 'object' && projects !== null) {
          for (const [root, slug] of Object.entries(projects)) {
            if (typeof slug === 'string' && !reg.bySlug.has(slug)) reg.bySlug.set(slug, root);
            reg.byHash.set(sha256Hex(root), root);
          }
        }
      } catch {
        // A half-written registry: the `.project_root` markers still answer.
      }
      this.registries.set(geminiDir, reg);
    }
    return reg;
  }
}
