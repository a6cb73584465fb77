// action.yml run as a GitHub runner runs a composite action, for test/action.test.ts and
// test/start-stop.test.ts. Each step's `run:` script goes to `bash --noprofile --norc -eo pipefail`
// with the runner's environment (GITHUB_ACTION_PATH this repository, RUNNER_TEMP the job's
// temporary directory, a GITHUB_OUTPUT file per step) and the step's `env:` with `${{ inputs.… }}`
// and `${{ steps.….outputs.… }}` filled in; the action's outputs are read from its steps' outputs.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const execFileAsync = promisify(execFile);

export interface Step {
  id?: string;
  name?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
export interface Action {
  runs: { using: string; steps: Step[] };
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
}
/** Each step's outputs by its id, as `${{ steps.<id>.outputs.<name> }}` reads them. */
export type StepOutputs = Record<string, Record<string, string>>;

export const action = parse(readFileSync('action.yml', 'utf8')) as Action;

/** `${{ inputs.x }}` and `${{ steps.y.outputs.z }}`, as the runner fills them in. */
export function expand(text: string, inputs: Record<string, string>, outputs: StepOutputs): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (whole, path: string) => {
    const [scope, name, field, output] = path.split('.') as [string, string, string?, string?];
    if (scope === 'inputs') return inputs[name] ?? action.inputs[name]?.default ?? '';
    if (scope === 'steps' && field === 'outputs' && output !== undefined) return outputs[name]?.[output] ?? '';
    throw new Error(`the test runner does not know ${whole}`);
  });
}

/**
 * Runs these steps of the action (all of them by default) in a job whose temporary directory is
 * `runnerTemp`; `earlier` holds the outputs of steps run before them. Resolves to the action's
 * outputs and every step's.
 */
export async function runAction(
  inputs: Record<string, string>,
  runnerTemp: string,
  { steps = action.runs.steps, earlier = {} }: { steps?: readonly Step[]; earlier?: StepOutputs } = {},
): Promise<{ outputs: Record<string, string>; steps: StepOutputs }> {
  const outputs: StepOutputs = { ...earlier };
  // The runner's own files of this use of the action, apart from any other use's.
  const files = mkdtempSync(join(runnerTemp, '_runner-'));
  for (const [index, step] of steps.entries()) {
    if (step.run === undefined) throw new Error(`step ${index} is not a run: step`);
    const outputFile = join(files, `output-${index}`);
    writeFileSync(outputFile, '');
    const script = join(files, `step-${index}.sh`);
    writeFileSync(script, step.run);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GITHUB_ACTION_PATH: process.cwd(),
      RUNNER_TEMP: runnerTemp,
      GITHUB_OUTPUT: outputFile,
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expand(value, inputs, outputs);
    try {
      await execFileAsync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { env, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      throw new Error(`step "${step.name}" exited with ${failed.code}:\n${failed.stdout}${failed.stderr}`);
    }
    const lines = readFileSync(outputFile, 'utf8').split('\n').filter(Boolean);
    if (step.id !== undefined)
      outputs[step.id] = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  }
  return {
    outputs: Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, expand(output.value, inputs, outputs)])),
    steps: outputs,
  };
}
