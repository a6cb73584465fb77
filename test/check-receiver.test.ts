// Issue #36: `waste-operations-sandbox check-receiver <url> --secret <whsec_…>` and
// `checkReceiver(url, { secret })`, held to the contract's table (SANDBOX.md, "Receivers in any
// language"): receivers of our own that break one rule each, and one that breaks none, get
// exactly the failing checks; answers no receiver should give (a redirect, a dropped connection,
// none at all) fail as the table says; the command line's errors are exit code 2 with a message.
// The check names, their order and the reference's words are written here, not taken from src.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkReceiver } from '../src/index.js';
import { CLI } from './cli-server.js';
import { readmeExample } from './readme.js';
import {
  answeringReceiver,
  closingReceiver,
  gradedReceiver,
  type Rules,
  SECRET,
  silentReceiver,
  type TestReceiver,
} from './webhooks/graded-receiver.js';

const execFileAsync = promisify(execFile);

/** SANDBOX.md's table, in its order. */
const CHECKS = [
  'valid',
  'forged_signature',
  'tampered_body',
  'wrong_secret',
  'expired_timestamp',
  'future_timestamp',
  'missing_signature',
  'duplicate_delivery',
];
const REFUSAL_CHECKS = CHECKS.filter((name) => name !== 'valid' && name !== 'duplicate_delivery');

