/** Token counting for brief budgets (o200k_base via gpt-tokenizer: close enough for every target). */
import { countTokens as count } from 'gpt-tokenizer';

export function countTokens(text: string): number {
  return text ? count(text) : 0;
}
