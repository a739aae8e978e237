import { InvalidArgumentError } from 'commander';
import { AGENTS, isAgentId, type AgentId } from '../../shared/model.js';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new InvalidArgumentError('expected a port number 1-65535.');
  return port;
}

export function parseAgent(value: string): AgentId {
  if (!isAgentId(value)) throw new InvalidArgumentError(`expected one of ${AGENTS.join(', ')}.`);
  return value;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive whole number.');
  return n;
}
