/**
 * Settings → Machines against a real OpenSSH server on loopback (throw-away keys) whose `baton` is
 * this checkout over a second copy of the fixture stores: test a host, see its sessions in the list.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFixtureHome } from '../../testing/fixture-home.js';
import { startSshdHost } from '../../testing/sshd-host.js';
import { freePort } from '../../testing/baton-server.js';
import { expect, rows, snapshot, test, waitForSessions } from '../support/fixtures.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');


test('a machine that cannot be reached says so; removing it takes it off the list', async ({ app }) => {
  await waitForSessions(app);
  await app.getByRole('button', { name: 'Settings' }).click();
  const closed = await freePort(); // nothing listens there
  await app.getByLabel('Add a machine').fill(`root@127.0.0.1:${closed}`);
  await app.getByRole('button', { name: 'Add', exact: true }).click();
  const machine = app.getByRole('listitem', { name: 'Machine 127.0.0.1' });
  await expect(machine.getByRole('status')).toHaveText(/127\.0\.0\.1:\d+ is unreachable: .*Connection refused/, { timeout: 30_000 });
  await expect(machine.getByRole('status')).toHaveAttribute('data-ok', 'false');
  await machine.getByRole('button', { name: 'Remove' }).click();
  await expect(machine).toHaveCount(0);
});

test("a reachable host's Test shows Baton and its sessions, which join the list with the host's label", async ({ app }, testInfo) => {
  const sshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-sshd-'));
  const remote = makeFixtureHome();
  const sshd = await startSshdHost(sshDir);
  try {
    await waitForSessions(app, 10);
    await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption({ label: 'Claude Code' });
    await expect(rows(app)).toHaveCount(5);

    // The UI adds a host by destination; how to start Baton there and the test's own ssh_config are
    // settings the UI does not edit, so this host is added through the same API call the UI uses.
    const machine = {
      destination: `root@127.0.0.1:${sshd.port}`,
      label: 'devbox',
      command: `env HOME=${remote.home} BATON_HOME=${remote.env.BATON_HOME} ${process.execPath} ${path.join(repo, 'bin', 'baton.mjs')}`,
      sshArgs: sshd.sshArgs(),
    };
    const saved = await app.evaluate(async (m) => (await fetch('/api/updateSettings', { method: 'POST', body: JSON.stringify({ machines: [m] }) })).status, machine);
    expect(saved).toBe(200);

    await app.getByRole('button', { name: 'Settings' }).click();
    const row = app.getByRole('listitem', { name: 'Machine devbox' });
    await expect(row.getByRole('switch', { name: 'Read devbox' })).toBeChecked();
    await row.getByRole('button', { name: 'Test' }).click();
    await expect(row.getByRole('status')).toHaveText(/^Reachable · Baton \d+\.\d+\.\d+ \(linux\) · .*Claude Code 5/, { timeout: 30_000 });
    await snapshot(app, 'machines', testInfo);

    await app.getByRole('button', { name: 'Back to sessions' }).click();
    await expect(rows(app)).toHaveCount(10, { timeout: 30_000 });
    await expect(app.locator('#session-list .row-host', { hasText: 'devbox' })).toHaveCount(5);

    // Not reading Claude Code there: its sessions on the host leave the list, the laptop's stay.
    await app.getByRole('button', { name: 'Settings' }).click();
    // A controlled checkbox: it changes once the settings call answers.
    const claude = row.getByRole('group', { name: 'Agents read on devbox' }).getByRole('checkbox', { name: 'Claude Code' });
    await claude.click();
    await expect(claude).not.toBeChecked();
    await app.getByRole('button', { name: 'Back to sessions' }).click();
    await expect(rows(app)).toHaveCount(5, { timeout: 30_000 });
    await expect(app.locator('#session-list .row-host')).toHaveCount(0);
  } finally {
    await sshd.cleanup();
    remote.cleanup();
  }
});