/** The reference's own sentences ("Events": "Signature" and "Delivery"), as a FAIL quotes them. */
const REFERENCE = {
  answer: 'The receiver answers any 2xx quickly and does its work afterwards.',
  hmac: "signature is the lowercase hex HMAC-SHA256 of the text <t>.<raw body> (t, a dot, the exact body bytes), keyed by the endpoint's whsec_ secret.",
  age: 'Receivers compare in constant time and reject a delivery whose t is in the future or five minutes (300 seconds) or more old.',
  header: 'Each delivery carries the header Service-Signature with value t=<unix_time>,v1=<signature>.',
  retries: 'Failed deliveries are retried with growing gaps between attempts.',
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

interface JsonCheck {
  name: string;
  ok: boolean;
  status: number | null;
  error?: string;
  location?: string;
  expected: string;
  event: { id: string; type: string };
  sent: string;
  answer: string;
  must?: string;
}

interface JsonReport {
  url: string;
  ok: boolean;
  checks: JsonCheck[];
  unreachable?: string;
}

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function started(receiver: Promise<TestReceiver>): Promise<TestReceiver> {
  const running = await receiver;
  receivers.push(running);
  return running;
}

/** The built command, as a CI step runs it; waits generously (8 deliveries, each bounded). */
async function command(...args: string[]): Promise<Outcome> {
  return execFileAsync(process.execPath, [CLI, 'check-receiver', ...args], { timeout: 120_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

async function jsonReport(...args: string[]): Promise<{ code: number; report: JsonReport }> {
  const outcome = await command(...args, '--json');
  expect(outcome.stderr, outcome.stdout).toBe('');
  return { code: outcome.code, report: JSON.parse(outcome.stdout) as JsonReport };
}

const failing = (report: JsonReport) => report.checks.filter((check) => !check.ok).map((check) => check.name);
const byName = (report: JsonReport, name: string) => report.checks.find((check) => check.name === name) as JsonCheck;

describe('check-receiver against a receiver that keeps every rule', () => {
  it('passes all eight checks, one PASS line each in the table order, exit code 0', async () => {
    const receiver = await started(gradedReceiver());
    const outcome = await command(receiver.url, '--secret', SECRET);
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    const lines = outcome.stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line));
    expect(lines.map((line) => line.split(/[ :]/)[1])).toEqual(CHECKS);
    expect(lines.every((line) => line.startsWith('PASS '))).toBe(true);
    expect(outcome.stdout).toMatch(/each answered within 10 s/);
    expect(outcome.stdout).toMatch(/All 8 checks passed\./);
    expect(receiver.requests.length).toBe(8);
  });

  it('--json: every check with its name, ok, status, the event sent; real sample events, one per check but the duplicate', async () => {
    const receiver = await started(gradedReceiver());
    const { code, report } = await jsonReport(receiver.url, '--secret', SECRET);
    expect(code).toBe(0);
    expect(report).toMatchObject({ url: receiver.url, ok: true });
    expect(report.checks.map((check) => check.name)).toEqual(CHECKS);
    for (const check of report.checks) {
      expect(check.ok, check.name).toBe(true);
      expect(check.event.type, check.name).toBe('job.created');
      expect(check.event.id, check.name).toMatch(/^evt_/);
      expect(check.must, check.name).toBeUndefined();
    }
    expect(report.checks.map((check) => check.status)).toEqual([200, 400, 400, 400, 400, 400, 400, 200]);
    const ids = report.checks.map((check) => check.event.id);
    expect(new Set(ids.slice(0, 7)).size).toBe(7);
    expect(ids[7]).toBe(ids[0]);
  });

  it('--type delivers events of another type', async () => {
    const receiver = await started(gradedReceiver());
    const { code, report } = await jsonReport(receiver.url, '--secret', SECRET, '--type', 'invoice.paid');
    expect(code).toBe(0);
    expect(new Set(report.checks.map((check) => check.event.type))).toEqual(new Set(['invoice.paid']));
  });
});

describe('check-receiver against receivers that break one rule each: exactly the checks that rule fails', () => {
  const cases: [string, Partial<Rules>, string[]][] = [
    ['no timestamp check', { checkPast: false, checkFuture: false }, ['expired_timestamp', 'future_timestamp']],
    ['no check of a t in the future', { checkFuture: false }, ['future_timestamp']],
    ['no check of an old t', { checkPast: false }, ['expired_timestamp']],
    ['no HMAC check (the header is required, t is checked)', { checkHmac: false }, ['forged_signature', 'tampered_body', 'wrong_secret']],
    ['an HMAC compared on its first 63 digits only', { comparedDigits: 63 }, ['forged_signature']],
    ['no header required', { requireHeader: false }, ['missing_signature']],
    ['refuses duplicates (409) instead of deduping', { duplicateStatus: 409 }, ['duplicate_delivery']],
    ['keyed by the secret without whsec_', { keyWithPrefix: false }, ['valid', 'duplicate_delivery']],
  ];

  it.each(cases)('%s', async (_, rules, expected) => {
    const receiver = await started(gradedReceiver(rules));
    const { code, report } = await jsonReport(receiver.url, '--secret', SECRET);
    expect(failing(report)).toEqual(expected);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    for (const name of expected) {
      const check = byName(report, name);
      expect(check.must, name).toMatch(/^It must /);
      expect(check.sent, name).toContain(check.event.id);
    }
  });

  it('a FAIL line says what was sent, what came back and what to do, quoting the reference', async () => {
    const receiver = await started(gradedReceiver({ checkPast: false, checkFuture: false, duplicateStatus: 409 }));
    const outcome = await command(receiver.url, '--secret', SECRET);
    expect(outcome.code).toBe(1);
    const line = (name: string) => outcome.stdout.split('\n').find((text) => text.startsWith(`FAIL ${name}:`)) ?? '';
    expect(line('expired_timestamp')).toMatch(
      /sent job\.created evt_\w+ signed correctly with t=\d+, 300 s old; the receiver answered 200/,
    );
    expect(line('expired_timestamp')).toContain(`Reference, "Signature": "${REFERENCE.age}"`);
    expect(line('future_timestamp')).toMatch(/t=\d+, 300 s ahead; the receiver answered 200 \("ok"\) \(expected not 2xx\)\. It must /);
    expect(line('duplicate_delivery')).toMatch(
      /the receiver answered 409 \("already processed"\) \(expected 2xx\)\. It must answer 2xx again/,
    );
    expect(line('duplicate_delivery')).toContain(REFERENCE.retries);
    expect(outcome.stdout).toMatch(/^5 of 8 checks passed\.$/m);
  });
});

describe('check-receiver against answers no receiver should give', () => {
  it('2xx to everything: fails exactly the six refusal checks, each quoting the rule it broke', async () => {
    const receiver = await started(answeringReceiver(204));
    const { code, report } = await jsonReport(receiver.url, '--secret', SECRET);
    expect(code).toBe(1);
    expect(failing(report)).toEqual(REFUSAL_CHECKS);
    for (const name of ['forged_signature', 'tampered_body', 'wrong_secret']) expect(byName(report, name).must).toContain(REFERENCE.hmac);
    for (const name of ['expired_timestamp', 'future_timestamp']) expect(byName(report, name).must).toContain(REFERENCE.age);
    expect(byName(report, 'missing_signature').must).toContain(REFERENCE.header);
    expect(byName(report, 'tampered_body').sent).toMatch(/one byte of the body changed/);
    expect(byName(report, 'wrong_secret').sent).toMatch(/another secret, whsec_\w+/);
    expect(byName(report, 'missing_signature').sent).toMatch(/no Service-Signature header/);
  });

  it('a 3xx: valid fails saying the receiver redirected, the redirect is never followed', async () => {
    const elsewhere = await started(answeringReceiver(200));
    const receiver = await started(answeringReceiver(307, { Location: elsewhere.url }));
    const { code, report } = await jsonReport(receiver.url, '--secret', SECRET);
    expect(code).toBe(1);
    expect(failing(report)).toEqual(['valid', 'duplicate_delivery']);
    const valid = byName(report, 'valid');
    expect(valid).toMatchObject({ status: 307, location: elsewhere.url });
    expect(valid.answer).toContain(`307, a redirect to ${elsewhere.url}`);
    expect(valid.must).toMatch(/redirected/);
    expect(valid.must).toContain(REFERENCE.answer);
    expect(receiver.requests.length).toBe(8);
    expect(elsewhere.requests.length).toBe(0);
  });

  it('a receiver that closes the connection fails every check: no answer is neither an acceptance nor a refusal', async () => {
    const receiver = await started(closingReceiver());
    const { code, report } = await jsonReport(receiver.url, '--secret', SECRET);
    expect(code).toBe(1);
    expect(failing(report)).toEqual(CHECKS);
    for (const check of report.checks) {
      expect(check.status, check.name).toBeNull();
      expect(check.error, check.name).toBe('connection closed without an answer');
    }
    expect(byName(report, 'forged_signature').must).toMatch(/It must answer, with a status that is not 2xx/);
  });

  it('a receiver slower than the time-out fails each check at the time-out (--timeout in seconds), no hang', async () => {
    const receiver = await started(silentReceiver());
    const outcome = await command(receiver.url, '--secret', SECRET, '--timeout', '0.3');
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toMatch(/each answered within 0\.3 s/);
    const fails = outcome.stdout.split('\n').filter((line) => line.startsWith('FAIL '));
    expect(fails).toHaveLength(8);
    for (const line of fails) expect(line).toContain('no answer: no answer within 0.3 s');
    expect(outcome.stdout).toMatch(/^0 of 8 checks passed\.$/m);
  });

  it('a URL where nothing listens: a clear message, exit code 1, no other check sent', async () => {
    const gone = await answeringReceiver(200);
    const url = gone.url;
    await gone.close();
    const outcome = await command(url, '--secret', SECRET);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain(
      `Nothing answers at ${url} (connection refused): start your receiver first, or check the host and port. No other check was run.`,
    );
    expect(outcome.stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line))).toEqual([expect.stringMatching(/^FAIL valid: /)]);
    const { report } = await jsonReport(url, '--secret', SECRET);
    expect(report).toMatchObject({ ok: false, unreachable: 'connection refused' });
    expect(report.checks.map((check) => check.name)).toEqual(['valid']);
  });
});

