// The one redactor: what it masks that it did not before (a bare AWS secret access key), what it
// must leave alone, search snippets that never cut a secret in half, and its speed on a long list.
import { describe, expect, it } from 'vitest';
import { redactStrings, redactText } from './redact.js';
import { manualSnippet } from '../index/search.js';
import { SECRETS } from '../../../testing/secret-sessions.js';

describe('the redactor', () => {
  it('masks a bare AWS secret access key in prose, after "secret is" and alone', async () => {
    for (const text of [`the secret is ${SECRETS.awsSecret} ok`, `aws creds: ${SECRETS.awsKeyId} / ${SECRETS.awsSecret}`, `${SECRETS.awsSecret}`, `use Xq9vT2mLw8RkZ4nYc7HdJ3pF6sA1bE5uG0oNiKtQ now`]) {
      const { value, counts } = await redactText(text);
      expect(value).not.toMatch(/[A-Za-z0-9+/]{40}/);
      expect(Object.keys(counts).some((k) => k.startsWith('aws_secret'))).toBe(true);
    }
  });

  it('leaves git hashes, identifiers and paths of the same length alone', async () => {
    const plain = [
      'commit 0123456789abcdef0123456789abcdef01234567 fixed it',
      'ThisIsAVeryLongCamelCaseIdentifier12345 is a class',
      'see src/components/SessionListItem/index3ab for the row',
    ];
    const { value } = await redactStrings(plain);
    expect(value).toEqual(plain);
  });

  it('redacts a list of 1000 session titles and prompts in well under a second', async () => {
    const texts = Array.from({ length: 1000 }, (_, i) => [
      `Fix the flaky test in /home/ana/projects/demo-app/src/module${i}.ts and refactor the list ${i}`,
      `Please look at the failing build number ${i}; the log says ${'x'.repeat(i % 50)} and more words follow here`.repeat(4),
    ]).flat();
    texts[500] = `deploy with ${SECRETS.github}`;
    const started = performance.now();
    const { value } = await redactStrings(texts);
    const first = performance.now() - started;
    const again = performance.now();
    await redactStrings(texts);
    const second = performance.now() - again;
    expect(value[500]).toBe('deploy with [REDACTED:github_token]');
    expect(first).toBeLessThan(1000);
    expect(second).toBeLessThan(200); // remembered
  });
});

describe('search snippets', () => {
  const body = `${'lorem ipsum '.repeat(12)}Use the OpenAI key ${SECRETS.openai} for the quokkarelay embeddings ${'dolor sit '.repeat(12)}`;

  it('never start or end inside a secret: it is whole, so the redactor still sees it', () => {
    // "quokkarelay" starts 55 characters after the key: a plain 40-character window would cut the key.
    const snippet = manualSnippet(body, ['quokkarelay'], 40);
    expect(snippet).toContain(SECRETS.openai);
    expect(snippet).toContain('[[quokkarelay]]');
  });

  it('mark a term found inside a secret by wrapping the whole secret, never part of it', () => {
    const half = SECRETS.openai.slice('sk-proj-'.length);
    const snippet = manualSnippet(body, [half.toLowerCase()], 60);
    expect(snippet).toContain(`[[${SECRETS.openai}]]`);
  });

  // Snippets are cut and marked with the redactor's own patterns alone (search is synchronous): a
  // term inside a secret only secretlint knew split it with `[[…]]`, and the boundary no longer saw it.
  it('keep secrets secretlint finds whole too, however the query hits them', async () => {
    const secrets = {
      webhook: 'https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/Zx8Qw3Rt5Yu8Io2PlKj7Hg6F',
      sendgrid: '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',
      shopify: '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',
      gitlab: 'glpat-Ab3Cd5Ef7Gh9Ij1Kl3Mn',
      huggingface: 'hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh',
      redis: 'redis://:S3cretRedisPass@cache:6379',
    };
    for (const [name, secret] of Object.entries(secrets)) {
      const text = `${'lorem ipsum '.repeat(10)}the ${name} credential is ${secret} now ${'dolor sit '.repeat(10)}`;
      const words = secret.split(/[^A-Za-z0-9]+/).filter((w) => w.length >= 4);
      for (const term of [name, ...words.map((w) => w.toLowerCase())]) {
        const { value } = await redactText(manualSnippet(text, [term], 30));
        expect(value, `${name} / ${term}`).toContain('[REDACTED:');
        for (const w of words.filter((x) => x.length >= 12)) expect(value, `${name} / ${term}`).not.toContain(w);
      }
    }
  });

  it('reach the output masked once the boundary redacts them', async () => {
    const { value } = await redactText(manualSnippet(body, ['quokkarelay'], 40));
    expect(value).toContain('[REDACTED:openai_api_key]');
    expect(value).not.toContain(SECRETS.openai.slice(8, 30));
  });
});
