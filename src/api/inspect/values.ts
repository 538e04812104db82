/**
 * Small conversions of wire values into the inspector's view model: amounts in tinybars and ℏ with every digit,
 * text fields that may be null or of another type. Plain TypeScript.
 */
import { tinybarsToHbar } from '../format';
import { type Int, intToString } from '../json';
import type { AmountView } from './model';

/** Tinybars as sent (number, bigint, digits) and in ℏ; null or missing is 0. */
export function amountOf(v: Int | string | null | undefined): AmountView {
  const tinybars = v === null || v === undefined || v === '' ? '0' : intToString(v);
  return { tinybars, hbar: tinybarsToHbar(tinybars) };
}

/** A text field as sent, '' for null, missing or anything not a string. */
export function textOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
