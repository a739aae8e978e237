import { describe, expect, it } from 'vitest';
import { briefClipboardRecord, ClipboardAutoClear, concealedEntries } from './clipboard-formats.js';

/** The smallest clipboard: one text slot, like the system one. */
class TextSlot {
  text = '';
  clears = 0;
  async readText() {
    return this.text;
  }
  clear() {
    this.text = '';
    this.clears++;
  }
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('concealed clipboard formats', () => {
  it('macOS marks the brief concealed and transient (nspasteboard.org)', () => {
    expect(concealedEntries('darwin').map((e) => e.format)).toEqual([
      'electron application/osclipboard;format="org.nspasteboard.ConcealedType"',
      'electron application/osclipboard;format="org.nspasteboard.TransientType"',
    ]);
  });

  it('Windows opts out of monitoring, history and cloud sync with DWORD 0', () => {
    const entries = concealedEntries('win32');
    expect(entries.map((e) => e.format.match(/format="(.*)"/)?.[1])).toEqual([
      'ExcludeClipboardContentFromMonitorProcessing',
      'CanIncludeInClipboardHistory',
      'CanUploadToCloudClipboard',
    ]);
    expect([...entries[1]!.data]).toEqual([0, 0, 0, 0]);
  });

  it('puts the text and the markers in one record', async () => {
    const record = briefClipboardRecord('# Brief', 'linux');
    expect(record['text/plain']).toBe('# Brief');
    expect(await (record['x-kde-passwordManagerHint'] as Blob).text()).toBe('secret');
    expect(Object.keys(briefClipboardRecord('x', 'freebsd'))).toEqual(['text/plain']);
  });
});

describe('ClipboardAutoClear', () => {
  it('clears when the clipboard still holds the brief', async () => {
    const slot = new TextSlot();
    slot.text = 'brief';
    let cleared = false;
    new ClipboardAutoClear(slot).schedule('brief', 20, () => (cleared = true));
    await wait(60);
    expect(slot.text).toBe('');
    expect(cleared).toBe(true);
  });

  it('leaves something the user copied since alone', async () => {
    const slot = new TextSlot();
    slot.text = 'brief';
    new ClipboardAutoClear(slot).schedule('brief', 20);
    slot.text = 'my password manager entry';
    await wait(60);
    expect(slot.text).toBe('my password manager entry');
    expect(slot.clears).toBe(0);
  });

  it('a new copy replaces the pending clear; 0 means never', async () => {
    const slot = new TextSlot();
    const auto = new ClipboardAutoClear(slot);
    slot.text = 'first';
    auto.schedule('first', 20);
    slot.text = 'second';
    auto.schedule('second', 0);
    await wait(60);
    expect(slot.text).toBe('second');
    expect(slot.clears).toBe(0);
  });
});
