import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { jsonlFilesBelow, replayBoth, takeLine } from '../../../../testing/shortcut-replay.js';
import { QwenParser, SILENT_SYSTEM_SUBTYPES } from './qwen-records.js';

const take = (line: string | Buffer) => takeLine(new QwenParser().shortcut, line);

const HEAD = '{"uuid":"6db60e76-29ad-4662-be2c-29f20a65db00","parentUuid":null,"sessionId":"s-1","timestamp":"2026-11-24T18:01:45.305Z"';
const system = (subtype: string, cwd = '/home/ana/scratch', branch = ',"gitBranch":"main"') =>
  `${HEAD},"type":"system","provenance":"system","cwd":${JSON.stringify(cwd)},"version":"0.24.4"${branch},"subtype":"${subtype}","systemPayload":{"x":"} { \\" ]"}}`;

describe('Qwen line shortcut', () => {
  let fx: FixtureHome;
  let transcripts: string[];
  beforeAll(() => {
    fx = makeFixtureHome();
    transcripts = jsonlFilesBelow(path.join(fx.home, '.qwen', 'projects'));
  });
  afterAll(() => fx.cleanup());

  it('gives exactly what the full parse gives, line by line, on the real transcripts', () => {
    expect(transcripts.length).toBe(8);
    let standIns = 0;
    for (const file of transcripts) {
      const { lines, full, fast } = replayBoth(() => new QwenParser(), 'qwen', file);
      expect(fast.sessions).toEqual(full.sessions);
      expect(fast.messages).toEqual(full.messages);
      expect(fast.state).toEqual(full.state);
      standIns += fast.standIns;
      for (const line of lines) {
        const standIn = take(line);
        if (!standIn) continue;
        const r = JSON.parse(line) as { uuid: string; type: string; subtype: string; timestamp: string };
        expect(SILENT_SYSTEM_SUBTYPES.has(r.subtype)).toBe(true);
        expect(standIn).toEqual({ uuid: r.uuid, type: 'system', subtype: r.subtype, timestamp: r.timestamp });
      }
    }
    // Every telemetry and snapshot line of the fixtures (60 of 118) is taken.
    expect(standIns).toBe(60);
  });

  it.each([
    ['telemetry in a git repo', system('ui_telemetry')],
    ['a snapshot outside a repo', system('file_history_snapshot', '/home/ana/scratch', '')],
    ['a cwd with quotes and escapes', system('attribution_snapshot', '/home/a "b" \\ c/日本')],
  ])('takes %s', (_name, l) => {
    expect(take(l)).toMatchObject({ uuid: '6db60e76-29ad-4662-be2c-29f20a65db00', type: 'system', timestamp: '2026-11-24T18:01:45.305Z' });
  });

  it.each([
    ['a subtype the parser reads', system('chat_compression')],
    ['a custom title', system('custom_title')],
    ['a user line', `${HEAD},"type":"user","provenance":"real_user","cwd":"/w","version":"0.24.4","message":{"role":"user","parts":[{"text":"hi"}]}}`],
    ['a torn line', system('ui_telemetry').slice(0, -4)],
    ['two records merged', system('ui_telemetry').slice(0, 150) + system('ui_telemetry')],
    ['a NUL inside', system('ui_telemetry').replace('"x"', '"\u0000"')],
    ['fields in another order', `{"parentUuid":null,"uuid":"a","sessionId":"s","timestamp":"t","type":"system","provenance":"system","cwd":"/w","version":"1","subtype":"ui_telemetry"}`],
  ])('leaves %s to the full parse', (_name, l) => {
    expect(take(l)).toBeUndefined();
  });

  it('rejects invalid UTF-8', () => {
    const l = Buffer.concat([Buffer.from(system('ui_telemetry').slice(0, -3)), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    expect(take(l)).toBeUndefined();
  });
});
