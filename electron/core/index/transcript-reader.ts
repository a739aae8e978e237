/**
 * What brief building, the MCP tools and the API need from the index to read a session without
 * re-parsing its transcript. The SQLite index implements it; briefs depend only on this.
 */
import type { Message, MessageKind, MessageRole, Session, UsageLimit } from '../../../shared/model.js';

export interface MessageQuery {
  kinds?: MessageKind[];
  roles?: MessageRole[];
  /** Skip this many matching messages (after ordering). */
  offset?: number;
  limit?: number;
  order?: 'asc' | 'desc';
  /** Only the current conversation: skip messages on branches the user left (Session.otherBranchSeqs). */
  currentBranch?: boolean;
}

export interface TranscriptReader {
  getSession(sessionId: string): Session | null;
  countMessages(sessionId: string, query?: MessageQuery): number;
  /** Matching messages ordered by seq. Tool outputs may be capped by the index (marked in text). */
  getMessages(sessionId: string, query?: MessageQuery): Message[];
  /**
   * The limit hit the session stopped on: its last recorded hit when no request was served after it
   * (null when none, or when work went on). Optional: readers without usage records have none.
   */
  limitStop?(sessionId: string): (UsageLimit & { at: string | null }) | null;
}
