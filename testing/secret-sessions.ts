/**
 * Test support: two Claude Code sessions whose first prompts, bodies and tool output hold one
 * secret of each kind people paste (GitHub token, AWS key pair, OpenAI key, a database URL's
 * password), next to words found nowhere else (so a search by a word beside a secret has one answer).
 */
import { writeClaudeTranscript } from './briefs/claude-transcript.js';

export const SECRETS = {
  github: 'ghp_Zx8Kq2Lm5Nv7Bc1Df4Gh6Jk9Pq3Rs0Tu2WyA',
  awsKeyId: 'AKIAZ7QX3MNB5VKD2W4P',
  awsSecret: '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',
  openai: 'sk-proj-Vb3Xn8Qw2Lk7Mz4Rt9Yp1Hc6Jd5Fg0Sa2Ue8Io',
  dbPassword: 'Hunter2Sup3rS3cretPw',
} as const;

/** Each secret, and the parts a search tokenizer splits it into (a half must not leak either). */
export const SECRET_VALUES: string[] = Object.values(SECRETS);
export const SECRET_HALVES: string[] = ['Zx8Kq2Lm5Nv7Bc1Df4Gh6Jk9Pq3Rs0Tu2WyA', 'Tq8vN3mLw2RkZ4nYc7HdJ9pF6sA1bE5uG0oXiK', 'Vb3Xn8Qw2Lk7Mz4Rt9Yp1Hc6Jd5Fg0Sa2Ue8Io'];

// Distinct first 8 characters: the transcript writer derives record uuids from them.
export const SECRET_SESSION_IDS = ['5ec7e7aa-0000-4000-8000-00000000aaaa', '5ec7e7bb-0000-4000-8000-00000000bbbb'] as const;
export const SECRET_CWD = '/home/ana/projects/vault-app';

/** Writes both sessions into `home`'s Claude store; both first prompts mention "zebrafinch". */
export function writeSecretSessions(home: string): void {
  writeClaudeTranscript({
    home,
    sessionId: SECRET_SESSION_IDS[0],
    cwd: SECRET_CWD,
    start: new Date(Date.now() - 60_000),
    turns: [
      { role: 'user', text: `Deploy zebrafinch with GITHUB_TOKEN ${SECRETS.github} and the database at postgres://app:${SECRETS.dbPassword}@db.internal:5432/app` },
      { role: 'assistant', text: 'I will set up the deployment.' },
      { role: 'user', text: `The AWS pair for marmosetbucket: access key ${SECRETS.awsKeyId} and the secret is ${SECRETS.awsSecret} please keep it safe` },
      { role: 'tool', name: 'Bash', input: { command: 'env | grep AWS' }, result: `AWS_ACCESS_KEY_ID=${SECRETS.awsKeyId}\nAWS_SECRET_ACCESS_KEY=${SECRETS.awsSecret}` },
      { role: 'user', text: `Use the OpenAI key ${SECRETS.openai} for the quokkarelay embeddings` },
      { role: 'assistant', text: 'Done: quokkarelay now embeds with the key you gave.' },
    ],
  });
  writeClaudeTranscript({
    home,
    sessionId: SECRET_SESSION_IDS[1],
    cwd: SECRET_CWD,
    start: new Date(Date.now() - 120_000),
    turns: [
      { role: 'user', text: `Rotate zebrafinch credentials: old token ${SECRETS.github}, AWS secret ${SECRETS.awsSecret}` },
      { role: 'assistant', text: 'Rotating.' },
    ],
  });
}

/** The secrets (whole, or a tokenizer's half of one) found in `text`. */
export function leakedSecrets(text: string): string[] {
  return [...SECRET_VALUES, ...SECRET_HALVES].filter((s) => text.includes(s));
}
