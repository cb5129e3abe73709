// Flag parsing for the commands: node:util parseArgs, with its errors turned into usage errors
// (exit 2) and small readers for numbers and choices that say what was expected.
import { parseArgs } from 'node:util';

import { resolveTolerance, type ToleranceOption } from '../core/regression-rule.js';
import { usageError } from './io.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** Parses flags strictly: an unknown flag or a missing value is a usage error naming it. */
export function parseCommandArgs(args: readonly string[], options: Record<string, OptionSpec>): ParsedArgs {
  try {
    const parsed = parseArgs({
      args: withNegativeValuesAttached(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
  } catch (error) {
    throw usageError(describeParseError(error));
  }
}

/**
 * `-M -5` and `--threads -1` as `-M=-5`-style single arguments: parseArgs takes a value that starts with
 * a dash for a flag ("argument is ambiguous"), so the number's own check could never say its range.
 */
function withNegativeValuesAttached(args: readonly string[], options: Record<string, OptionSpec>): string[] {
  const takesValue = (argument: string): boolean => {
    const long = /^--([^=]+)$/.exec(argument)?.[1];
    if (long !== undefined) return options[long]?.type === 'string';
    const short = /^-([^-])$/.exec(argument)?.[1];
    return short !== undefined && Object.values(options).some((spec) => spec.short === short && spec.type === 'string');
  };
  const result: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index]!;
    if (argument === '--') {
      result.push(...args.slice(index));
      break;
    }
    const next = args[index + 1];
    if (next !== undefined && /^-(\d|\.\d)/.test(next) && takesValue(argument)) {
      result.push(argument.startsWith('--') ? `${argument}=${next}` : `${argument}${next}`);
      index += 1;
    } else {
      result.push(argument);
    }
  }
  return result;
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    return `unknown option '${option}'`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /'([^']+)'/.exec(message)?.[1];
    if (message.includes('argument missing') && option !== undefined) return `option '${option}' needs a value`;
    return message.split('\n')[0] ?? message;
  }
  return message.split('\n')[0] ?? message;
}

export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name];
  if (Array.isArray(value)) return value.length === 0 ? undefined : String(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

export function stringList(parsed: ParsedArgs, name: string): string[] {
  const value = parsed.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

export function flag(parsed: ParsedArgs, name: string): boolean {
  return parsed.values[name] === true;
}

export interface NumberRule {
  integer?: boolean;
  min?: number;
  /** When true, min itself is not allowed. */
  minExclusive?: boolean;
  max?: number;
  maxExclusive?: boolean;
  example: string;
}

/** Reads a numeric flag value; anything else is a usage error with an example. */
export function numberOption(flagName: string, text: string | undefined, rule: NumberRule): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const value = rule.integer
    ? /^[+-]?\d+$/.test(trimmed)
      ? Number(trimmed)
      : Number.NaN
    : trimmed === ''
      ? Number.NaN
      : Number(trimmed);
  // Beyond 2^53 a whole number is no longer itself (9007199254740993 reads as …992).
  if (rule.integer && Number.isFinite(value) && !Number.isSafeInteger(value))
    throw usageError(
      `${flagName} must be a whole number of at most ${Number.MAX_SAFE_INTEGER} (2^53 − 1), got '${text}' (e.g. ${flagName} ${rule.example})`,
    );
  const belowMin = rule.min !== undefined && (rule.minExclusive ? value <= rule.min : value < rule.min);
  const aboveMax = rule.max !== undefined && (rule.maxExclusive ? value >= rule.max : value > rule.max);
  if (!Number.isFinite(value) || belowMin || aboveMax) {
    const kind = rule.integer ? 'a whole number' : 'a number';
    const lower = rule.min === undefined ? '' : ` ${rule.minExclusive ? '>' : '≥'} ${rule.min}`;
    const upper =
      rule.max === undefined ? '' : `${lower === '' ? '' : ' and'} ${rule.maxExclusive ? '<' : '≤'} ${rule.max}`;
    throw usageError(`${flagName} must be ${kind}${lower}${upper}, got '${text}' (e.g. ${flagName} ${rule.example})`);
  }
  return value;
}

export function choiceOption<T extends string>(
  flagName: string,
  text: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) {
    throw usageError(`${flagName} must be one of ${choices.join(', ')}, got '${text}'`);
  }
  return text as T;
}

/**
 * `--tolerance 0.02` or `--tolerance 0.02,recall@5=0,ndcg@10=0.05` (a bare number is the default): the
 * reporters' and toNotRegressFrom's tolerance grammar on the command line.
 */
export function parseToleranceOption(text: string | undefined): ToleranceOption | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((part) => part.trim());
  const option: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const part of parts) {
    const at = part.lastIndexOf('=');
    const key = at < 0 ? 'default' : part.slice(0, at).trim();
    const value = numberOption(
      at < 0 ? '--tolerance' : `--tolerance ${key}`,
      at < 0 ? part : part.slice(at + 1).trim(),
      { min: 0, example: '0.01' },
    );
    if (key === '' || value === undefined)
      throw usageError(
        `--tolerance: expected a number or MEASURE=NUMBER, got '${part}' (e.g. --tolerance 0.02,recall@5=0)`,
      );
    if (Object.prototype.hasOwnProperty.call(option, key)) throw usageError(`--tolerance: ${key} is given twice`);
    // Its range checked here, so that the message names the flag as typed (`--tolerance recall@5`).
    try {
      resolveTolerance(value, at < 0 ? '--tolerance' : `--tolerance ${key}`);
    } catch (error) {
      throw usageError((error as Error).message);
    }
    option[key] = value;
  }
  try {
    resolveTolerance(option, '--tolerance');
  } catch (error) {
    throw usageError((error as Error).message);
  }
  return option;
}
