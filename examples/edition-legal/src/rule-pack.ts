import type { MetadataRuleInput } from '@docqa/core';

/**
 * The legal rule pack: the metadata a legal team filters and asks by. Patterns use the Python
 * syntax of every DocQA rule, one capture group each; the engine runs them with a time budget.
 */
export const legalRules: readonly MetadataRuleInput[] = [
  {
    field_name: 'case_number',
    pattern: '(?i)\\b(?:case|docket)\\s+no\\.?\\s*([0-9]{1,2}:[0-9]{2}-[a-z]{2}-[0-9]{3,6})',
    scope: 'full',
    level: 'document',
    priority: 10,
  },
  {
    field_name: 'court',
    pattern: '\\b((?:Supreme|District|Circuit|County|High) Court(?: of (?:the )?[A-Z][a-z]+(?: [A-Z][a-z]+){0,3})?)',
    scope: 'header',
    level: 'document',
    priority: 10,
  },
  {
    field_name: 'governing_law',
    pattern: '(?i)governed by the laws of (?:the )?((?:state of )?[a-z]+(?: [a-z]+)?)',
    scope: 'full',
    level: 'document',
    priority: 5,
  },
  {
    // Chunk level: a clause's number carries over to the chunks that follow it, until the next clause.
    field_name: 'clause',
    pattern: '(?im)^\\s*(?:section|article|clause)\\s+([0-9]+(?:\\.[0-9]+)*)\\b',
    scope: 'full',
    level: 'chunk',
    priority: 5,
  },
];
