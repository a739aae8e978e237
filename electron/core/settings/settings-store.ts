/**
 * Settings are user data: validated with the shared zod schema, written atomically, and never
 * lost. A file that cannot be read as settings is kept aside as `settings.json.bad-<time>`, the
 * defaults are used, and `warning` says so — Baton starts either way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import {
  SettingsSchema,
  applySettingsPatch,
  defaultSettings,
  type Settings,
  type SettingsPatch,
} from '../../../shared/settings.js';
import { writeFileAtomic } from '../fs/atomic-write.js';

export class SettingsStore {
  readonly file: string;
  private current: Settings;
  private readonly emitter = new EventEmitter();
  /** Set when the file on disk was unusable; tells the user where it went. */
  warning: string | null = null;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'settings.json');
    this.current = this.load();
  }

  get(): Settings {
    return this.current;
  }

  update(patch: SettingsPatch): Settings {
    const next = applySettingsPatch(this.current, patch);
    writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    const previous = this.current;
    this.current = next;
    this.warning = null;
    this.emitter.emit('change', next, previous);
    return next;
  }

  onChange(listener: (next: Settings, previous: Settings) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  private load(): Settings {
    let raw: string;
    try {
      raw = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return defaultSettings();
      this.warning = `Settings file ${this.file} could not be read (${(err as Error).message}); using defaults.`;
      return defaultSettings();
    }
    let problem: string;
    try {
      const parsed = SettingsSchema.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
      problem = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    } catch (err) {
      problem = `not valid JSON (${(err as Error).message})`;
    }
    const aside = `${this.file}.bad-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(this.file, aside);
    this.warning = `Settings file was unusable (${problem}); it was kept as ${aside} and defaults are in use.`;
    return defaultSettings();
  }
}
