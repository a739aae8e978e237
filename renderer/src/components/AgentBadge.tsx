import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';

const SHORT: Record<AgentId, string> = { claude: 'Claude', codex: 'Codex', opencode: 'OpenCode', hermes: 'Hermes', gemini: 'Gemini', qwen: 'Qwen', pi: 'pi', cline: 'Cline', kilo: 'Kilo', copilot: 'Copilot', continue: 'Continue', droid: 'Droid', letta: 'Letta' };

export function AgentBadge({ agent }: { agent: AgentId }) {
  return (
    <span className="agent-badge" data-agent={agent} title={AGENT_LABELS[agent]}>
      {SHORT[agent]}
    </span>
  );
}