describe('check-receiver command lines that cannot run: exit code 2 and a message, never a stack trace', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'no URL',
      ['--secret', SECRET],
      /^check-receiver needs your receiver's URL, e\.g\. check-receiver http:\/\/127\.0\.0\.1:4242\/webhooks/,
    ],
    ['no secret', ['http://127.0.0.1:4242/webhooks'], /^--secret is required: the whsec_… signing secret your receiver verifies with/],
    [
      'a secret without whsec_',
      ['http://127.0.0.1:4242/webhooks', '--secret', 'sk_123'],
      /^--secret must be a signing secret beginning with whsec_/,
    ],
    ['an empty secret', ['http://127.0.0.1:4242/webhooks', '--secret', ''], /^--secret must be a signing secret beginning with whsec_/],
    ['a URL that is not http', ['ftp://127.0.0.1/webhooks', '--secret', SECRET], /^The receiver's URL must use http or https, not ftp/],
    ['no URL at all, a word', ['localhost:4242', '--secret', SECRET], /^The receiver's URL must (use http or https|be an absolute)/],
    ['text that is no URL', ['not a url', '--secret', SECRET], /^The receiver's URL must be an absolute http:\/\/ or https:\/\/ URL/],
    ['two URLs', ['http://127.0.0.1:1/a', 'http://127.0.0.1:1/b', '--secret', SECRET], /^check-receiver takes one URL, not 2/],
    ['a time-out of 0', ['http://127.0.0.1:4242/', '--secret', SECRET, '--timeout', '0'], /^--timeout must be a number of seconds above 0/],
    [
      'an unknown type',
      ['http://127.0.0.1:4242/', '--secret', SECRET, '--type', 'job.create'],
      /^Unknown event type "job\.create" for --type\. Did you mean "?job\.created"?\?/,
    ],
    ['an unknown flag', ['http://127.0.0.1:4242/', '--secret', SECRET, '--jsn'], /^Unknown option '--jsn'\. Did you mean --json\?/],
  ];

  it.each(cases)('%s', async (_, args, message) => {
    const outcome = await command(...args);
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(2);
    expect(outcome.stderr).toMatch(message);
    expect(outcome.stderr).toMatch(/Run with --help for usage\.\n$/);
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
    expect(outcome.stdout).toBe('');
  });

  it('--help describes it, and the command list names it', async () => {
    const help = await command('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/check-receiver <url> --secret <whsec_…>/);
    for (const name of CHECKS) expect(help.stdout).toContain(name);
    const { stdout } = await execFileAsync(process.execPath, [CLI, '--help']);
    expect(stdout).toMatch(/waste-operations-sandbox check-receiver <url> --secret <whsec_…>/);
  });
});

describe('checkReceiver, in-process', () => {
  it('resolves to the report: all eight pass on a correct receiver', async () => {
    const receiver = await started(gradedReceiver());
    const seen: string[] = [];
    const report = await checkReceiver(receiver.url, { secret: SECRET, onCheck: (check) => seen.push(check.name) });
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => check.name)).toEqual(CHECKS);
    expect(seen).toEqual(CHECKS);
  });

  it('a short time-out fails a receiver that answers slowly', async () => {
    const receiver = await started(silentReceiver());
    const report = await checkReceiver(receiver.url, { secret: SECRET, timeoutMs: 200 });
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toMatchObject({ name: 'valid', ok: false, status: null, error: 'no answer within 0.2 s' });
  });

  it('throws a TypeError naming what to pass for a URL or secret it cannot use', async () => {
    await expect(checkReceiver('ftp://127.0.0.1/', { secret: SECRET })).rejects.toThrow(
      new TypeError(`checkReceiver: the receiver's URL must use http or https, not ftp ("ftp://127.0.0.1/").`),
    );
    await expect(checkReceiver('http://127.0.0.1:4242/', { secret: 'secret' })).rejects.toThrow(
      /^checkReceiver: the secret must be the whsec_… signing secret/,
    );
    // From plain JavaScript, no options at all.
    await expect((checkReceiver as (url: string) => Promise<unknown>)('http://127.0.0.1:4242/')).rejects.toThrow(TypeError);
  });

  it("the guide's in-process example runs as written against a correct receiver", async () => {
    const receiver = await started(gradedReceiver());
    const folder = join('test', '.readme-examples', 'check-receiver');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'check-receiver-in-process.ts');
    const example = readmeExample('check-receiver-in-process');
    expect(example).toContain("checkReceiver('http://127.0.0.1:4242/webhooks', { secret: 'whsec_yourSecret' })");
    writeFileSync(file, example.replace('http://127.0.0.1:4242/webhooks', receiver.url).replace('whsec_yourSecret', SECRET));
    try {
      await import(/* @vite-ignore */ `../${file}`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

afterAll(() => rmSync(join('test', '.readme-examples', 'check-receiver'), { recursive: true, force: true }));
